// SPDX-License-Identifier: GPL-3.0-or-later
// The probe workflow on a tiny simulated run: the rows and columns it writes, a
// resume that adds nothing, an output behind a symlink and the merge of shards.
#include "TestSupport.h"
#include "estimate/GpuProfile.h"
#include "io/InputError.h"
#include "probe/ProbeCsvLine.h"
#include "workflows/ProbeWorkflow.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr std::uint64_t kJobs = 4;

// Four MLP jobs traced on the CPU and replayed for a T4, into path.
gpumem::workflows::ProbeConfiguration simulatedRun(const QString &path)
{
    gpumem::workflows::ProbeConfiguration configuration;
    configuration.options.family = gpumem::probe::JobFamily::Mlp;
    configuration.options.count = kJobs;
    configuration.options.seed = 7;
    configuration.options.steps = 2;
    configuration.options.outPath = path.toStdString();
    configuration.gpu = "t4";
    return configuration;
}

// The file's records, each split into its cells; the header first.
std::vector<std::vector<std::string>> rowsOf(const QString &path)
{
    std::vector<std::vector<std::string>> rows;
    for (const std::string &line : gpumem::tests::firstLines(path.toStdString(), 1000)) {
        rows.emplace_back();
        gpumem::probe::splitCsvLine(line, rows.back());
    }
    return rows;
}

std::size_t columnOf(const std::vector<std::string> &header, const std::string &name)
{
    for (std::size_t column = 0; column < header.size(); ++column)
        if (header[column] == name)
            return column;
    return header.size();
}

} // namespace

class TestProbeWorkflow : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void writesOneSimulatedRowPerJob()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("jobs.csv");
        const auto summary = gpumem::workflows::probeJobs(simulatedRun(path));
        QCOMPARE(summary.measured, kJobs);
        QCOMPARE(summary.ok + summary.outOfMemory + summary.invalid, kJobs);
        // Some rows have device totals to check.
        QVERIFY(summary.ok > 0);
        QVERIFY(!QFile::exists(path + ".partial")); // renamed into place when the run finished
        const auto rows = rowsOf(path);
        QCOMPARE(rows.size(), std::size_t{kJobs + 1});
        const auto &header = rows.front();
        for (const char *column : {"family", "batch_size", "layer_sequence", "peak_allocated_mib", "simulated_gpu",
                                   "simulated_reserved_mib", "simulated_device_mib", "status"})
            QVERIFY2(columnOf(header, column) < header.size(), column);
        // The device total is the replay's reserved peak plus the T4 profile's context and workspace.
        const auto profile = gpumem::estimate::findGpuProfile("t4");
        for (std::size_t row = 1; row < rows.size(); ++row) {
            QCOMPARE(rows[row].size(), header.size());
            QCOMPARE(rows[row][columnOf(header, "family")], std::string("mlp"));
            QCOMPARE(rows[row][columnOf(header, "simulated_gpu")], std::string("t4"));
            if (rows[row][columnOf(header, "status")] != "ok")
                continue;
            const double reserved = std::atof(rows[row][columnOf(header, "simulated_reserved_mib")].c_str());
            const double device = std::atof(rows[row][columnOf(header, "simulated_device_mib")].c_str());
            QCOMPARE(device - reserved, profile.contextMib + profile.workspaceMib);
        }
    }

    void aResumeOfAFinishedRunAddsNothing()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("jobs.csv");
        gpumem::workflows::probeJobs(simulatedRun(path));
        const QByteArray before = fileBytes(path);
        auto again = simulatedRun(path);
        again.options.resume = true;
        const auto summary = gpumem::workflows::probeJobs(again);
        QCOMPARE(summary.measured, std::uint64_t{0});
        QCOMPARE(summary.skipped, kJobs);
        QCOMPARE(fileBytes(path), before);
    }

    void writesThroughASymlinkAndRefusesADevice()
    {
        QTemporaryDir folder;
        const QString target = folder.filePath("target.csv");
        const QString link = folder.filePath("link.csv");
        QVERIFY(writeText(target, "old\n"));
        QVERIFY(QFile::link(target, link));
        QCOMPARE(gpumem::workflows::resumableOutputPath(link.toStdString()), target.toStdString());
        gpumem::workflows::probeJobs(simulatedRun(link));
        QVERIFY(QFileInfo(link).isSymLink()); // the link stays, its target holds the rows
        QCOMPARE(rowsOf(target).size(), std::size_t{kJobs + 1});
        try {
            gpumem::workflows::probeJobs(simulatedRun("/dev/null"));
            QFAIL("a device was accepted as the probe's output");
        } catch (const gpumem::io::InputError &error) {
            QVERIFY2(contains(error.what(), "/dev/null: is not a regular file"), error.what());
        }
    }

    void mergedShardsEqualTheWholeRun()
    {
        QTemporaryDir folder;
        const QString whole = folder.filePath("whole.csv");
        gpumem::workflows::probeJobs(simulatedRun(whole));
        std::vector<std::string> parts;
        for (std::uint64_t shard = 0; shard < 2; ++shard) {
            auto part = simulatedRun(folder.filePath(QStringLiteral("part%1.csv").arg(shard)));
            part.options.shardIndex = shard;
            part.options.shardCount = 2;
            gpumem::workflows::probeJobs(part);
            parts.push_back(part.options.outPath);
        }
        const QString merged = folder.filePath("merged.csv");
        gpumem::workflows::mergeProbeShards(simulatedRun(merged), parts);
        QCOMPARE(fileBytes(merged), fileBytes(whole));
    }
};

QTEST_APPLESS_MAIN(TestProbeWorkflow)
#include "test_ProbeWorkflow.moc"
