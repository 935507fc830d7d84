// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 51: a reopened project's pages show the settings that produced the results on
// screen, whatever the form remembered from the last session.
#include "UiTestSupport.h"
#include "evaluation/Experiment.h"
#include "models/Presets.h"
#include "models/RegressorRegistry.h"
#include "ui/app/ProjectFile.h"
#include "ui/app/WorkbenchState.h"
#include "ui/pages/ComparePage.h"
#include "ui/pages/ModelPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

class TestReopenedProject : public QObject
{
    Q_OBJECT

  private:
    // A comparison of the network and the random forest over 3 folds.
    static gpumem::evaluation::ExperimentResult threeFoldResult(Eigen::Index rows)
    {
        gpumem::evaluation::ExperimentResult result;
        result.splits.resize(3);
        for (const char *name : {"bigru_transformer", "random_forest"}) {
            gpumem::evaluation::ModelResult model;
            model.name = name;
            model.title = gpumem::models::regressorTitle(name);
            model.hyperparameters = gpumem::models::regressorHyperparameters(name);
            model.mean.rmse = 10.0;
            model.predictions = Eigen::VectorXd::Constant(rows, 1500.0);
            result.models.push_back(model);
        }
        result.best = "bigru_transformer";
        return result;
    }

    static QStringList checkedModels(const gpumem::ui::ComparePage &page) { return page.selectedModels(); }

  private Q_SLOTS:
    void initTestCase() { gpumem::tests::isolateSettings("test_ReopenedProject"); }

    void theFormsShowWhatProducedTheResults()
    {
        QTemporaryDir directory;
        const QString projectPath = directory.filePath(QStringLiteral("study.gpumem.json"));
        {
            gpumem::ui::WorkbenchState saved;
            saved.setTable(gpumem::tests::trainingTable(), gpumem::tests::testDataPath("jobs_training.csv"));
            gpumem::models::Hyperparameters quick = gpumem::models::neuralNetworkHyperparameters();
            gpumem::models::applyHyperparameterFile(quick, gpumem::models::presetPath("quick"));
            saved.setPresetName(QStringLiteral("quick"));
            saved.setHyperparameters(quick);
            std::vector<std::string> warnings;
            const auto dataset = saved.buildDataset(warnings);
            gpumem::report::ComparisonContext context;
            context.folds = 3;
            context.seed = 7;
            saved.setComparison(std::make_shared<const gpumem::evaluation::ExperimentResult>(
                                    threeFoldResult(static_cast<Eigen::Index>(dataset->rowCount()))),
                                dataset, context);
            gpumem::ui::writeProjectFile(projectPath, saved);
        }

        // The last session left 5 folds, seed 42, no bound and Ridge among the ticked models.
        QSettings settings;
        settings.setValue(QStringLiteral("compare/folds"), 5);
        settings.setValue(QStringLiteral("compare/seed"), 42);
        settings.setValue(QStringLiteral("compare/models"),
                          QStringList{QStringLiteral("ridge"), QStringLiteral("decision_tree")});
        gpumem::ui::WorkbenchState state;
        gpumem::ui::ComparePage compare(&state);
        gpumem::ui::ModelPage model(&state);
        QCOMPARE(compare.findChild<QSpinBox *>(QStringLiteral("foldsBox"))->value(), 5);

        gpumem::ui::readProjectFile(projectPath, state);
        QCOMPARE(checkedModels(compare),
                 (QStringList{QStringLiteral("bigru_transformer"), QStringLiteral("random_forest")}));
        QCOMPARE(compare.findChild<QComboBox *>(QStringLiteral("validationBox"))->currentData().toString(),
                 QStringLiteral("kfold"));
        QCOMPARE(compare.findChild<QSpinBox *>(QStringLiteral("foldsBox"))->value(), 3);
        QCOMPARE(compare.findChild<QSpinBox *>(QStringLiteral("seedBox"))->value(), 7);
        QVERIFY(!compare.findChild<QCheckBox *>(QStringLiteral("compareCalibrate"))->isChecked());

        // The values are the quick preset's own, so the Model page does not call them modified.
        QCOMPARE(state.presetName(), QStringLiteral("quick"));
        QCOMPARE(model.presetState(), QString());
        auto edited = state.hyperparameters();
        edited.set("epochs", edited.integer("epochs") + 1);
        state.setHyperparameters(edited);
        QCOMPARE(model.presetState(), QStringLiteral("modified"));
    }

    void theBoundBoxFollowsTheResultsCalibration()
    {
        gpumem::ui::WorkbenchState state;
        state.setTable(gpumem::tests::trainingTable(), gpumem::tests::testDataPath("jobs_training.csv"));
        gpumem::ui::ComparePage compare(&state);
        auto *calibrate = compare.findChild<QCheckBox *>(QStringLiteral("compareCalibrate"));
        std::vector<std::string> warnings;
        const auto dataset = state.buildDataset(warnings);
        auto result = threeFoldResult(static_cast<Eigen::Index>(dataset->rowCount()));
        result.calibration.emplace();
        result.calibration->coverage = 0.9;
        state.setComparison(std::make_shared<const gpumem::evaluation::ExperimentResult>(result), dataset);
        QVERIFY(calibrate->isChecked());
        QCOMPARE(compare.findChild<QDoubleSpinBox *>(QStringLiteral("compareCoverage"))->value(), 0.9);

        result.calibration.reset();
        state.setComparison(std::make_shared<const gpumem::evaluation::ExperimentResult>(result), dataset);
        QVERIFY(!calibrate->isChecked());
    }
};

QTEST_MAIN(TestReopenedProject)
#include "test_ReopenedProject.moc"
