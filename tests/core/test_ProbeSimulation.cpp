// SPDX-License-Identifier: GPL-3.0-or-later
// `gpumem probe --gpu`: jobs traced, extrapolated and simulated on a GPU profile.
#include "CommandLineRun.h"
#include "DataTables.h"
#include "estimate/GpuProfile.h"
#include "probe/JobSampler.h"
#include "probe/ProbeRunner.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

namespace {

using Row = std::map<QString, QString>;

// Splits one line of a probe file: cells between commas, a quoted cell holding commas.
QStringList cellsOf(const QString &line)
{
    QStringList cells;
    QString cell;
    bool quoted = false;
    for (const QChar character : line) {
        if (character == QLatin1Char('"'))
            quoted = !quoted;
        else if (character == QLatin1Char(',') && !quoted)
            cells.push_back(std::exchange(cell, QString()));
        else
            cell += character;
    }
    cells.push_back(cell);
    return cells;
}

std::vector<Row> readProbeFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const QStringList header = cellsOf(lines.front());
    std::vector<Row> rows;
    for (qsizetype line = 1; line < lines.size(); ++line) {
        const QStringList cells = cellsOf(lines[line]);
        Row row;
        for (qsizetype column = 0; column < header.size() && column < cells.size(); ++column)
            row[header[column]] = cells[column];
        rows.push_back(row);
    }
    return rows;
}

Run probe(const QString &out, const std::vector<std::string> &extra)
{
    std::vector<std::string> arguments{"probe",   "--family", "mlp",   "--count",        "6", "--seed", "3",
                                       "--steps", "2",        "--out", out.toStdString()};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return runGpumem(arguments);
}

} // namespace

class TestProbeSimulation : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void simulatesEveryJobOnTheProfile()
    {
        QTemporaryDir folder;
        const QString measuredPath = QDir(folder.path()).filePath("measured.csv");
        const QString simulatedPath = QDir(folder.path()).filePath("simulated.csv");
        QCOMPARE(probe(measuredPath, {}).exitCode, 0);
        const Run run = probe(simulatedPath, {"--gpu", "t4"});
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const std::vector<Row> measured = readProbeFile(measuredPath);
        const std::vector<Row> simulated = readProbeFile(simulatedPath);
        QCOMPARE(simulated.size(), measured.size());
        QVERIFY(simulated.size() >= 5);

        const gpumem::estimate::GpuProfile t4 = gpumem::estimate::findGpuProfile("t4");
        int sgdRows = 0;
        for (std::size_t row = 0; row < simulated.size(); ++row) {
            const Row &job = simulated[row];
            QCOMPARE(job.at("status"), QStringLiteral("ok"));
            QCOMPARE(job.at("simulated_gpu"), QStringLiteral("t4"));
            QCOMPARE(job.at("layer_sequence"), measured[row].at("layer_sequence")); // the same jobs, in order
            const double allocated = job.at("peak_allocated_mib").toDouble();
            const double reserved = job.at("simulated_reserved_mib").toDouble();
            const double device = job.at("simulated_device_mib").toDouble();
            // The caching allocator reserves whole 2 MiB segments (or larger rounded ones), at least what is live.
            QVERIFY(reserved >= allocated);
            QCOMPARE(std::fmod(reserved, 2.0), 0.0);
            QCOMPARE(device, reserved + t4.contextMib + t4.workspaceMib);
            // Plain SGD updates in place, as LibTorch's optimizer does: the traced peak is the measured one.
            if (job.at("optimizer") == QStringLiteral("sgd")) {
                ++sgdRows;
                QCOMPARE(job.at("peak_allocated_mib"), measured[row].at("peak_allocated_mib"));
            }
        }
        QVERIFY2(sgdRows > 0, "seed 3 draws an sgd job among the first six");
    }

    void resumeKeepsTheProfile()
    {
        QTemporaryDir folder;
        const QString path = QDir(folder.path()).filePath("simulated.csv");
        QCOMPARE(probe(path, {"--gpu", "t4"}).exitCode, 0);
        const Run otherGpu = probe(path, {"--gpu", "l4", "--resume"});
        QCOMPARE(otherGpu.exitCode, 1);
        QVERIFY2(QString::fromStdString(otherGpu.err).contains(QStringLiteral("--gpu")), otherGpu.err.c_str());
        const Run measured = probe(path, {"--resume"});
        QCOMPARE(measured.exitCode, 1);
        QVERIFY2(QString::fromStdString(measured.err).contains(QStringLiteral("--gpu")), measured.err.c_str());
        const Run same = probe(path, {"--gpu", "t4", "--resume"});
        QVERIFY2(same.exitCode == 0, same.err.c_str());
        QVERIFY2(same.out.find("skipped 6 already measured") != std::string::npos, same.out.c_str());
    }

    void refusesWhatCannotWork_data()
    {
        addColumns<QStringList, QString>("extra", "message");
        addRow("gpu sizes run directly", QStringList{"--sizes", "gpu"}, "--sizes gpu on the CPU needs --gpu");
        addRow("unknown sizes", QStringList{"--sizes", "huge"}, "--sizes takes cpu or gpu");
        addRow("unknown profile", QStringList{"--gpu", "no-such-card"}, "no-such-card");
        addRow("on the card", QStringList{"--gpu", "t4", "--device", "cuda"}, "--gpu traces on the CPU");
    }
    void refusesWhatCannotWork()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, message);
        QTemporaryDir folder;
        std::vector<std::string> arguments;
        for (const QString &argument : extra)
            arguments.push_back(argument.toStdString());
        const Run run = probe(QDir(folder.path()).filePath("out.csv"), arguments);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(std::count(run.err.begin(), run.err.end(), '\n'), std::ptrdiff_t{1});
        QVERIFY2(QString::fromStdString(run.err).contains(message), run.err.c_str());
        QVERIFY(!QFile::exists(QDir(folder.path()).filePath("out.csv")));
    }

    void aCountAboveTheLimitIsRefusedBeforeAnyDraw()
    {
        // Without a limit, a merge of --count 100000000 drew every configuration into
        // memory (19 GB after ten minutes), and so did each shard.
        QTemporaryDir folder;
        const std::string out = QDir(folder.path()).filePath("out.csv").toStdString();
        const std::string over = std::to_string(gpumem::probe::maxProbeJobs + 1);
        const std::vector<std::string> common{"probe", "--family", "mlp", "--count", over, "--out", out};
        for (const std::vector<std::string> &extra :
             {std::vector<std::string>{}, std::vector<std::string>{"--shard", "5/1000001"},
              std::vector<std::string>{"--merge", QDir(folder.path()).filePath("part.csv").toStdString()}}) {
            std::vector<std::string> arguments = common;
            arguments.insert(arguments.end(), extra.begin(), extra.end());
            const Run run = runGpumem(arguments);
            QCOMPARE(run.exitCode, 1);
            QCOMPARE(std::count(run.err.begin(), run.err.end(), '\n'), std::ptrdiff_t{1});
            QVERIFY2(run.err.find("--count 1000001 is more than the 1000000 configurations one probe may draw") !=
                         std::string::npos,
                     run.err.c_str());
            QVERIFY(!QFile::exists(QString::fromStdString(out)));
        }
        // The limit itself is a count one shard of a single job serves.
        const std::string limit = std::to_string(gpumem::probe::maxProbeJobs);
        const Run last = runGpumem({"probe", "--family", "mlp", "--count", limit, "--steps", "1", "--shard",
                                    std::to_string(gpumem::probe::maxProbeJobs - 1) + "/" + limit, "--out", out});
        QVERIFY2(last.exitCode == 0, last.err.c_str());
        QVERIFY2(last.out.find("measured 1 jobs") != std::string::npos, last.out.c_str());
    }

    void drawsTheSizesPeopleTrain()
    {
        using gpumem::probe::JobFamily;
        using gpumem::probe::JobSampler;
        using gpumem::probe::JobSizes;
        const JobSampler cnns(JobFamily::Cnn, "cpu", 42, 2, JobSizes::Gpu);
        const JobSampler transformers(JobFamily::Transformer, "cpu", 42, 2, JobSizes::Gpu);
        int widest = 0;
        for (std::uint64_t index = 0; index < 200; ++index) {
            const auto cnn = cnns.sample(index);
            QVERIFY(cnn.resolution >= 64 && cnn.resolution <= 224);
            QVERIFY(cnn.baseChannels >= 32);
            QVERIFY(cnn.batchSize >= 8 && cnn.batchSize <= 256);
            widest = std::max(widest, cnn.channelsOfBlock(cnn.blocks - 1));
            const auto transformer = transformers.sample(index);
            QVERIFY(transformer.dModel >= 256 && transformer.dModel <= 1024);
            QVERIFY(transformer.sequenceLength >= 128 && transformer.sequenceLength <= 1024);
            QVERIFY(transformer.batchSize >= 8 && transformer.batchSize <= 256);
            QCOMPARE(transformer.dModel % transformer.heads, 0);
        }
        QCOMPARE(widest, 512);
        // The CPU sizes draw what they drew before: the first job of datasets/probe_cnn.csv.
        const auto first = JobSampler(JobFamily::Cnn, "cpu", 42, 3).sample(0);
        QCOMPARE(first.batchSize, 32);
        QCOMPARE(first.resolution, 32);
        QCOMPARE(first.blocks, 3);
        QCOMPARE(first.baseChannels, 16);
        QCOMPARE(first.optimizer, std::string("adam"));
    }
};

QTEST_GUILESS_MAIN(TestProbeSimulation)
#include "test_ProbeSimulation.moc"
