// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison report's "explanation": written by `gpumem compare --explain`
// only, absent otherwise (the report stays as it was), and read back whole from a
// project file, with malformed members refused.
#include "CommandLineRun.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "report/ExperimentJson.h"
#include "report/ExplanationJson.h"

#include <QTest>

using namespace gpumem;

namespace {

std::vector<std::string> compareArguments()
{
    return {"compare",  tests::dataFile("jobs_training.csv"),
            "--target", "memory_mib",
            "--models", "ridge,decision_tree",
            "--folds",  "2",
            "--json"};
}

} // namespace

class TestExplanationJson : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void onlyAskedForInTheReport()
    {
        const tests::Run plain = tests::runGpumem(compareArguments());
        QCOMPARE(plain.exitCode, 0);
        QVERIFY(!io::parseJson(plain.out, "stdout").contains("explanation"));

        const tests::Run explained = tests::runGpumem(tests::withArguments(compareArguments(), {"--explain"}));
        QCOMPARE(explained.exitCode, 0);
        const io::Json report = io::parseJson(explained.out, "stdout");
        const io::Json &explanation = report.at("explanation");
        QCOMPARE(explanation.at("inputs").get<std::vector<std::string>>(),
                 (std::vector<std::string>{"batch", "optimizer", "layers"}));
        QCOMPARE(explanation.at("partial_dependence_grids").size(), std::size_t{1});
        QCOMPARE(explanation.at("partial_dependence_grids")[0].at("values").size(), std::size_t{25});
        QCOMPARE(explanation.at("models").size(), std::size_t{2});
        const io::Json &ridge = explanation.at("models")[0];
        QCOMPARE(ridge.at("model").get<std::string>(), std::string("ridge"));
        QCOMPARE(ridge.at("importance").size(), std::size_t{3});
        QCOMPARE(ridge.at("importance")[0].at("measurements").get<int>(), 10); // 2 folds × 5 shuffles
        // The explanation changes no score.
        const io::Json plainReport = io::parseJson(plain.out, "stdout");
        for (std::size_t model = 0; model < 2; ++model)
            QVERIFY(report.at("models")[model].at("metrics") == plainReport.at("models")[model].at("metrics"));

        // A project reads it back as written.
        const evaluation::ExperimentResult read = report::readExperimentResult(report, "project.gpumem.json");
        QCOMPARE(read.inputs.size(), std::size_t{3});
        QCOMPARE(read.partialDependenceGrids.front().input, std::string("batch"));
        QCOMPARE(read.models[1].importance[0].mean,
                 explanation.at("models")[1].at("importance")[0].at("mean").get<double>());
        QVERIFY(report::explanationJson(read) == explanation);
    }

    void refusesMalformedExplanations()
    {
        const tests::Run explained = tests::runGpumem(tests::withArguments(compareArguments(), {"--explain"}));
        const io::Json report = io::parseJson(explained.out, "stdout");
        io::Json unknownModel = report;
        unknownModel["explanation"]["models"][0]["model"] = "svm";
        io::Json shortCurve = report;
        shortCurve["explanation"]["models"][0]["partial_dependence"][0]["mean"].erase(0);
        io::Json missingInput = report;
        missingInput["explanation"]["models"][1]["importance"].erase(0);
        for (const io::Json *bad : {&unknownModel, &shortCurve, &missingInput})
            QVERIFY_THROWS_EXCEPTION(io::InputError, report::readExperimentResult(*bad, "project.gpumem.json"));
    }
};

QTEST_GUILESS_MAIN(TestExplanationJson)
#include "test_ExplanationJson.moc"
