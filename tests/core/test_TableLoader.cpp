// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "data/TableLoader.h"
#include "io/InputError.h"

#include "RaisedInputError.h"
#include "TestSupport.h"
#include <QFile>
#include <QTemporaryDir>

#include <QTest>

#include <cmath>

using gpumem::data::ColumnType, gpumem::data::loadTableFromText, gpumem::data::Table;

namespace {

gpumem::io::InputError loadError(const std::string &text)
{
    return gpumem::tests::raisedInputError([&text] { loadTableFromText(text, "bad.csv"); });
}

} // namespace

class TestTableLoader : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void infersColumnTypes()
    {
        std::string text = "id,batch,act,layers,memo,blank\n";
        for (int i = 0; i < 6; ++i)
            text += "run" + std::to_string(i) + ',' + std::to_string(32 << i) + ',' + (i % 2 ? "relu" : "gelu") +
                    ",\"[('linear', " + std::to_string(i + 1) + ", 10)]\",note " + std::to_string(i) + ",\n";
        const Table table = loadTableFromText(text, "t.csv", {0, 3, std::nullopt});
        QCOMPARE(table.rowCount(), std::size_t(6));
        QCOMPARE(table.column(0).type, ColumnType::Identifier);
        QCOMPARE(table.column(1).type, ColumnType::Numeric);
        QCOMPARE(table.column(2).type, ColumnType::Categorical);
        QCOMPARE(table.column(3).type, ColumnType::Sequence);
        // Six distinct notes exceed a categorical limit of three: an identifier.
        QCOMPARE(table.column(4).type, ColumnType::Identifier);
        QCOMPARE(table.column(5).type, ColumnType::Empty);
        QCOMPARE(table.column(1).numbers[5], 1024.0);
        QCOMPARE(table.column(2).categories, (std::vector<std::string>{"gelu", "relu"}));
        QCOMPARE(table.column(2).codes, (std::vector<std::int32_t>{0, 1, 0, 1, 0, 1}));
        QCOMPARE(table.column(3).sequences.layerCount(2), std::size_t(1));
        QCOMPARE(table.column(3).sequences.field(2, 0), 3.0);
        QCOMPARE(table.column(5).missingCount, 6);
    }

    void readsNumbersExactly_data()
    {
        addColumns<QString, double>("cell", "expected");
        addRow("integer", "42", 42.0);
        addRow("blanks around", "  7.5 ", 7.5);
        addRow("plus sign", "+3", 3.0);
        addRow("negative exponent", "-1.25e-3", -0.00125);
        addRow("underflow is zero", "1e-400", 0.0);
        addRow("leading point", ".5", 0.5);
    }

    void readsNumbersExactly()
    {
        QFETCH(QString, cell);
        QFETCH(double, expected);
        const Table table = loadTableFromText("x,y\n" + cell.toStdString() + ",1\n1,2\n", "t.csv");
        QCOMPARE(table.column(0).type, ColumnType::Numeric);
        QCOMPARE(table.column(0).numbers[0], expected);
        QCOMPARE(table.column(0).invalidCount, 0);
    }

    void countsMissingAndNonFiniteCells_data()
    {
        addColumns<QString, int, int, QString>("cell", "missing", "invalid", "reasonPart");
        addRow("empty", "", 1, 0, "missing value");
        addRow("NA", "NA", 1, 0, "missing value");
        addRow("NaN", "NaN", 1, 0, "missing value");
        addRow("inf", "inf", 0, 1, "not a finite number");
        addRow("-inf", "-inf", 0, 1, "not a finite number");
        addRow("1e400", "1e400", 0, 1, "'1e400' is not a finite number");
        addRow("-1.5e999", "-1.5e999", 0, 1, "not a finite number");
    }

    void countsMissingAndNonFiniteCells()
    {
        QFETCH(QString, cell);
        QFETCH(int, missing);
        QFETCH(int, invalid);
        QFETCH(QString, reasonPart);
        const Table table = loadTableFromText("x,y\n1,2\n" + cell.toStdString() + ",3\n4,5\n", "t.csv");
        const auto &column = table.column(0);
        QCOMPARE(column.type, ColumnType::Numeric);
        QCOMPARE(column.missingCount, missing);
        QCOMPARE(column.invalidCount, invalid);
        QVERIFY(std::isnan(column.numbers[1]));
        QVERIFY(column.isBad(1));
        QVERIFY(!column.isBad(0));
        QVERIFY(column.firstBadCell);
        QCOMPARE(column.firstBadCell->line, 3);
        QVERIFY2(QString::fromStdString(column.firstBadCell->reason).contains(reasonPart),
                 column.firstBadCell->reason.c_str());
    }

    void marksMalformedSequenceCells()
    {
        const Table table =
            loadTableFromText("seq,y\n\"[('a', 1)]\",1\n\"[('a', 1\",2\n\"[('b', 1, 2)]\",3\n", "t.csv");
        const auto &column = table.column(0);
        QCOMPARE(column.type, ColumnType::Sequence);
        QCOMPARE(column.invalidCount, 2); // unclosed tuple, then a layer with two numbers instead of one
        QVERIFY(column.sequences.isPresent(0));
        QVERIFY(!column.sequences.isPresent(1));
        QVERIFY(!column.sequences.isPresent(2));
        QCOMPARE(column.firstBadCell->line, 3);
        QVERIFY2(QString::fromStdString(column.firstBadCell->reason).contains("malformed layer sequence"),
                 column.firstBadCell->reason.c_str());
    }

    void remembersFileLinesOfRows()
    {
        const Table table = loadTableFromText("a,b\n1,\"x\ny\"\n\n2,z\n", "t.csv");
        QCOMPARE(table.rowLines(), (std::vector<std::int64_t>{2, 5}));
    }

    void namesUnnamedColumns()
    {
        const Table table = loadTableFromText(",a\n0,1\n1,2\n", "t.csv");
        QCOMPARE(table.column(0).name, std::string("column 1"));
    }

    void rejectsBadFiles_data()
    {
        addColumns<QByteArray, int, int, QString>("text", "line", "column", "messagePart"); // line 0: the whole file
        addRow("empty file", QByteArray(""), 0, 0, "empty");
        addRow("only blank lines", QByteArray("\n\r\n\n"), 0, 0, "empty");
        addRow("header only", QByteArray("a,b,c\n"), 0, 0, "no data rows");
        addRow("ragged short", QByteArray("a,b,c\n1,2,3\n4,5\n"), 3, 3, "row has 2 fields but the header has 3");
        addRow("ragged long", QByteArray("a,b\n1,2\n3,4\n5,6,7\n"), 4, 3, "row has 3 fields");
        addRow("duplicate names", QByteArray("a,b,a\n1,2,3\n"), 1, 3, "duplicate column name 'a' (also column 1)");
        addRow("unterminated quote", QByteArray("a,b\n1,\"2\n3,4\n"), 2, 2, "unterminated");
        addRow("binary garbage", gpumem::tests::literalBytes("\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), 3, 1, "binary");
    }

    void rejectsBadFiles()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, messagePart);
        const auto error = loadError(text.toStdString());
        QCOMPARE(error.line(), line);
        QCOMPARE(error.column(), column);
        QVERIFY2(QString::fromStdString(error.message()).contains(messagePart), error.what());
        QVERIFY2(std::string(error.what()).rfind("bad.csv", 0) == 0, error.what());
    }

    void loadsFilesFromDisk()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("jobs.csv"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("batch;memory\r\n8;1024\r\n16;2048\r\n");
        file.close();
        const Table table = gpumem::data::loadTable(path.toStdString());
        QCOMPARE(table.delimiter(), ';');
        QCOMPARE(table.column(1).numbers, (std::vector<double>{1024, 2048}));
    }

    void refusesMissingFilesAndFolders()
    {
        QTemporaryDir folder;
        for (const QString &path : {folder.filePath(QStringLiteral("absent.csv")), folder.path()}) {
            const auto error =
                gpumem::tests::raisedInputError([&path] { gpumem::data::loadTable(path.toStdString()); });
            QCOMPARE(error.file(), path.toStdString());
        }
    }

    void loadsTheGpuMemNetMeasurements()
    {
        const QString path = QStringLiteral(GPUMEM_SHARED_DATASETS_DIR "/gpumemnet_mlp.csv");
        if (!QFile::exists(path))
            QSKIP("../shared/datasets is absent");
        const Table table = gpumem::data::loadTable(path.toStdString());
        QCOMPARE(table.rowCount(), std::size_t(3000));
        QCOMPARE(table.columnCount(), std::size_t(15));
        QCOMPARE(table.column(*table.columnIndex("Filename")).type, ColumnType::Identifier);
        const auto &sequence = table.column(*table.columnIndex("Activations-Params"));
        QCOMPARE(sequence.type, ColumnType::Sequence);
        QCOMPARE(sequence.invalidCount, 0);
        QCOMPARE(sequence.sequences.fieldsPerLayer(), 2);
        const auto &activation = table.column(*table.columnIndex("Activation Function"));
        QCOMPARE(activation.type, ColumnType::Categorical);
        QCOMPARE(activation.categories.size(), std::size_t(11));
        const auto &target = table.column(*table.columnIndex("Max GPU Memory (MiB)"));
        QCOMPARE(target.type, ColumnType::Numeric);
        // The README states the range 1,443–4,925 MiB.
        QCOMPARE(*std::min_element(target.numbers.begin(), target.numbers.end()), 1443.0);
        QCOMPARE(*std::max_element(target.numbers.begin(), target.numbers.end()), 4925.0);
        // Total Activations is the sum of the activations field of the sequence.
        const auto &totals = table.column(*table.columnIndex("Total Activations"));
        for (std::size_t row = 0; row < table.rowCount(); row += 97) {
            double sum = 0.0;
            for (std::size_t layer = sequence.sequences.layerBegin(row); layer < sequence.sequences.layerEnd(row);
                 ++layer)
                sum += sequence.sequences.field(layer, 0);
            QCOMPARE(sum, totals.numbers[row]);
        }
    }
};

QTEST_GUILESS_MAIN(TestTableLoader)
#include "test_TableLoader.moc"
