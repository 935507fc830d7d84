// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/CsvReader.h"
#include "io/InputError.h"

#include "DataTables.h"
#include "RaisedInputError.h"
#include "TestSupport.h"

#include <QTest>

#include <sstream>

using gpumem::data::CsvReader;
using Records = std::vector<std::vector<std::string>>;
Q_DECLARE_METATYPE(Records)

namespace {

Records readAll(const std::string &text, char delimiter = 0)
{
    std::istringstream stream(text);
    CsvReader reader(stream, "test.csv", delimiter);
    Records records;
    std::vector<std::string> fields;
    while (reader.readRecord(fields))
        records.push_back(fields);
    return records;
}

// Returns the InputError reading text raises; fails the test when none is raised.
gpumem::io::InputError errorOf(const std::string &text)
{
    return gpumem::tests::raisedInputError([&text] { readAll(text); });
}

} // namespace

class TestCsvReader : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void parsesRecords_data()
    {
        addColumns<QByteArray, Records>("text", "expected");
        addRow("plain", QByteArray("a,b\n1,2\n"), Records{{"a", "b"}, {"1", "2"}});
        addRow("no final newline", QByteArray("a,b\n1,2"), Records{{"a", "b"}, {"1", "2"}});
        addRow("crlf", QByteArray("a,b\r\n1,2\r\n"), Records{{"a", "b"}, {"1", "2"}});
        addRow("bom",
               QByteArray("\xEF\xBB\xBF"
                          "a,b\n1,2\n"),
               Records{{"a", "b"}, {"1", "2"}});
        addRow("quoted delimiter", QByteArray("a,b\n\"x,y\",2\n"), Records{{"a", "b"}, {"x,y", "2"}});
        addRow("doubled quote", QByteArray("a\n\"say \"\"hi\"\"\"\n"), Records{{"a"}, {"say \"hi\""}});
        addRow("newline in quotes", QByteArray("a,b\n\"line1\r\nline2\",2\n"),
               Records{{"a", "b"}, {"line1\r\nline2", "2"}});
        addRow("empty fields", QByteArray("a,b,c\n,,\n"), Records{{"a", "b", "c"}, {"", "", ""}});
        addRow("blank lines skipped", QByteArray("a\n\n1\r\n\r\n2\n"), Records{{"a"}, {"1"}, {"2"}});
        addRow("quote inside plain field kept", QByteArray("a\n5\"x\n"), Records{{"a"}, {"5\"x"}});
        addRow("semicolon", QByteArray("a;b\n1,5;2\n"), Records{{"a", "b"}, {"1,5", "2"}});
        addRow("tab", QByteArray("a\tb\n1\t2\n"), Records{{"a", "b"}, {"1", "2"}});
        addRow("single column", QByteArray("a\n1\n"), Records{{"a"}, {"1"}});
        addRow("empty quoted", QByteArray("a,b\n\"\",x\n"), Records{{"a", "b"}, {"", "x"}});
    }

    void parsesRecords()
    {
        QFETCH(QByteArray, text);
        QFETCH(Records, expected);
        QCOMPARE(readAll(text.toStdString()), expected);
    }

    void detectsDelimiter_data()
    {
        addColumns<QByteArray, char>("sample", "expected");
        addRow("comma", QByteArray("a,b,c\n1,2,3\n"), ',');
        addRow("semicolon with decimal commas", QByteArray("a;b\n1,5;2,5\n3,0;4\n"), ';');
        addRow("tab", QByteArray("a\tb\n1\t2\n"), '\t');
        addRow("comma inside quotes ignored", QByteArray("\"a,b,c\";d\n\"1,2,3\";4\n"), ';');
        addRow("header only", QByteArray("a;b;c"), ';');
        addRow("nothing splits", QByteArray("abc\n1\n"), ',');
        addRow("layer sequences", QByteArray("id,seq\n1,\"[('linear', 1, 2); ('ReLU', 1, 0)]\"\n"), ',');
    }

    void detectsDelimiter()
    {
        QFETCH(QByteArray, sample);
        QFETCH(char, expected);
        QCOMPARE(gpumem::data::detectDelimiter(sample.toStdString()), expected);
    }

    void reportsRecordLines()
    {
        std::istringstream stream("a,b\n\"multi\nline\",1\n\n2,3\n");
        CsvReader reader(stream, "test.csv");
        std::vector<std::string> fields;
        QVERIFY(reader.readRecord(fields));
        QCOMPARE(reader.recordLine(), 1);
        QVERIFY(reader.readRecord(fields));
        QCOMPARE(reader.recordLine(), 2);
        QVERIFY(reader.readRecord(fields));
        QCOMPARE(reader.recordLine(), 5); // the quoted line break and the blank line both count
        QVERIFY(!reader.readRecord(fields));
    }

    void readsAcrossBufferBoundaries()
    {
        // Records larger than the read buffer must come out whole.
        const std::string longField(3 << 20, 'x');
        const std::string text = "a,b\n\"" + longField + "\",1\n" + longField + ",2\n";
        const Records records = readAll(text);
        QCOMPARE(records.size(), std::size_t(3));
        QCOMPARE(records[1][0].size(), longField.size());
        QCOMPARE(records[2][0], longField);
        QCOMPARE(records[2][1], std::string("2"));
    }

    void rejectsMalformedText_data()
    {
        addColumns<QByteArray, int, int, QString>("text", "line", "column", "messagePart");
        addRow("unterminated quote", QByteArray("a,b\n1,\"open\n2,3\n"), 2, 2, "unterminated");
        addRow("text after closing quote", QByteArray("a,b\n\"x\"y,2\n"), 2, 1, "after the closing quote");
        addRow("NUL byte", gpumem::tests::literalBytes("a,b\n1,\0\x01\x02\n"), 2, 2, "binary");
        addRow("NUL in quotes", gpumem::tests::literalBytes("a\n\"\0\"\n"), 2, 1, "binary");
    }

    void rejectsMalformedText()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, messagePart);
        const auto error = errorOf(text.toStdString());
        QCOMPARE(error.file(), std::string("test.csv"));
        QCOMPARE(error.line(), line);
        QCOMPARE(error.column(), column);
        QVERIFY2(QString::fromStdString(error.message()).contains(messagePart), error.what());
        QVERIFY(std::string(error.what()).find('\n') == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestCsvReader)
#include "test_CsvReader.moc"
