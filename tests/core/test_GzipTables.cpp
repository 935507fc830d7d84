// SPDX-License-Identifier: GPL-3.0-or-later
// Gzip-compressed CSV files load as their text does; damaged ones are refused with
// the place of the damage. The compressed bytes are made by zlib's own gzip writer
// (gzopen/gzwrite), not by the reader under test.
#include "data/TableLoader.h"
#include "io/GzipInputStream.h"
#include "io/InputError.h"
#include "runtime/ProgressObserver.h"

#include "RaisedInputError.h"
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <string>
#include <vector>

using gpumem::data::loadTable, gpumem::data::loadTableFromText, gpumem::data::Table;

namespace {

const std::string kText = "model,batch,memory\nresnet,8,1024.5\nvgg,16,2048\n";

// Writes text to path as one gzip member per piece, appending.
void writeGzip(const QString &path, const std::vector<std::string> &pieces)
{
    for (const std::string &piece : pieces) {
        gzFile file = gzopen(path.toLocal8Bit().constData(), "ab9");
        QVERIFY(file != nullptr);
        QCOMPARE(gzwrite(file, piece.data(), static_cast<unsigned>(piece.size())), static_cast<int>(piece.size()));
        QCOMPARE(gzclose(file), Z_OK);
    }
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

void compareTables(const Table &compressed, const Table &plain)
{
    QCOMPARE(compressed.rowCount(), plain.rowCount());
    QCOMPARE(compressed.columnCount(), plain.columnCount());
    for (std::size_t column = 0; column < plain.columnCount(); ++column) {
        QCOMPARE(compressed.column(column).name, plain.column(column).name);
        QCOMPARE(compressed.column(column).type, plain.column(column).type);
        QCOMPARE(compressed.column(column).numbers, plain.column(column).numbers);
    }
}

struct RecordingObserver : gpumem::runtime::ProgressObserver
{
    void progressChanged(double fraction) override { last = fraction; }
    double last = -1;
};

} // namespace

class TestGzipTables : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void loadsACompressedFileAsItsText()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("jobs.csv.gz"));
        writeGzip(path, {kText});
        QVERIFY(gpumem::io::isGzipMagic(readAll(path).constData(), 2));
        QCOMPARE(gpumem::io::gzipDeclaredSize(path.toStdString()), std::optional<std::uint64_t>(kText.size()));
        RecordingObserver observer;
        compareTables(loadTable(path.toStdString(), {}, &observer), loadTableFromText(kText, "jobs.csv"));
        QCOMPARE(observer.last, 1.0);
    }

    void readsTheContentNotTheName()
    {
        // A compressed file without .gz, and compressed bytes held in memory.
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("jobs.csv"));
        writeGzip(path, {kText});
        const Table plain = loadTableFromText(kText, "jobs.csv");
        compareTables(loadTable(path.toStdString()), plain);
        const QByteArray bytes = readAll(path);
        compareTables(loadTableFromText(bytes.toStdString(), "memory.csv.gz"), plain);
    }

    void readsEveryMember()
    {
        // gzip allows members one after another (what `cat a.gz b.gz` makes); a member
        // boundary may fall inside a record.
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("jobs.csv.gz"));
        writeGzip(path, {kText.substr(0, 30), kText.substr(30)});
        compareTables(loadTable(path.toStdString()), loadTableFromText(kText, "jobs.csv"));
    }

    void readsMoreThanOneChunk()
    {
        // Over a megabyte of text from a few kilobytes: the inflater refills and drains many times.
        std::string text = "batch,memory\n";
        for (int row = 0; row < 100000; ++row)
            text += std::to_string(row % 512) + "," + std::to_string(row % 512 * 2 + 1) + "\n";
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("many.csv.gz"));
        writeGzip(path, {text});
        QVERIFY(QFileInfo(path).size() * 10 < static_cast<qint64>(text.size()));
        const Table table = loadTable(path.toStdString());
        QCOMPARE(table.rowCount(), std::size_t{100000});
        QCOMPARE(table.column(1).numbers.back(), double(99999 % 512 * 2 + 1));
    }

    void aGzipBombIsRefusedBeforeItInflates()
    {
        // Ten million rows of "1,2" deflate about a thousand times smaller: loaded, they
        // would take a quarter of a gigabyte from a file of some 40 kilobytes.
        std::string text = "a,b\n";
        text.reserve(text.size() + 40000000);
        for (int row = 0; row < 10000000; ++row)
            text += "1,2\n";
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("bomb.csv.gz"));
        writeGzip(path, {text});
        const auto compressed = static_cast<std::uint64_t>(QFileInfo(path).size());
        QVERIFY(compressed * gpumem::io::maxGzipInflationRatio < text.size());
        QVERIFY(gpumem::io::minGzipInflationLimit < text.size());
        RecordingObserver observer;
        const auto error =
            gpumem::tests::raisedInputError([&path, &observer] { loadTable(path.toStdString(), {}, &observer); });
        QCOMPARE(error.file(), path.toStdString());
        QCOMPARE(error.line(), std::int64_t{0});
        QCOMPARE(QString::fromStdString(error.message()),
                 QStringLiteral("the gzip data inflates to more than 256 times its %1 compressed bytes (a "
                                "decompression bomb?); gunzip it to read it as plain CSV")
                     .arg(compressed));
        QVERIFY(!QString::fromUtf8(error.what()).contains(QLatin1Char('\n')));
        // Refused while the first pass reads (half the progress), before a row is stored.
        QVERIFY2(observer.last < 0.5, QByteArray::number(observer.last).constData());
        // The same bytes held in memory are refused the same way.
        const auto inMemory = gpumem::tests::raisedInputError(
            [&path] { loadTableFromText(readAll(path).toStdString(), "memory.csv.gz"); });
        QCOMPARE(inMemory.file(), std::string("memory.csv.gz"));
        QVERIFY2(inMemory.message().find("256 times") != std::string::npos, inMemory.what());
    }

    void refusesDamagedData_data()
    {
        QTest::addColumn<int>("keepBytes"); // negative: flip a byte at -keepBytes from the end
        QTest::addColumn<QString>("reason");
        QTest::newRow("truncated") << 30 << "the gzip data ends early: the file is truncated at byte 30 ";
        QTest::newRow("crc flipped") << -6 << "corrupt gzip data (incorrect data check)";
        QTest::newRow("length flipped") << -2 << "corrupt gzip data (incorrect length check)";
    }
    void refusesDamagedData()
    {
        QFETCH(int, keepBytes);
        QFETCH(QString, reason);
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("jobs.csv.gz"));
        writeGzip(path, {kText});
        QByteArray bytes = readAll(path);
        if (keepBytes > 0)
            bytes.truncate(keepBytes);
        else
            bytes[bytes.size() + keepBytes] = static_cast<char>(bytes[bytes.size() + keepBytes] ^ 0x40);
        writeBytes(path, bytes);
        const auto error = gpumem::tests::raisedInputError([&path] { loadTable(path.toStdString()); });
        QCOMPARE(error.file(), path.toStdString());
        QVERIFY2(QString::fromStdString(error.message()).startsWith(reason), error.what());
        QVERIFY2(QString::fromStdString(error.message()).contains(QStringLiteral("of the compressed file")),
                 error.what());
    }

    void refusesBytesAfterTheLastMember()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("jobs.csv.gz"));
        writeGzip(path, {kText});
        const QByteArray whole = readAll(path);
        writeBytes(path, whole + QByteArray("trailing text"));
        const auto error = gpumem::tests::raisedInputError([&path] { loadTable(path.toStdString()); });
        QVERIFY2(QString::fromStdString(error.message()).startsWith(QStringLiteral("corrupt gzip data")), error.what());
        // The damage is placed after the whole member (zlib reads the header a few bytes at a time).
        const QRegularExpressionMatch place =
            QRegularExpression(QStringLiteral("at byte (\\d+) of the compressed file$"))
                .match(QString::fromStdString(error.message()));
        QVERIFY2(place.hasMatch(), error.what());
        QVERIFY(place.captured(1).toLongLong() > whole.size());
        QVERIFY(place.captured(1).toLongLong() <= whole.size() + 13);
    }
};

QTEST_GUILESS_MAIN(TestGzipTables)
#include "test_GzipTables.moc"
