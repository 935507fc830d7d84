// SPDX-License-Identifier: GPL-3.0-or-later
#include "FileSystemHazards.h"
#include "UiTestSupport.h"
#include "core/ComparisonFixtures.h"
#include "core/RaisedInputError.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "models/RegressorRegistry.h"
#include "prediction/Predictor.h"
#include "ui/app/ProjectFile.h"
#include "ui/app/WorkbenchState.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <sys/stat.h>

using gpumem::data::ColumnRole;

class TestProjectFile : public QObject
{
    Q_OBJECT

  private:
    // Copies tests/data/jobs.csv into directory and opens it in state; returns its path (empty on failure).
    static QString openJobsCopy(const QTemporaryDir &directory, gpumem::ui::WorkbenchState &state)
    {
        const QString dataPath = directory.filePath(QStringLiteral("jobs.csv"));
        if (!QFile::copy(gpumem::tests::testDataPath("jobs.csv"), dataPath))
            return {};
        state.setTable(std::make_shared<const gpumem::data::Table>(gpumem::data::loadTable(dataPath.toStdString())),
                       dataPath);
        return dataPath;
    }

    // A copy of jobs.csv in a folder of its own, open in a workbench state (dataPath is
    // empty when the copy failed).
    struct OpenedJobsCopy
    {
        QTemporaryDir folder;
        gpumem::ui::WorkbenchState state;
        QString dataPath = openJobsCopy(folder, state);

        // Writes the state's project into the folder as name, and returns its path.
        QString savedProject(const char *name)
        {
            const QString path = folder.filePath(QString::fromLatin1(name));
            gpumem::ui::writeProjectFile(path, state);
            return path;
        }
    };

    static gpumem::evaluation::ExperimentResult handMadeResult(Eigen::Index rows)
    {
        gpumem::evaluation::ExperimentResult result;
        result.splits.resize(2);
        result.best = "bigru_transformer";
        result.seconds = 1.5;
        gpumem::evaluation::ModelResult model;
        model.name = "bigru_transformer";
        model.title = "BiGRU-Transformer";
        model.hyperparameters = gpumem::models::regressorHyperparameters("bigru_transformer");
        model.trainSeconds = 0.25;
        model.predictSeconds = 0.5;
        model.mean.rmse = 12.5;
        model.mean.r2 = 0.75;
        model.mean.underRate = 0.5;
        model.standardDeviation.rmse = 2.0;
        model.mean.mape = std::nan("");
        for (int fold = 0; fold < 2; ++fold) {
            gpumem::evaluation::FoldResult foldResult;
            foldResult.fold = fold;
            foldResult.metrics.rmse = 11.0 + 3.0 * fold;
            model.folds.push_back(foldResult);
        }
        model.predictions = Eigen::VectorXd::LinSpaced(rows, 1000.0, 2000.0);
        model.predictions[1] = std::nan(""); // a row never tested
        result.models.push_back(model);
        gpumem::evaluation::PairedTest test =
            gpumem::tests::twoFoldPairedTTest("random_forest", "bigru_transformer", 0.043);
        test.statistic = 1.25;
        result.significance.push_back(test);
        return result;
    }

  private Q_SLOTS:
    void initTestCase() { gpumem::tests::isolateSettings("test_ProjectFile"); }

    void savesAndReloadsTheWholeExperiment()
    {
        OpenedJobsCopy opened;
        auto &[directory, state, dataPath] = opened;
        QVERIFY(!dataPath.isEmpty());
        state.setRole(1, ColumnRole::Ignored);
        state.setBadCellPolicy(gpumem::data::BadCellPolicy::DropRow);
        auto hyperparameters = state.hyperparameters();
        hyperparameters.set("epochs", std::int64_t{7});
        hyperparameters.set("schedule", std::string("cosine"));
        state.setHyperparameters(hyperparameters);
        state.setPresetName(QStringLiteral("custom"));
        std::vector<std::string> warnings;
        state.setComparison(std::make_shared<const gpumem::evaluation::ExperimentResult>(handMadeResult(4)),
                            state.buildDataset(warnings));

        const QString projectPath = directory.filePath(QStringLiteral("experiment.gpumem.json"));
        gpumem::ui::writeProjectFile(projectPath, state);
        const auto json = gpumem::io::readJsonFile(projectPath.toStdString());
        QCOMPARE(gpumem::io::toString(gpumem::io::member(json, "format")), std::string("gpumem-workbench-project"));
        QCOMPARE(gpumem::io::toString(
                     gpumem::io::member(gpumem::io::member(gpumem::io::member(json, "data"), "roles"), "batch")),
                 std::string("ignored"));
        QCOMPARE(gpumem::io::toString(gpumem::io::member(gpumem::io::member(json, "data"), "relative_path")),
                 std::string("jobs.csv"));

        gpumem::ui::WorkbenchState reloaded;
        gpumem::ui::readProjectFile(projectPath, reloaded);
        QVERIFY(reloaded.table());
        QCOMPARE(reloaded.table()->rowCount(), std::size_t{4});
        QCOMPARE(reloaded.roles(), state.roles());
        QCOMPARE(reloaded.badCellPolicy(), gpumem::data::BadCellPolicy::DropRow);
        QCOMPARE(reloaded.presetName(), QStringLiteral("custom"));
        QCOMPARE(reloaded.hyperparameters().integer("epochs"), std::int64_t{7});
        QCOMPARE(reloaded.hyperparameters().choice("schedule"), std::string("cosine"));

        const auto comparison = reloaded.comparison();
        QVERIFY(comparison);
        QCOMPARE(comparison->splits.size(), std::size_t{2});
        QCOMPARE(comparison->best, std::string("bigru_transformer"));
        const auto &model = comparison->models.front();
        QCOMPARE(model.title, std::string("BiGRU-Transformer"));
        QCOMPARE(model.mean.rmse, 12.5);
        QCOMPARE(model.standardDeviation.rmse, 2.0);
        QVERIFY(std::isnan(model.mean.mape));
        QCOMPARE(model.folds.size(), std::size_t{2});
        QCOMPARE(model.folds[1].metrics.rmse, 14.0);
        QCOMPARE(model.predictions.size(), Eigen::Index{4});
        QCOMPARE(model.predictions[0], 1000.0);
        QVERIFY(std::isnan(model.predictions[1]));
        QCOMPARE(model.predictions[3], 2000.0);
        QCOMPARE(comparison->significance.front().pValue, 0.043);
        QVERIFY(reloaded.comparisonDataset());
        QCOMPARE(reloaded.comparisonDataset()->rowCount(), std::size_t{4});

        // The network's settings as saved, the default three networks too; a project from
        // before the ensemble setting, which names none, trained one network and still does.
        QCOMPARE(reloaded.hyperparameters().integer("ensemble"), std::int64_t{3});
        auto older = gpumem::io::readJsonFile(projectPath.toStdString());
        older["hyperparameters"].erase("ensemble");
        gpumem::io::writeFileAtomically(projectPath.toStdString(), older.dump());
        gpumem::ui::WorkbenchState fromOlder;
        gpumem::ui::readProjectFile(projectPath, fromOlder);
        QCOMPARE(fromOlder.hyperparameters().integer("ensemble"), std::int64_t{1});
    }

    void findsMovedDataNextToTheProject()
    {
        OpenedJobsCopy opened;
        const QString &dataPath = opened.dataPath;
        QVERIFY(!dataPath.isEmpty());
        const QString projectPath = opened.savedProject("p.gpumem.json");

        QTemporaryDir second;
        QVERIFY(QFile::rename(dataPath, second.filePath(QStringLiteral("jobs.csv"))));
        QVERIFY(QFile::rename(projectPath, second.filePath(QStringLiteral("p.gpumem.json"))));
        gpumem::ui::WorkbenchState reloaded;
        const QStringList notes =
            gpumem::ui::readProjectFile(second.filePath(QStringLiteral("p.gpumem.json")), reloaded);
        QCOMPARE(reloaded.dataPath(), second.filePath(QStringLiteral("jobs.csv")));
        // The user is told where the data was found instead.
        QCOMPARE(notes.size(), 1);
        QVERIFY(notes.front().contains(QStringLiteral("was not found")));

        // Data that changed since the save is named; data that is gone is an error, and nothing changes.
        QFile data(second.filePath(QStringLiteral("jobs.csv")));
        QVERIFY(data.open(QIODevice::Append));
        data.write("r9,64,adam,\"[('linear', 10, 100)]\",1500\n");
        data.close();
        gpumem::ui::WorkbenchState changed;
        const QStringList changedNotes =
            gpumem::ui::readProjectFile(second.filePath(QStringLiteral("p.gpumem.json")), changed);
        QVERIFY(!changedNotes.isEmpty() && changedNotes.back().contains(QStringLiteral("changed since")));
        QVERIFY(QFile::remove(second.filePath(QStringLiteral("jobs.csv"))));
        gpumem::ui::WorkbenchState missing;
        QVERIFY_THROWS_EXCEPTION(
            gpumem::io::InputError,
            gpumem::ui::readProjectFile(second.filePath(QStringLiteral("p.gpumem.json")), missing));
        QVERIFY(!missing.table());
    }

    void keepsTheRunModelsBesideTheProject()
    {
        OpenedJobsCopy opened;
        auto &[first, state, dataPath] = opened;
        QVERIFY(!dataPath.isEmpty());
        std::vector<std::string> warnings;
        const auto dataset = state.buildDataset(warnings);
        std::shared_ptr<gpumem::models::Regressor> model =
            gpumem::models::createRegressor("ridge", gpumem::models::regressorHyperparameters("ridge"));
        model->fit(*dataset, {0, 1, 2, 3});
        gpumem::runs::RunRecord trained;
        trained.model = "ridge";
        state.addRun(trained, model);
        state.addRun(gpumem::runs::RunRecord{}); // a stopped run keeps no model

        const QString projectPath = first.filePath(QStringLiteral("study.gpumem.json"));
        QCOMPARE(gpumem::ui::runModelsFolder(projectPath), first.filePath(QStringLiteral("study.models")));
        QCOMPARE(gpumem::ui::saveRunModelsWithProject(projectPath, state), 1);
        gpumem::ui::writeProjectFile(projectPath, state);
        QVERIFY(QFileInfo(first.filePath(QStringLiteral("study.models/run-1/model.json"))).isFile());
        // Saved once: a second save of the project leaves the folder as it is.
        QCOMPARE(gpumem::ui::saveRunModelsWithProject(projectPath, state), 0);
        const auto json = gpumem::io::readJsonFile(projectPath.toStdString());
        const auto &runs = gpumem::io::toArray(gpumem::io::member(json, "runs"));
        QCOMPARE(gpumem::io::toString(gpumem::io::member(runs.at(0), "model_folder")),
                 std::string("study.models/run-1"));
        QCOMPARE(gpumem::io::toString(gpumem::io::member(runs.at(1), "model_folder")), std::string());

        // The project moves with its data and models, and its runs' models still serve.
        QTemporaryDir second;
        for (const char *name : {"jobs.csv", "study.gpumem.json", "study.models"})
            QVERIFY(
                QDir().rename(first.filePath(QString::fromLatin1(name)), second.filePath(QString::fromLatin1(name))));
        const QString moved = second.filePath(QStringLiteral("study.gpumem.json"));
        gpumem::ui::WorkbenchState reloaded;
        gpumem::ui::readProjectFile(moved, reloaded);
        QCOMPARE(QString::fromStdString(reloaded.runs().at(0).modelFolder),
                 second.filePath(QStringLiteral("study.models/run-1")));
        const auto saved = gpumem::prediction::loadSavedModel(reloaded.runs().at(0).modelFolder);
        QCOMPARE(saved.model->predict(*dataset), model->predict(*dataset));

        // Models that went missing are named, and the run keeps its curves and metrics.
        QVERIFY(QDir(second.filePath(QStringLiteral("study.models"))).removeRecursively());
        gpumem::ui::WorkbenchState without;
        const QStringList notes = gpumem::ui::readProjectFile(moved, without);
        QCOMPARE(without.runs().size(), std::size_t{2});
        QVERIFY(without.runs().at(0).modelFolder.empty());
        QVERIFY(!notes.isEmpty() && notes.back().contains(QStringLiteral("is not in")));
    }

    void projectNamesGetTheirEnding()
    {
        QCOMPARE(gpumem::ui::withProjectSuffix(QStringLiteral("/tmp/run")), QStringLiteral("/tmp/run.gpumem.json"));
        QCOMPARE(gpumem::ui::withProjectSuffix(QStringLiteral("/tmp/run.GPUMEM.json")),
                 QStringLiteral("/tmp/run.GPUMEM.json"));
        QVERIFY(gpumem::ui::isProjectPath(QStringLiteral("a/b.gpumem.json")));
        QVERIFY(!gpumem::ui::isProjectPath(QStringLiteral("a/b.csv")));
    }

    // Issue 49: a project whose data had become a FIFO was hashed before it was checked, and the
    // open waited in open() for ever (Cancel did nothing; Quit left the process waiting).
    void aFifoAsTheDataIsRefusedAtOnce()
    {
        OpenedJobsCopy opened;
        QVERIFY(!opened.dataPath.isEmpty());
        const QString projectPath = opened.savedProject("p.gpumem.json"); // records the data's SHA-256
        const QString dataPath = opened.dataPath;
        QVERIFY(QFile::remove(dataPath));
        QCOMPARE(::mkfifo(QFile::encodeName(dataPath).constData(), 0600), 0);

        const auto error = gpumem::tests::resultUnlessBlockedOn(dataPath, [&] {
            return gpumem::tests::raisedInputError([&] { gpumem::ui::readProjectContent(projectPath); });
        });
        QVERIFY2(error, "opening the project waited for a writer on the FIFO");
        const QString message = QString::fromStdString(error->what());
        QVERIFY2(message.contains(QStringLiteral("jobs.csv: is not a regular file")), qPrintable(message));
    }

    void rejectsFilesThatAreNotProjects()
    {
        QTemporaryDir directory;
        const QString path = directory.filePath(QStringLiteral("preset.json"));
        QVERIFY(gpumem::tests::writeFile(path, "{\"epochs\": 3}\n"));
        gpumem::ui::WorkbenchState state;
        const auto error = gpumem::tests::raisedInputError([&] { gpumem::ui::readProjectFile(path, state); });
        QVERIFY(QString::fromStdString(error.what()).contains(QStringLiteral("preset.json")));
        QVERIFY(!state.table());
    }
};

QTEST_MAIN(TestProjectFile)
#include "test_ProjectFile.moc"
