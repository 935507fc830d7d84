// SPDX-License-Identifier: GPL-3.0-or-later
#include "CommandLineRun.h"
#include "DataTables.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>

namespace {

QJsonObject parseJson(const std::string &text)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

// The role inspect --json reports for column.
QString roleOf(const QJsonObject &report, const QString &column)
{
    for (const auto &value : report.value("columns").toArray())
        if (value.toObject().value("name").toString() == column)
            return value.toObject().value("role").toString();
    return {};
}

} // namespace

// How every subcommand reads its arguments: misuse is one line and exit 1,
// values are read exactly, repeatable options add up.
class TestCommandLineParsing : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void everyCommandRefusesAnUnknownOption_data()
    {
        addColumns<QStringList, QString>("arguments", "expected");
        // Regression: a misspelt option could fall back to its default unnoticed.
        addRow("inspect", QStringList{"inspect", "a.csv", "--jsn"},
               "gpumem inspect: unknown option '--jsn'; did you mean --json?\n");
        addRow("train", QStringList{"train", "a.csv", "--target", "m", "--out", "o", "--test-fractoin", "0.2"},
               "gpumem train: unknown option '--test-fractoin'; did you mean --test-fraction?\n");
        addRow("train, --name=value", QStringList{"train", "a.csv", "--resume-form=m"},
               "gpumem train: unknown option '--resume-form=m'; did you mean --resume-from?\n");
        addRow("predict", QStringList{"predict", "m", "a.csv", "--coverag", "0.9"},
               "gpumem predict: unknown option '--coverag'; did you mean --coverage?\n");
        addRow("compare", QStringList{"compare", "a.csv", "--target", "m", "--model", "ridge"},
               "gpumem compare: unknown option '--model'; did you mean --models?\n");
        addRow("describe-model", QStringList{"describe-model", "--zzz"},
               "gpumem describe-model: unknown option '--zzz' (see 'gpumem describe-model --help')\n");
        addRow("probe", QStringList{"probe", "--famliy", "mlp"},
               "gpumem probe: unknown option '--famliy'; did you mean --family?\n");
    }

    void everyCommandRefusesAnUnknownOption()
    {
        const auto [run, expected] = runGpumemRowExpecting("expected");
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(QString::fromStdString(run.err), expected);
        QVERIFY(run.out.empty());
    }

    void aMisspeltCommandIsNamedWithTheClosestOne()
    {
        const Run run = runGpumem({"trian", "a.csv"});
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.err, std::string("gpumem: unknown command 'trian'; did you mean train?\n"));
        QCOMPARE(runGpumem({"frobnicate"}).err,
                 std::string("gpumem: unknown command 'frobnicate' (see 'gpumem --help')\n"));
    }

    void badValuesAreOneLineNamingTheOption_data()
    {
        addColumns<QStringList, QString>("arguments", "expected");
        addRow("negative threads", QStringList{"compare", "a.csv", "--target", "m", "--threads", "-1"},
               "gpumem compare: --threads takes a whole number, not '-1'\n");
        addRow("hexadecimal seed", QStringList{"train", "a.csv", "--seed", "0x10"},
               "gpumem train: --seed takes a whole number, not '0x10'\n");
        addRow("fraction out of range", QStringList{"train", "a.csv", "--test-fraction", "1"},
               "gpumem train: --test-fraction takes a number in [0, 1), not '1'\n");
        addRow("steps out of range",
               QStringList{"probe", "--family", "mlp", "--count", "1", "--out", "x.csv", "--steps", "5000"},
               "gpumem probe: --steps: Value 5000 not in range 1 to 1000\n");
        addRow("missing value", QStringList{"train", "a.csv", "--out"},
               "gpumem train: option --out needs a value (MODEL_DIR) (see 'gpumem train --help')\n");
        addRow("extra argument", QStringList{"predict", "m", "a.csv", "b.csv"},
               "gpumem predict: unexpected argument 'b.csv' (see 'gpumem predict --help')\n");
    }

    void badValuesAreOneLineNamingTheOption()
    {
        const auto [run, expected] = runGpumemRowExpecting("expected");
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(QString::fromStdString(run.err), expected);
        QCOMPARE(lineCount(run.err), 1);
    }

    void wholeNumbersAreDecimal()
    {
        // Regression: CLI11 alone reads "010" in base 0, as octal 8.
        const Run run = runGpumem({"compare", dataFile("jobs.csv"), "--target", "memory_mib", "--models", "ridge",
                                   "--folds", "2", "--seed", "010", "--json"});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(parseJson(run.out).value("seed").toInt(), 10);
    }

    void repeatedListOptionsAddUpAndSingleOptionsKeepTheLast()
    {
        const Run run = runGpumem({"inspect", dataFile("jobs.csv"), "--json", "--target", "batch", "--target",
                                   "memory_mib", "--features", "batch", "--features", "optimizer,"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject report = parseJson(run.out);
        QCOMPARE(roleOf(report, "memory_mib"), QStringLiteral("target"));
        QCOMPARE(roleOf(report, "batch"), QStringLiteral("feature"));
        QCOMPARE(roleOf(report, "optimizer"), QStringLiteral("feature"));
    }

    void aListOptionLeavesTheNextArgumentAlone()
    {
        // The data file after --features is the positional, not a second feature.
        const Run run =
            runGpumem({"inspect", "--features", "batch", dataFile("jobs.csv"), "--target", "memory_mib", "--json"});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(roleOf(parseJson(run.out), "batch"), QStringLiteral("feature"));
    }

    void doubleDashEndsTheOptions()
    {
        const Run run = runGpumem({"inspect", "--", "--json"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.rfind("gpumem inspect: --json: ", 0) == 0, run.err.c_str());
    }

    void everyCommandHasHelp_data()
    {
        addColumns<QString>("command");
        for (const char *command : {"inspect", "train", "predict", "compare", "describe-model", "probe"})
            addRow(command, command);
    }

    void everyCommandHasHelp()
    {
        QFETCH(QString, command);
        const Run run = runGpumem({command.toStdString(), "--help"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.rfind("Usage: gpumem " + command.toStdString(), 0) == 0, run.out.c_str());
        QVERIFY2(run.out.find("  -h, --help") != std::string::npos, run.out.c_str());
        // Regression: CLI11 appended its range checks to probe's value names ("--steps N:UINT in [1 - 1000]").
        QVERIFY2(run.out.find(":UINT") == std::string::npos, run.out.c_str());
        QVERIFY(run.err.empty());
    }
};

QTEST_GUILESS_MAIN(TestCommandLineParsing)
#include "test_CommandLineParsing.moc"
