// SPDX-License-Identifier: GPL-3.0-or-later
// The project file keeps the comparison in the JSON report's own form.
#include "UiTestSupport.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "models/RegressorRegistry.h"
#include "report/ExperimentJson.h"
#include "ui/app/ProjectFile.h"
#include "ui/app/WorkbenchState.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

namespace {

gpumem::evaluation::ExperimentResult twoFoldResult()
{
    gpumem::evaluation::ExperimentResult result;
    result.splits.resize(2);
    result.actual = Eigen::VectorXd::LinSpaced(3, 100.0, 300.0);
    gpumem::evaluation::ModelResult model;
    model.name = "ridge";
    model.title = "Ridge";
    model.hyperparameters = gpumem::models::regressorHyperparameters("ridge");
    for (int fold = 0; fold < 2; ++fold) {
        gpumem::evaluation::FoldResult foldResult;
        foldResult.fold = fold;
        foldResult.metrics = gpumem::evaluation::filledMetrics(20.0 + fold);
        foldResult.trainSeconds = 0.125;
        model.folds.push_back(foldResult);
    }
    model.mean = gpumem::evaluation::filledMetrics(20.5);
    model.standardDeviation = gpumem::evaluation::filledMetrics(0.5);
    model.predictions = Eigen::VectorXd::LinSpaced(3, 110.0, 290.0);
    model.predictions[2] = std::nan(""); // a row never tested
    result.models.push_back(model);
    result.best = "ridge";
    result.failures = {{"formula", "needs a sequence column"}};
    result.warnings = {"formula failed"};
    return result;
}

// What a document reads back as: NaN becomes null, as in any file.
gpumem::io::Json asWritten(const gpumem::io::Json &json)
{
    return gpumem::io::parseJson(gpumem::io::jsonDocumentText(json), "written");
}

} // namespace

class TestProjectJson : public QObject
{
    Q_OBJECT

  private:
    QTemporaryDir mDirectory; // the projects the tests write, one file each

  private Q_SLOTS:
    void initTestCase()
    {
        gpumem::tests::isolateSettings("test_ProjectJson");
        QVERIFY(mDirectory.isValid());
    }

    // The project's "comparison" is the report's experiment members plus the per-row
    // values, written by the same functions.
    void theComparisonIsTheReportsForm()
    {
        gpumem::ui::WorkbenchState state;
        const gpumem::evaluation::ExperimentResult result = twoFoldResult();
        state.setComparison(std::make_shared<const gpumem::evaluation::ExperimentResult>(result), nullptr);
        const QString projectPath = mDirectory.filePath(QStringLiteral("report-form.gpumem.json"));
        gpumem::ui::writeProjectFile(projectPath, state);

        const gpumem::io::Json project = gpumem::io::readJsonFile(projectPath.toStdString());
        gpumem::io::Json comparison = project.at("comparison");
        QVERIFY(comparison == asWritten(gpumem::report::experimentJson(result, {/*withRows=*/true})));
        QVERIFY(comparison.at("actual") == gpumem::io::parseJson("[100, 200, 300]", "actual"));
        QVERIFY(comparison.at("models").at(0).at("predictions").at(2).is_null());

        comparison.erase("actual");
        comparison.at("models").at(0).erase("predictions");
        QVERIFY(comparison == asWritten(gpumem::io::Json(result)));
    }

    // The report's header is kept with the comparison, so a reopened project reports
    // the seed and splitting it ran with; one saved before it was kept says so.
    void theComparisonKeepsItsHeader()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::report::ComparisonContext context;
        context.dataset = "jobs.csv";
        context.target = "memory";
        context.rows = 3;
        context.features = {"batch", "layers"};
        context.folds = 2;
        context.groupBy = "model";
        context.seed = 77;
        state.setComparison(std::make_shared<const gpumem::evaluation::ExperimentResult>(twoFoldResult()), nullptr,
                            context);
        const QString projectPath = mDirectory.filePath(QStringLiteral("header.gpumem.json"));
        gpumem::ui::writeProjectFile(projectPath, state);

        const auto content = gpumem::ui::readProjectContent(projectPath);
        QVERIFY(content.comparisonContext);
        QCOMPARE(content.comparisonContext->seed, std::uint64_t{77});
        QCOMPARE(content.comparisonContext->groupBy, std::string("model"));
        QCOMPARE(content.comparisonContext->folds, 2);
        QVERIFY(content.comparisonContext->features == context.features);
        QVERIFY(content.notes.isEmpty());

        gpumem::io::Json project = gpumem::io::readJsonFile(projectPath.toStdString());
        project.erase("comparison_context");
        std::ofstream(projectPath.toStdString()) << gpumem::io::jsonDocumentText(project);
        const auto older = gpumem::ui::readProjectContent(projectPath);
        QVERIFY(older.comparison);
        QVERIFY(!older.comparisonContext);
        QCOMPARE(older.notes.size(), 1);
        QVERIFY(older.notes.front().contains(QStringLiteral("seed 0")));

        project["comparison_context"] = gpumem::io::Json{{"dataset", "jobs.csv"}};
        std::ofstream(projectPath.toStdString()) << gpumem::io::jsonDocumentText(project);
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::ui::readProjectContent(projectPath));
    }
};

QTEST_MAIN(TestProjectJson)
#include "test_ProjectJson.moc"
