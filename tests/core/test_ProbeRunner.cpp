// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "RaisedInputError.h"
#include "TestSupport.h"
#include "io/InputError.h"
#include "probe/CudaMemoryStats.h"
#include "probe/JobSampler.h"
#include "probe/ProbeRunner.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

using gpumem::probe::JobFamily, gpumem::probe::ProbeOptions, gpumem::probe::ProbeRunner;

namespace {

ProbeOptions options(const QString &path, JobFamily family, std::uint64_t count)
{
    ProbeOptions result;
    result.family = family;
    result.count = count;
    result.seed = 5;
    result.steps = 2;
    result.outPath = path.toStdString();
    return result;
}

} // namespace

class TestProbeRunner : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void sameSeedSameFile()
    {
        QTemporaryDir folder;
        const QString first = folder.filePath("a.csv");
        const QString second = folder.filePath("b.csv");
        const auto summary = ProbeRunner(options(first, JobFamily::Mlp, 5)).run();
        ProbeRunner(options(second, JobFamily::Mlp, 5)).run();
        QCOMPARE(summary.measured, std::uint64_t{5});
        QCOMPARE(summary.ok, std::uint64_t{5});
        QCOMPARE(fileBytes(first), fileBytes(second));
        QCOMPARE(fileBytes(first).count('\n'), 6); // header + 5 rows
        QVERIFY(!QFile::exists(first + ".partial"));
    }

    void aShardDrawsOnlyItsOwnJobs()
    {
        // The first configuration that the list draws a second time.
        const gpumem::probe::JobSampler sampler(JobFamily::Mlp, "cpu", 5, 2);
        std::map<std::string, std::uint64_t> firstDraw;
        std::uint64_t earlier = 0;
        std::uint64_t repeat = 0;
        for (std::uint64_t index = 0; repeat == 0 && index < 100000; ++index) {
            const auto [found, inserted] = firstDraw.emplace(sampler.sample(index).key(), index);
            if (!inserted) {
                earlier = found->second;
                repeat = index;
            }
        }
        QVERIFY(repeat > 0);
        // One shard per job: the repeat's shard holds it alone. Knowing that another
        // shard drew it first would take drawing the whole list; the shard measures it,
        // and its row is the one the whole run writes at the first draw.
        QTemporaryDir folder;
        const auto oneJob = [&](std::uint64_t index) {
            ProbeOptions shard =
                options(folder.filePath(QStringLiteral("job%1.csv").arg(index)), JobFamily::Mlp, repeat + 1);
            shard.shardIndex = index;
            shard.shardCount = repeat + 1;
            const auto summary = ProbeRunner(shard).run();
            return std::make_pair(summary.measured, fileBytes(QString::fromStdString(shard.outPath)));
        };
        const auto [measured, repeated] = oneJob(repeat);
        QCOMPARE(measured, std::uint64_t{1});
        QCOMPARE(repeated.count('\n'), 2); // header and one row
        QCOMPARE(repeated, oneJob(earlier).second);
    }

    void resumeAfterTruncationEqualsStraightRun()
    {
        QTemporaryDir folder;
        const QString straight = folder.filePath("straight.csv");
        ProbeRunner(options(straight, JobFamily::Cnn, 5)).run();
        const QByteArray expected = fileBytes(straight);

        // Cut the file in the middle of its fourth row, as a crash might.
        int fourthRow = 0;
        for (int newline = 0; newline < 4; ++newline)
            fourthRow = expected.indexOf('\n', fourthRow) + 1;
        const QString resumed = folder.filePath("resumed.csv");
        QVERIFY(writeFile(resumed, expected.left(fourthRow + 25)));
        ProbeOptions again = options(resumed, JobFamily::Cnn, 5);
        again.resume = true;
        const auto summary = ProbeRunner(again).run();
        QVERIFY(summary.repairedTail);
        QCOMPARE(summary.skipped, std::uint64_t{3});
        QCOMPARE(summary.measured, std::uint64_t{2});
        QCOMPARE(fileBytes(resumed), expected);
    }

    void resumeContinuesAnInterruptedPartialFile()
    {
        QTemporaryDir folder;
        const QString straight = folder.filePath("straight.csv");
        ProbeRunner(options(straight, JobFamily::Mlp, 4)).run();
        const QByteArray expected = fileBytes(straight);
        // An interrupted fresh run leaves only FILE.csv.partial.
        const QString path = folder.filePath("run.csv");
        const int secondRowEnd = expected.indexOf('\n', expected.indexOf('\n') + 1) + 1;
        QVERIFY(writeFile(path + ".partial", expected.left(secondRowEnd + 7)));
        ProbeOptions again = options(path, JobFamily::Mlp, 4);
        again.resume = true;
        ProbeRunner(again).run();
        QCOMPARE(fileBytes(path), expected);
        QVERIFY(!QFile::exists(path + ".partial"));
    }

    void resumeExtendsACompleteFile()
    {
        QTemporaryDir folder;
        const QString longer = folder.filePath("seven.csv");
        ProbeRunner(options(longer, JobFamily::Mlp, 7)).run();
        const QString path = folder.filePath("five.csv");
        ProbeRunner(options(path, JobFamily::Mlp, 5)).run();
        ProbeOptions again = options(path, JobFamily::Mlp, 7);
        again.resume = true;
        const auto summary = ProbeRunner(again).run();
        QCOMPARE(summary.skipped, std::uint64_t{5});
        QCOMPARE(fileBytes(path), fileBytes(longer));
    }

    void resumeRefusesAnotherFamilysFile()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("cnn.csv");
        ProbeRunner(options(path, JobFamily::Cnn, 1)).run();
        ProbeOptions again = options(path, JobFamily::Mlp, 2);
        again.resume = true;
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, ProbeRunner(again).run());
        QCOMPARE(fileBytes(path).count('\n'), 2); // untouched
    }

    void resumeRefusesAMalformedRow_data()
    {
        addColumns<QString, QString, QString, QString>("pattern", "replacement", "column", "message");
        // Each edit damages the second data row (line 3) the way a hand edit or another program might.
        // The column is a name, or the 1-based field where the header and the row part.
        addRow("missing field", ",[^,]*$", "", "23", "row has 22 fields, the header has 23");
        addRow("extra field", "$", ",extra", "24", "row has 24 fields, the header has 23");
        addRow("another family", "^mlp,", "cnn,", "family", "family 'cnn' in a file of mlp jobs");
        addRow("broken layer sequence", "\"\\[\\(", "\"[(oops, ", "layer_sequence", "malformed layer sequence:");
        addRow("broken quoting", "\"\\[", "x\"[", "layer_sequence", "broken quoting");
        addRow("unknown status", ",ok,", ",done,", "status", "status 'done' (known: ok, out_of_memory, invalid)");
        addRow("not a number", "^mlp,[0-9]+,", "mlp,lots,", "batch_size",
               "column 'batch_size' needs a whole number, not 'lots'");
        addRow("unknown choice", ",(sgd|sgd_momentum|adam|adamw),", ",lion,", "optimizer",
               "column 'optimizer' holds 'lion' (known: sgd, sgd_momentum, adam, adamw)");
        addRow("negative peak", ",cpu,([^,]*),[0-9.]+,", ",cpu,\\1,-3,", "peak_allocated_mib",
               "column 'peak_allocated_mib' needs a number of MiB, not '-3'");
        addRow("other device", ",cpu,", ",cuda,", "device",
               "measured on 'cuda', not on cpu; resume with the same device");
        addRow("ok without a peak", ",cpu,([^,]*),[0-9.]+,", ",cpu,\\1,,", "peak_allocated_mib",
               "a row with status ok needs its peak_allocated_mib");
    }

    // Regression: --resume kept a malformed row of the earlier file, and the result could not be read.
    void resumeRefusesAMalformedRow()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, replacement);
        QFETCH(QString, column);
        const int line = 3; // the second data row, which every edit damages
        QFETCH(QString, message);
        QTemporaryDir folder;
        const QString path = folder.filePath("mlp.csv");
        ProbeRunner(options(path, JobFamily::Mlp, 3)).run();
        QList<QByteArray> lines = fileBytes(path).split('\n');
        QCOMPARE(lines.size(), 5); // header, 3 rows, the empty rest after the last newline
        QString row = QString::fromUtf8(lines[line - 1]);
        const QString damaged = QString(row).replace(QRegularExpression(pattern), replacement);
        QVERIFY2(damaged != row, qPrintable(row));
        lines[line - 1] = damaged.toUtf8();
        QVERIFY(writeFile(path, lines.join('\n')));
        const QByteArray before = fileBytes(path);

        ProbeOptions again = options(path, JobFamily::Mlp, 4);
        again.resume = true;
        const std::vector<std::string> names = ProbeRunner::columnNames(JobFamily::Mlp);
        bool numbered = false;
        std::int64_t expectedColumn = column.toLongLong(&numbered);
        if (!numbered)
            expectedColumn = std::find(names.begin(), names.end(), column.toStdString()) - names.begin() + 1;
        const auto error = gpumem::tests::raisedInputError([&again] { ProbeRunner(again).run(); });
        QCOMPARE(QString::fromStdString(error.file()), path);
        QCOMPARE(error.line(), std::int64_t(line));
        QCOMPARE(error.column(), expectedColumn);
        QVERIFY2(error.message().rfind(message.toStdString(), 0) == 0, error.what());
        QCOMPARE(fileBytes(path), before); // the user's file is never rewritten
        QVERIFY(!QFile::exists(path + ".partial"));
    }

    void resumeAcceptsItsOwnRowsOfEveryStatus()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("limited.csv");
        ProbeOptions limited = options(path, JobFamily::Transformer, 2);
        limited.memoryLimitBytes = 4096; // out_of_memory rows, with empty peaks
        ProbeRunner(limited).run();
        limited.count = 3;
        limited.resume = true;
        const auto summary = ProbeRunner(limited).run();
        QCOMPARE(summary.skipped, std::uint64_t{2});
        QCOMPARE(summary.measured, std::uint64_t{1});
    }

    // Issue 24: a link planted at the predictable OUT.partial name pointed the
    // probe's writes at any file (a dataset was replaced by probe rows, and OUT
    // became a link to it). The link is replaced, never written through.
    void aLinkPlantedAtThePartialNameIsNotFollowed()
    {
        QTemporaryDir folder;
        const QString victim = folder.filePath("dataset.csv");
        const QByteArray precious = "a,b\n1,2\n3,4\n";
        QVERIFY(writeFile(victim, precious));
        const QString out = folder.filePath("out.csv");
        QVERIFY(QFile::link(victim, out + ".partial"));
        const auto summary = ProbeRunner(options(out, JobFamily::Mlp, 3)).run();
        QCOMPARE(summary.measured, std::uint64_t{3});
        QCOMPARE(fileBytes(victim), precious);
        QVERIFY(!QFileInfo(out).isSymLink());
        QCOMPARE(fileBytes(out).count('\n'), 4);
        QVERIFY(!QFileInfo::exists(out + ".partial") && !QFileInfo(out + ".partial").isSymLink());

        // Resuming does not read through such a link either: it is refused.
        QVERIFY(QFile::link(victim, out + ".partial"));
        ProbeOptions again = options(out, JobFamily::Mlp, 3);
        again.resume = true;
        const std::string message = gpumem::tests::raisedInputError([&] { ProbeRunner(again).run(); }).what();
        QVERIFY2(message.find("out.csv.partial: is not a partial file of an earlier run") != std::string::npos,
                 message.c_str());
        QCOMPARE(fileBytes(victim), precious);
    }

    void cudaWithoutCudaIsRefusedUpFront()
    {
        if (gpumem::probe::CudaMemoryStats::available())
            QSKIP("CUDA is available");
        QTemporaryDir folder;
        ProbeOptions cuda = options(folder.filePath("cuda.csv"), JobFamily::Mlp, 2);
        cuda.device = "cuda";
        // Regression: the run went through, writing every job as invalid.
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, ProbeRunner(cuda).run());
        QVERIFY(!QFile::exists(folder.filePath("cuda.csv")));
        QVERIFY(!QFile::exists(folder.filePath("cuda.csv.partial")));
    }

    void failedJobsAreRecorded()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("limited.csv");
        ProbeOptions limited = options(path, JobFamily::Transformer, 3);
        limited.memoryLimitBytes = 4096; // no Transformer fits
        const auto summary = ProbeRunner(limited).run();
        QCOMPARE(summary.outOfMemory, std::uint64_t{3});
        const QList<QByteArray> lines = fileBytes(path).trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        for (int line = 1; line < lines.size(); ++line)
            QVERIFY(lines[line].contains(",out_of_memory,"));
    }
};

QTEST_GUILESS_MAIN(TestProbeRunner)
#include "test_ProbeRunner.moc"
