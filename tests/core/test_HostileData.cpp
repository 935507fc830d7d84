// SPDX-License-Identifier: GPL-3.0-or-later
// Regression tests for data files that once ran the workbench out of memory,
// produced infinite numbers or changed meaning silently. Each test
// names the bug it pins.

#include "CommandLineRun.h"
#include "DataTables.h"
#include "RaisedInputError.h"
#include "data/CsvReader.h"
#include "data/Dataset.h"
#include "data/EncodingLimits.h"
#include "data/FeatureEncoder.h"
#include "data/Standardizer.h"
#include "data/TableLoader.h"
#include "data/TargetTransform.h"
#include "io/InputError.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <sstream>

using gpumem::data::BadCellPolicy, gpumem::data::ColumnType, gpumem::data::Dataset, gpumem::data::FeatureEncoder,
    gpumem::data::Table, gpumem::io::InputError;

namespace {

// Runs `gpumem inspect` expecting failure with one line that starts with prefix and holds part.
void expectOneLineFailure(const std::vector<std::string> &arguments, const std::string &prefix, const std::string &part)
{
    const Run run = runGpumem(arguments);
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.out.empty());
    QCOMPARE(std::count(run.err.begin(), run.err.end(), '\n'), std::ptrdiff_t(1));
    QVERIFY2(run.err.rfind("gpumem inspect: " + prefix, 0) == 0, run.err.c_str());
    QVERIFY2(contains(run.err, part), run.err.c_str());
}

InputError loadError(const std::string &text, const gpumem::data::TableLoadOptions &options = {})
{
    return gpumem::tests::raisedInputError([&] { gpumem::data::loadTableFromText(text, "bad.csv", options); });
}

Dataset datasetOf(const Table &table, const std::string &target, std::vector<std::string> &warnings)
{
    gpumem::data::RoleRequest request;
    request.target = target;
    return Dataset::fromTable(table, gpumem::data::assignRoles(table, request), BadCellPolicy::Fail, warnings);
}

std::vector<Eigen::Index> allRows(const Dataset &dataset)
{
    std::vector<Eigen::Index> rows(dataset.rowCount());
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i] = static_cast<Eigen::Index>(i);
    return rows;
}

// A layer list of count tuples ('t<k>', 1, 2), all of distinct types.
std::string distinctLayers(int count)
{
    std::string cell = "[";
    for (int k = 0; k < count; ++k)
        cell += (k ? ", ('t" : "('t") + std::to_string(k) + "', 1, 2)";
    return cell + "]";
}

QJsonObject parseJson(const std::string &text)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

} // namespace

class TestHostileData : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    // Bug: 20,000 distinct layer types became 20,000 features and embedding rows (11+ GB).
    void capsTheLayerTypeVocabulary()
    {
        const Table table = gpumem::data::loadTable(dataFile("hostile_layer_types.csv"));
        std::vector<std::string> warnings;
        const Dataset dataset = datasetOf(table, "memory", warnings);
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(contains(warnings[0], "361 layer types; the 256 most frequent are kept and the other 105"),
                 warnings[0].c_str());

        FeatureEncoder encoder;
        encoder.fit(dataset, allRows(dataset));
        const auto &types = encoder.encoding().layerTypes;
        QCOMPARE(types.size(), gpumem::data::maxLayerTypes + 1);
        QCOMPARE(types.front(), std::string("linear")); // in every row: the most frequent
        QCOMPARE(types.back(), std::string(gpumem::data::FeatureEncoding::otherLayerType));
        // Ties among the types seen once go to those seen first: type000 … type254.
        QCOMPARE(types[255], std::string("type254"));
        // batch, length, 257 counts, sum and max of two fields.
        QCOMPARE(encoder.featureNames().size(), std::size_t(1 + 1 + 257 + 4));

        const Eigen::MatrixXd encoded = encoder.transform(dataset);
        const Eigen::Index other = 2 + 256;
        QCOMPARE(encoded(0, other), 0.0);  // types 000-059: all kept
        QCOMPARE(encoded(4, other), 45.0); // types 240-299: 240-254 kept
        QCOMPARE(encoded(5, other), 60.0); // types 300-359: none kept
        for (Eigen::Index row = 0; row < encoded.rows(); ++row)
            QCOMPARE(encoded.row(row).segment(2, 257).sum(), encoded(row, 1)); // every layer counted once

        // Restored from its encoding (as with a saved model), types never seen count as other.
        const FeatureEncoder restored(encoder.encoding());
        const Table unseen =
            gpumem::data::loadTableFromText("batch,layers,memory\n8,\"[('brand_new', 1, 2), ('linear', 3, 4)]\",1\n"
                                            "9,\"[('type000', 1, 2)]\",2\n",
                                            "new.csv");
        std::vector<std::string> unused;
        const Eigen::MatrixXd unseenEncoded = restored.transform(datasetOf(unseen, "memory", unused));
        QCOMPARE(unseenEncoded(0, other), 1.0);
        QCOMPARE(unseenEncoded(0, 2), 1.0);
    }

    void inspectWarnsAboutTheLayerTypeCap()
    {
        const Run run = runGpumem({"inspect", dataFile("hostile_layer_types.csv"), "--target", "memory"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(contains(run.err, "warning: column 'layers' has 361 layer types"), run.err.c_str());
    }

    // Bug: one cell could list any number of layers or numbers per layer, each a token.
    void boundsLayersAndFieldsPerCell()
    {
        std::string wide = "[('wide'";
        for (std::size_t k = 0; k <= gpumem::data::maxFieldsPerLayer; ++k)
            wide += ", 1";
        wide += ")]";
        const std::string file = "layers,memory\n\"" + distinctLayers(int(gpumem::data::maxLayersPerSequence)) +
                                 "\",1\n\"" + distinctLayers(int(gpumem::data::maxLayersPerSequence) + 1) + "\",2\n\"" +
                                 wide + "\",3\n";
        const Table table = gpumem::data::loadTableFromText(file, "long.csv");
        const auto &column = table.column(0);
        QCOMPARE(column.type, ColumnType::Sequence);
        QVERIFY(column.sequences.isPresent(0));
        QCOMPARE(column.sequences.layerCount(0), gpumem::data::maxLayersPerSequence);
        QVERIFY(!column.sequences.isPresent(1));
        QVERIFY(!column.sequences.isPresent(2));
        QCOMPARE(column.invalidCount, 2);
        QCOMPARE(column.firstBadCell->line, 3);
        QVERIFY2(contains(column.firstBadCell->reason, "more than 8192 layers in one sequence"),
                 column.firstBadCell->reason.c_str());

        std::vector<gpumem::data::LayerTuple> layers;
        try {
            gpumem::data::parseLayerSequence(wide, layers);
            QFAIL("a layer of 65 numbers was accepted");
        } catch (const gpumem::data::LayerSequenceError &error) {
            QVERIFY2(contains(error.what(), "more than 64 numbers"), error.what());
        }
    }

    // Bug: 100,000 columns went into the network as 100,000 tokens (4.2 GB and a LibTorch trace).
    void limitsTheEncodedFeatureCount()
    {
        const std::size_t features = gpumem::data::maxEncodedFeatures + 1;
        std::string header;
        std::string row;
        for (std::size_t c = 0; c < features; ++c) {
            header += 'c' + std::to_string(c) + ',';
            row += std::to_string(c % 7) + ',';
        }
        std::string text = header + "memory\n";
        for (int r = 0; r < 3; ++r)
            text += row + std::to_string(100 + r) + '\n';
        const Table table = gpumem::data::loadTableFromText(text, "wide.csv");
        std::vector<std::string> warnings;
        const auto error = gpumem::tests::raisedInputError([&] { datasetOf(table, "memory", warnings); });
        const std::string message = error.what();
        QVERIFY2(contains(message, "wide.csv: the used columns encode into 4097 feature columns, more than the "
                                   "limit of 4096 (4097 numeric, 0 one-hot categories, 0 layer-sequence"),
                 message.c_str());
        QCOMPARE(std::count(message.begin(), message.end(), '\n'), std::ptrdiff_t(0));

        QTemporaryDir folder;
        const QString path = folder.filePath("wide.csv");
        QVERIFY(gpumem::tests::writeFile(path, QByteArray::fromStdString(text)));
        expectOneLineFailure({"inspect", path.toStdString(), "--target", "memory"}, path.toStdString() + ":",
                             "limit of 4096");
        // Leaving one column out brings it within the limit.
        const Run run = runGpumem({"inspect", path.toStdString(), "--target", "memory", "--ignore", "c0"});
        QCOMPARE(run.exitCode, 0);
    }

    void limitsOneHotCategoriesToo()
    {
        // An identifier named as a feature is one-hot encoded: 5000 categories are too many.
        std::string text = "name,memory\n";
        for (int r = 0; r < 5000; ++r)
            text += "job" + std::to_string(r) + ',' + std::to_string(r) + '\n';
        const Table table = gpumem::data::loadTableFromText(text, "names.csv");
        gpumem::data::RoleRequest request;
        request.target = "memory";
        request.features = {"name"};
        std::vector<std::string> warnings;
        const auto error = gpumem::tests::raisedInputError([&] {
            Dataset::fromTable(table, gpumem::data::assignRoles(table, request), BadCellPolicy::Fail, warnings);
        });
        QVERIFY2(contains(error.what(), "5000 feature columns") && contains(error.what(), "5000 one-hot"),
                 error.what());
    }

    // Bug: layer values of 1e308 summed to infinity; inspect saw no invalid cell and
    // ridge saved an intercept of null.
    void overflowingLayerSumsAreBadCells()
    {
        const Table table = gpumem::data::loadTable(dataFile("hostile_overflow.csv"));
        const auto &layers = table.column(1);
        QCOMPARE(layers.type, ColumnType::Sequence);
        QCOMPARE(layers.invalidCount, 1);
        QCOMPARE(layers.firstBadCell->line, 3);
        QVERIFY2(contains(layers.firstBadCell->reason, "add up beyond the largest number"),
                 layers.firstBadCell->reason.c_str());

        expectOneLineFailure({"inspect", dataFile("hostile_overflow.csv"), "--target", "memory"},
                             dataFile("hostile_overflow.csv") + ":3:2:", "add up beyond the largest number");

        const Run run = runGpumem(
            {"inspect", dataFile("hostile_overflow.csv"), "--target", "memory", "--on-bad-cell", "drop", "--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = parseJson(run.out);
        QCOMPARE(report.value("usable_rows").toInt(), 3);
        QCOMPARE(report.value("columns").toArray()[1].toObject().value("invalid").toInt(), 1);

        // What is left encodes into finite numbers only.
        gpumem::data::RoleRequest request;
        request.target = "memory";
        std::vector<std::string> warnings;
        const Dataset dataset =
            Dataset::fromTable(table, gpumem::data::assignRoles(table, request), BadCellPolicy::DropRow, warnings);
        FeatureEncoder encoder;
        encoder.fit(dataset, allRows(dataset));
        QVERIFY(encoder.transform(dataset).allFinite());
    }

    void scalingStaysFiniteNearTheLargestNumber()
    {
        const double huge = std::numeric_limits<double>::max();
        Eigen::MatrixXd features(3, 2);
        features << huge, 1e308, -huge, 1e308, huge, 0.0;
        gpumem::data::Standardizer standardizer;
        standardizer.fit(features, {0, 1, 2});
        QVERIFY(standardizer.means().allFinite());
        QVERIFY(standardizer.scales().allFinite());
        const Eigen::MatrixXd scaled = standardizer.transform(features);
        QVERIFY(scaled.allFinite());
        // Mean huge/3, deviations 2/3 huge and -4/3 huge: population std = sqrt(8/9) huge.
        QVERIFY(std::fabs(standardizer.means()[0] / (huge / 3.0) - 1.0) < 1e-12);
        QVERIFY(std::fabs(scaled(1, 0) - (-4.0 / 3.0) / std::sqrt(8.0 / 9.0)) < 1e-12);
        QVERIFY(std::fabs(scaled.col(1).mean()) < 1e-12);

        gpumem::data::TargetTransform target(false);
        Eigen::VectorXd values(2);
        values << huge, -huge;
        target.fit(values, {0, 1});
        QCOMPARE(target.forward(huge), 1.0);
        QCOMPARE(target.forward(-huge), -1.0);
    }

    // Bug: one cell like '1,5' or '0x10' turned a numeric column into a 19-category one-hot.
    void strayTextInANumericColumnIsABadCell()
    {
        const Table table = gpumem::data::loadTable(dataFile("hostile_stray_cell.csv"));
        const auto &batch = table.column(0);
        QCOMPARE(batch.type, ColumnType::Numeric);
        QCOMPARE(batch.nonNumericCount, 1);
        QCOMPARE(batch.invalidCount, 1);
        QVERIFY(std::isnan(batch.numbers[15]));
        QCOMPARE(batch.numbers[14], 120.0);
        QCOMPARE(table.nonNumericCellNotes(),
                 std::vector<std::string>{"column 'batch' is numeric except for 1 cell: line 17 '1,5'"});

        expectOneLineFailure({"inspect", dataFile("hostile_stray_cell.csv"), "--target", "memory"},
                             dataFile("hostile_stray_cell.csv") + ":17:1:",
                             "'1,5' is not a number (column 'batch' is numeric except for 1 cell)");
        const Run run =
            runGpumem({"inspect", dataFile("hostile_stray_cell.csv"), "--target", "memory", "--on-bad-cell", "drop"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(contains(run.err, "warning: column 'batch' is numeric except for 1 cell: line 17 '1,5'\n"),
                 run.err.c_str());
        QVERIFY2(contains(run.out, "Rows usable: 19 of 20"), run.out.c_str());

        const Run json = runGpumem(
            {"inspect", dataFile("hostile_stray_cell.csv"), "--target", "memory", "--on-bad-cell", "drop", "--json"});
        const QJsonObject stray =
            parseJson(json.out).value("columns").toArray()[0].toObject().value("non_numeric_cells").toObject();
        QCOMPARE(stray.value("count").toInt(), 1);
        QCOMPARE(stray.value("first_line").toInt(), 17);
        QCOMPARE(stray.value("first_value").toString(), QStringLiteral("1,5"));
    }

    void hexCellInANumericColumnIsABadCell()
    {
        expectOneLineFailure({"inspect", dataFile("hostile_hex_cell.csv"), "--target", "memory"},
                             dataFile("hostile_hex_cell.csv") + ":5:1:", "'0x10' is not a number");
        // Below 90 % numbers the column stays text: two of three cells are words.
        const Table table = gpumem::data::loadTableFromText("a,b\n1,x\n2,y\nword,z\nother,w\n", "t.csv");
        QVERIFY(table.column(0).type != ColumnType::Numeric);
        QCOMPARE(table.column(0).nonNumericCount, 0);
    }

    void readsDecimalCommasInSemicolonFiles()
    {
        const Table table = gpumem::data::loadTable(dataFile("hostile_decimal_comma.csv"));
        QVERIFY(table.decimalComma());
        QCOMPARE(table.column(1).type, ColumnType::Numeric);
        QCOMPARE(table.column(1).numbers, (std::vector<double>{0.5, 0.25, 1.0, 0.125}));
        QCOMPARE(table.column(3).numbers, (std::vector<double>{1000.25, 1500.5, 2000.0, 2600.75}));
        QCOMPARE(table.column(2).type, ColumnType::Categorical);

        const Run run = runGpumem({"inspect", dataFile("hostile_decimal_comma.csv"), "--target", "memory"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(contains(run.out, "semicolon-separated, decimal comma"), run.out.c_str());

        // A decimal point anywhere makes the comma ambiguous: not detected.
        const Table mixed = gpumem::data::loadTableFromText("a;b\n1,5;2.5\n2,5;3.5\n", "mixed.csv");
        QVERIFY(!mixed.decimalComma());
        QVERIFY(mixed.column(0).type != ColumnType::Numeric);
        QCOMPARE(mixed.column(1).numbers, (std::vector<double>{2.5, 3.5}));
        // Comma-separated files never guess; the option forces it.
        gpumem::data::TableLoadOptions options;
        QVERIFY(!gpumem::data::loadTableFromText("a,b\n\"1,5\",2\n\"2,5\",3\n", "c.csv").decimalComma());
        options.decimalComma = true;
        const Table forced = gpumem::data::loadTableFromText("a,b\n\"1,5\",2\n\"2,5\",3\n", "c.csv", options);
        QCOMPARE(forced.column(0).numbers, (std::vector<double>{1.5, 2.5}));
        options.decimalComma = false;
        QVERIFY(gpumem::data::loadTableFromText("a;b\n1,5;2\n2,5;3\n", "s.csv", options).column(0).type !=
                ColumnType::Numeric);
    }

    void decimalCommaOptionOnTheCommandLine()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("points.csv");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        // Two points make detection refuse the comma; the option insists on it.
        file.write("batch;lr;memory\n8;0,5;100\n16;0,25;200\n32;1;300\n");
        file.close();
        const Run run = runGpumem({"inspect", path.toStdString(), "--target", "memory", "--decimal-comma", "--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = parseJson(run.out);
        QVERIFY(report.value("decimal_comma").toBool());
        QCOMPARE(report.value("columns").toArray()[1].toObject().value("max").toDouble(), 1.0);
        QCOMPARE(report.value("columns").toArray()[1].toObject().value("min").toDouble(), 0.25);
    }

    // Bug: invalid UTF-8 was stored as U+FFFD, so predictions changed after reloading a model.
    void rejectsInvalidUtf8_data()
    {
        addColumns<QString, QString, QString>("file", "location", "detail");
        addRow("category", "hostile_utf8_category.csv", ":3:2:", "invalid UTF-8 (byte 0xFF at byte 4 of the field)");
        addRow("header", "hostile_utf8_header.csv", ":1:2:", "invalid UTF-8 (byte 0xC3 at byte 1 of the field)");
    }

    void rejectsInvalidUtf8()
    {
        const auto [file, location, detail] = fetchColumns<QString, QString, QString>("file", "location", "detail");
        const std::string path = dataFile(file.toUtf8().constData());
        expectOneLineFailure({"inspect", path}, path + location.toStdString(), detail.toStdString());
    }

    void checksEveryUtf8Form_data()
    {
        addColumns<QByteArray, bool>("cell", "valid");
        addRow("ascii", QByteArray("relu"), true);
        addRow("two bytes",
               QByteArray("Gr\xC3\xB6\xC3\x9F"
                          "e"),
               true);
        addRow("three bytes", QByteArray("\xE2\x82\xAC"), true);
        addRow("four bytes", QByteArray("\xF0\x9F\x98\x80"), true);
        addRow("largest code point", QByteArray("\xF4\x8F\xBF\xBF"), true);
        addRow("lone continuation", QByteArray("a\x80"), false);
        addRow("overlong slash", QByteArray("\xC0\xAF"), false);
        addRow("overlong three bytes", QByteArray("\xE0\x80\xAF"), false);
        addRow("surrogate", QByteArray("\xED\xA0\x80"), false);
        addRow("above U+10FFFF", QByteArray("\xF4\x90\x80\x80"), false);
        addRow("cut short", QByteArray("\xE2\x82"), false);
        addRow("latin-1", QByteArray("caf\xE9"), false);
    }

    void checksEveryUtf8Form()
    {
        const auto [cell, valid] = fetchColumns<QByteArray, bool>("cell", "valid");
        const std::string text = "name\n" + cell.toStdString() + "\n";
        std::istringstream in(text);
        gpumem::data::CsvReader reader(in, "u.csv");
        std::vector<std::string> fields;
        QVERIFY(reader.readRecord(fields));
        try {
            QVERIFY(reader.readRecord(fields));
            QVERIFY(valid);
            QCOMPARE(fields.front(), cell.toStdString());
        } catch (const InputError &error) {
            QVERIFY2(!valid, error.what());
            QCOMPARE(error.line(), 2);
            QCOMPARE(error.column(), 1);
        }
    }

    void namesTheLineOfInvalidUtf8InAQuotedField()
    {
        const InputError error = loadError("a,b\n1,\"first line\nsecond \xFF line\"\n");
        QCOMPARE(error.line(), 3);
        QCOMPARE(error.column(), 2);
    }

    // Bug: a line of nothing but delimiters allocated one string per field without bound.
    void limitsFieldsPerRecord()
    {
        const std::string text = "a\n" + std::string(gpumem::data::CsvReader::maxFieldsPerRecord, ',') + "\n";
        const InputError error = loadError(text);
        QCOMPARE(error.line(), 2);
        QVERIFY2(contains(error.what(), "more than 262144 fields in one record"), error.what());
    }

    // Bug: a device such as /dev/zero would be read without end.
    void refusesDevicesAndFolders()
    {
        expectOneLineFailure({"inspect", "/dev/zero"}, "/dev/zero:", "is not a regular file");
        QTemporaryDir folder;
        const std::string path = folder.path().toStdString();
        expectOneLineFailure({"inspect", path}, path + ":", "is a folder");
    }

    void binaryFilesAreStillCalledBinary()
    {
        // The NUL on line 3 is named, not the invalid UTF-8 of the signature on line 1.
        const InputError error = loadError(std::string("\x89PNG\r\n\x1a\n\0\0", 10));
        QCOMPARE(error.line(), 3);
        QVERIFY2(contains(error.what(), "binary"), error.what());
    }
};

QTEST_GUILESS_MAIN(TestHostileData)
#include "test_HostileData.moc"
