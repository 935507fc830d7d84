#include "io/InputError.h"
#include "probe/ProbeRunner.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using gpumem::probe::JobFamily;
using gpumem::probe::ProbeOptions;
using gpumem::probe::ProbeRunner;

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

QByteArray contents(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

void write(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(bytes);
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
        QCOMPARE(contents(first), contents(second));
        QCOMPARE(contents(first).count('\n'), 6); // header + 5 rows
        QVERIFY(!QFile::exists(first + ".partial"));
    }

    void resumeAfterTruncationEqualsStraightRun()
    {
        QTemporaryDir folder;
        const QString straight = folder.filePath("straight.csv");
        ProbeRunner(options(straight, JobFamily::Cnn, 5)).run();
        const QByteArray expected = contents(straight);

        // Cut the file in the middle of its fourth row, as a crash might.
        int fourthRow = 0;
        for (int newline = 0; newline < 4; ++newline)
            fourthRow = expected.indexOf('\n', fourthRow) + 1;
        const QString resumed = folder.filePath("resumed.csv");
        write(resumed, expected.left(fourthRow + 25));
        ProbeOptions again = options(resumed, JobFamily::Cnn, 5);
        again.resume = true;
        const auto summary = ProbeRunner(again).run();
        QVERIFY(summary.repairedTail);
        QCOMPARE(summary.skipped, std::uint64_t{3});
        QCOMPARE(summary.measured, std::uint64_t{2});
        QCOMPARE(contents(resumed), expected);
    }

    void resumeContinuesAnInterruptedPartialFile()
    {
        QTemporaryDir folder;
        const QString straight = folder.filePath("straight.csv");
        ProbeRunner(options(straight, JobFamily::Mlp, 4)).run();
        const QByteArray expected = contents(straight);
        // An interrupted fresh run leaves only FILE.csv.partial.
        const QString path = folder.filePath("run.csv");
        const int secondRowEnd = expected.indexOf('\n', expected.indexOf('\n') + 1) + 1;
        write(path + ".partial", expected.left(secondRowEnd + 7));
        ProbeOptions again = options(path, JobFamily::Mlp, 4);
        again.resume = true;
        ProbeRunner(again).run();
        QCOMPARE(contents(path), expected);
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
        QCOMPARE(contents(path), contents(longer));
    }

    void resumeRefusesAnotherFamilysFile()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("cnn.csv");
        ProbeRunner(options(path, JobFamily::Cnn, 1)).run();
        ProbeOptions again = options(path, JobFamily::Mlp, 2);
        again.resume = true;
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, ProbeRunner(again).run());
        QCOMPARE(contents(path).count('\n'), 2); // untouched
    }

    void failedJobsAreRecorded()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("limited.csv");
        ProbeOptions limited = options(path, JobFamily::Transformer, 3);
        limited.memoryLimitBytes = 4096; // no Transformer fits
        const auto summary = ProbeRunner(limited).run();
        QCOMPARE(summary.outOfMemory, std::uint64_t{3});
        const QList<QByteArray> lines = contents(path).trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        for (int line = 1; line < lines.size(); ++line)
            QVERIFY(lines[line].contains(",out_of_memory,"));
    }
};

QTEST_GUILESS_MAIN(TestProbeRunner)
#include "test_ProbeRunner.moc"
