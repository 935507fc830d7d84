// SPDX-License-Identifier: GPL-3.0-or-later
#include "UiTestSupport.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "prediction/Predictor.h"
#include "ui/app/ProjectFile.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/CurveCsvExport.h"
#include "ui/charts/ParallelCoordinatesPlot.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/charts/RunCurvesChart.h"
#include "ui/charts/RunRelationChart.h"
#include "ui/models/RunsTableModel.h"
#include "ui/pages/RunsPage.h"
#include "ui/pages/SweepDialog.h"
#include "ui/pages/TrainingPage.h"
#include "ui/widgets/QtText.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <cmath>
#include <set>

using gpumem::runs::RunRecord;
using gpumem::ui::RunsTableModel;

namespace {

// A finished run with the values and validation metrics a test needs.
RunRecord handMadeRun(const std::string &name, std::int64_t epochs, double rmse, double r2, double underRate)
{
    RunRecord run;
    run.name = name;
    run.hyperparameters = {{"epochs", epochs}, {"learning_rate", 0.002}, {"schedule", std::string("cosine")}};
    for (int epoch = 1; epoch <= 3; ++epoch)
        run.epochs.push_back({epoch, rmse / (100.0 * epoch), rmse / (90.0 * epoch), 0.001});
    gpumem::evaluation::RegressionMetrics metrics = gpumem::evaluation::filledMetrics(1.0);
    metrics.rmse = rmse;
    metrics.r2 = r2;
    metrics.underRate = underRate;
    run.validationMetrics = metrics;
    metrics.rmse = rmse / 2.0;
    run.trainMetrics = metrics;
    run.seconds = 2.0;
    run.validationRows = 16;
    run.trainRows = 64;
    return run;
}

std::vector<RunRecord> threeRuns()
{
    return {handMadeRun("A", 5, 30.0, 0.5, 0.1), handMadeRun("B", 100, 20.0, 0.9, 0.5),
            handMadeRun("C", 10, 25.0, 0.7, 0.2)};
}

// A run of a learning-rate sweep on dataset, whose errors in MiB fall from rmse × 2 to rmse.
RunRecord sweptRun(const std::string &name, double learningRate, double rmse, const std::string &dataset)
{
    RunRecord run = handMadeRun(name, 5, rmse, 0.9, 0.1);
    run.hyperparameters[1].second = learningRate;
    run.dataset = dataset;
    for (auto &point : run.epochs) {
        point.trainRmse = rmse * 1.5 / point.epoch;
        point.validationRmse = rmse * 2.0 / point.epoch;
    }
    return run;
}

void selectRows(QTableView *table, std::initializer_list<int> rows)
{
    table->clearSelection();
    for (int row : rows)
        table->selectionModel()->select(table->model()->index(row, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
}

QStringList namesInViewOrder(const QTableView *table)
{
    QStringList names;
    for (int row = 0; row < table->model()->rowCount(); ++row)
        names << table->model()->index(row, 0).data().toString();
    return names;
}

} // namespace

class TestRunsPage : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { gpumem::tests::isolateSettings("test_RunsPage"); }

    void tableShowsDifferingValuesAndHighlightsTheBest()
    {
        RunsTableModel model;
        model.setRuns(threeRuns());
        QCOMPARE(model.rowCount(), 3);
        // Only epochs differs between the runs; learning_rate and schedule are the same everywhere.
        QCOMPARE(model.hyperparameterColumns(), std::vector<std::string>{"epochs"});
        const int epochs = model.hyperparameterColumn("epochs");
        const int rmse = model.validationMetricColumn("rmse");
        const int r2 = model.validationMetricColumn("r2");
        const int under = model.validationMetricColumn("under_rate");
        QVERIFY(epochs >= 0 && rmse > epochs && r2 > rmse && under > r2);
        QCOMPARE(model.headerData(rmse, Qt::Horizontal).toString(), QStringLiteral("val RMSE (MiB)"));
        QCOMPARE(model.index(1, epochs).data().toString(), QStringLiteral("100"));
        QCOMPARE(model.index(1, rmse).data().toString(), QString::fromStdString(gpumem::evaluation::formatMetric(
                                                             gpumem::evaluation::metricDescription("rmse"), 20.0)));
        // Lowest RMSE and highest R², both run B; the under-prediction rate crowns no best on its own.
        for (int row = 0; row < 3; ++row) {
            QCOMPARE(model.isBest(row, rmse), row == 1);
            QCOMPARE(model.isBest(row, r2), row == 1);
            QVERIFY(!model.isBest(row, under));
            QCOMPARE(model.index(row, rmse).data(RunsTableModel::BestRole).toBool(), row == 1);
            QCOMPARE(model.index(row, rmse).data(Qt::BackgroundRole).isValid(), row == 1);
        }
        QVERIFY(model.index(1, rmse).data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(model.headerData(r2, Qt::Horizontal, Qt::ToolTipRole).toString().contains("higher is better"));

        // A run without validation metrics shows a dash and is never the best.
        std::vector<RunRecord> runs = threeRuns();
        runs[1].validationMetrics.reset();
        model.setRuns(runs);
        QCOMPARE(model.index(1, rmse).data().toString(), QStringLiteral("–"));
        QVERIFY(model.isBest(2, rmse));
    }

    void sortsNumbersAsNumbers()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::RunsPage page(&state);
        state.setRuns(threeRuns());
        QTableView *table = page.table();
        QCOMPARE(namesInViewOrder(table), (QStringList{"A", "B", "C"}));
        const int rmse = page.model()->validationMetricColumn("rmse");
        table->sortByColumn(rmse, Qt::AscendingOrder);
        QCOMPARE(namesInViewOrder(table), (QStringList{"B", "C", "A"}));
        table->sortByColumn(page.model()->validationMetricColumn("r2"), Qt::DescendingOrder);
        QCOMPARE(namesInViewOrder(table), (QStringList{"B", "C", "A"}));
        // 5 < 10 < 100 as numbers; as text, "10" < "100" < "5".
        table->sortByColumn(page.model()->hyperparameterColumn("epochs"), Qt::AscendingOrder);
        QCOMPARE(namesInViewOrder(table), (QStringList{"A", "C", "B"}));
    }

    void overlaysTheSelectedRunsInTheirOwnColours()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::RunsPage page(&state);
        state.setRuns(threeRuns());
        // Nothing selected: every run (up to ten) is drawn.
        QCOMPARE(page.curvesChart()->graphCount(), 6);
        QTableView *table = page.table();
        table->selectionModel()->select(table->model()->index(0, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        table->selectionModel()->select(table->model()->index(2, 0),
                                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        // Training and validation curve of each selected run; the legend names each run once.
        QCOMPARE(page.curvesChart()->graphCount(), 4);
        QCOMPARE(page.curvesChart()->legend->itemCount(), 2);
        QCOMPARE(page.curvesChart()->graph(0)->name(), QStringLiteral("A"));
        QCOMPARE(page.curvesChart()->graph(2)->name(), QStringLiteral("C"));
        QCOMPARE(page.curvesChart()->graph(0)->pen().color(), page.curvesChart()->graph(1)->pen().color());
        QVERIFY(page.curvesChart()->graph(0)->pen().color() != page.curvesChart()->graph(2)->pen().color());
        QCOMPARE(page.curvesChart()->graph(1)->pen().style(), Qt::DashLine);
        QCOMPARE(page.curvesChart()->graph(0)->data()->size(), 3);

        // The relation chart: one point per run with a validation RMSE, at its epochs value.
        QCOMPARE(page.relationBox()->currentText(), QStringLiteral("epochs"));
        QCPGraph *points = page.relationChart()->graph(0);
        QCOMPARE(points->data()->size(), 3);
        QCOMPARE(points->data()->at(0)->key, 5.0);
        QCOMPARE(points->data()->at(0)->value, 30.0);

        // A run added (as a sweep adds them) keeps the selection and the overlay.
        state.addRun(handMadeRun("D", 7, 22.0, 0.8, 0.3));
        QCOMPARE(table->selectionModel()->selectedRows().size(), 2);
        QCOMPARE(page.curvesChart()->graphCount(), 4);
    }

    void opensOnTheSweptHyperparameterWithALogAxisForARate()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::RunsPage page(&state);
        std::vector<RunRecord> runs = {sweptRun("lr 1", 0.001, 30.0, "/data/jobs.csv"),
                                       sweptRun("lr 2", 0.003, 20.0, "/data/jobs.csv"),
                                       sweptRun("lr 3", 0.01, 25.0, "/data/jobs.csv")};
        // A training of the Training page before the sweep, with other epochs: two values differ,
        // and the sweep's (three values) is the one the chart opens on.
        runs.insert(runs.begin(), handMadeRun("run 1", 40, 28.0, 0.8, 0.1));
        runs.front().dataset = "/data/jobs.csv";
        state.setRuns(runs);
        QCOMPARE(page.relationBox()->currentText(), QStringLiteral("learning_rate"));
        QCOMPARE(page.relationChart()->xAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(page.relationChart()->graph(0)->data()->size(), 4);
        // A choice of the user's is kept while runs are added.
        page.relationBox()->setCurrentText(QStringLiteral("epochs"));
        QCOMPARE(page.relationChart()->xAxis->scaleType(), QCPAxis::stLinear);
        state.addRun(sweptRun("lr 4", 0.03, 26.0, "/data/jobs.csv"));
        QCOMPARE(page.relationBox()->currentText(), QStringLiteral("epochs"));
        QVERIFY(gpumem::ui::wantsLogarithmicAxis("batch_size", {8.0, 512.0}));
        QVERIFY(!gpumem::ui::wantsLogarithmicAxis("batch_size", {32.0, 64.0}));
    }

    void drawsTheErrorsInMibOnALogAxis()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::RunsPage page(&state);
        state.setRuns(
            {sweptRun("lr 1", 0.001, 30.0, "/data/jobs.csv"), sweptRun("lr 2", 0.003, 20.0, "/data/jobs.csv")});
        QCustomPlot *chart = page.curvesChart();
        QVERIFY(page.curves()->isLogarithmic());
        QCOMPARE(chart->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(chart->yAxis->label().startsWith(QStringLiteral("RMSE (MiB)")));
        // Training solid, validation dashed: both in MiB, as recorded.
        QCOMPARE(chart->graphCount(), 4);
        QCOMPARE(chart->graph(0)->data()->at(1)->value, 30.0 * 1.5 / 2.0);
        QCOMPARE(chart->graph(1)->pen().style(), Qt::DashLine);
        QCOMPARE(chart->graph(1)->data()->at(2)->value, 30.0 * 2.0 / 3.0);

        // Export CSV… writes what the chart draws, read back point by point.
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("curves.csv"));
        QVERIFY(gpumem::ui::saveCurvesCsv(*chart, path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 4 * 3);
        QCOMPARE(lines[0], QStringLiteral("curve,x,y,axis"));
        const QStringList fourth = lines[4].split(QLatin1Char(','));
        QCOMPARE(fourth[0], QStringLiteral("lr 1 (validation)"));
        QCOMPARE(fourth[1].toDouble(), 1.0);
        QCOMPARE(fourth[2].toDouble(), 60.0);
        bool exported = false;
        for (const QAction *action : chart->actions())
            exported = exported || action->text() == QStringLiteral("Export CSV…");
        QVERIFY(exported);
    }

    void namesTheDataFileAndWarnsWhenRunsMixThem()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::RunsPage page(&state);
        state.setRuns({sweptRun("a", 0.001, 30.0, "/data/jobs.csv"), sweptRun("b", 0.003, 20.0, "/data/jobs.csv"),
                       sweptRun("c", 0.001, 5.0, "/other/probe.csv")});
        const int column = RunsTableModel::datasetColumn();
        QCOMPARE(page.model()->headerData(column, Qt::Horizontal).toString(), QStringLiteral("Data"));
        QCOMPARE(page.model()->index(0, column).data().toString(), QStringLiteral("jobs.csv"));
        QCOMPARE(page.model()->index(2, column).data().toString(), QStringLiteral("probe.csv"));
        QCOMPARE(page.model()->index(2, column).data(Qt::ToolTipRole).toString(), QStringLiteral("/other/probe.csv"));
        // Every run drawn (none selected) mixes the two files: the curves say so.
        QVERIFY2(page.curves()->datasetWarning().contains(QStringLiteral("2 data files")),
                 qPrintable(page.curves()->datasetWarning()));
        selectRows(page.table(), {0, 1});
        QVERIFY(page.curves()->datasetWarning().isEmpty());
        selectRows(page.table(), {1, 2});
        QVERIFY(page.curves()->datasetWarning().contains(QStringLiteral("probe.csv")));
        // The relation chart keeps the files apart: one named point set each.
        QCOMPARE(page.relationChart()->graphCount(), 2);
        QCOMPARE(page.relationChart()->graph(0)->data()->size(), 2);
        QCOMPARE(page.relationChart()->graph(1)->name(), QStringLiteral("probe.csv"));
        QVERIFY(page.relationChart()->legend->visible());
    }

    void drawsEachRunAsALineAcrossParallelAxes()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::RunsPage page(&state);
        std::vector<RunRecord> runs = {sweptRun("a", 0.001, 30.0, ""), sweptRun("b", 0.003, 20.0, ""),
                                       sweptRun("c", 0.01, 25.0, ""), sweptRun("d", 0.03, 22.0, "")};
        runs[1].hyperparameters[2].second = std::string("one_cycle"); // a text value varies too
        state.setRuns(runs);
        const gpumem::ui::ParallelCoordinatesPlot *plot = page.parallelCoordinates();
        QCOMPARE(plot->lineCount(), 4);
        // An axis per varied hyperparameter, then the validation RMSE.
        QCOMPARE(plot->axisNames().size(), page.model()->hyperparameterColumns().size() + 1);
        QCOMPARE(plot->axisNames().back(), QStringLiteral("validation RMSE (MiB)"));
        QVERIFY(plot->axisNames().front().startsWith(QStringLiteral("learning_rate")));
        // Each line ends on the RMSE axis at its place between the lowest (b, 20) and highest (a, 30) error.
        const double last = static_cast<double>(plot->axisNames().size() - 1);
        QCOMPARE(plot->chart()->graph(0)->data()->at(plot->chart()->graph(0)->dataCount() - 1)->key, last);
        QCOMPARE(plot->chart()->graph(0)->data()->at(plot->chart()->graph(0)->dataCount() - 1)->value, 1.0);
        QCOMPARE(plot->chart()->graph(1)->data()->at(plot->chart()->graph(1)->dataCount() - 1)->value, 0.0);
        QCOMPARE(plot->chart()->graph(2)->data()->at(plot->chart()->graph(2)->dataCount() - 1)->value, 0.5);
        // The learning rates, a factor of 30 apart, sit on a logarithmic axis: 0.003 at log-distance.
        QVERIFY(std::abs(plot->chart()->graph(1)->data()->at(0)->value - std::log10(3.0) / std::log10(30.0)) < 1e-9);
        // The darker a line, the lower its error: b's is not a's.
        QVERIFY(plot->chart()->graph(1)->pen().color() != plot->chart()->graph(0)->pen().color());
    }

    void projectFileKeepsEveryRun()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("runs.gpumem.json");
        gpumem::tests::QuickTrainingState state(2);
        std::vector<RunRecord> runs = threeRuns();
        runs[2].validationMetrics->mape = std::nan(""); // written as null, read back as NaN
        runs[0].batches = {{1, 1, 2, 0.5}, {1, 2, 2, 0.25}};
        // Model folders as far as the project checks them: a folder with a model.json.
        for (const char *name : {"a", "b"}) {
            QVERIFY(QDir(folder.path()).mkpath(QString::fromLatin1(name)));
            QFile marker(folder.filePath(QString::fromLatin1(name) + QStringLiteral("/model.json")));
            QVERIFY(marker.open(QIODevice::WriteOnly));
        }
        runs[0].modelFolder = gpumem::ui::coreText(folder.filePath(QStringLiteral("a")));
        state.setRuns(runs);
        // Saving a run's model later records its folder in the run.
        state.setRunModelFolder(1, gpumem::ui::coreText(folder.filePath(QStringLiteral("b"))));
        runs[1].modelFolder = gpumem::ui::coreText(folder.filePath(QStringLiteral("b")));
        gpumem::ui::writeProjectFile(path, state);
        // The project keeps them relative to itself, so the two can move together.
        const auto project = gpumem::io::readJsonFile(gpumem::ui::coreText(path));
        QCOMPARE(gpumem::io::toString(gpumem::io::member(gpumem::io::toArray(gpumem::io::member(project, "runs")).at(0),
                                                         "model_folder")),
                 std::string("a"));

        gpumem::ui::WorkbenchState reopened;
        QSignalSpy changed(&reopened, &gpumem::ui::WorkbenchState::runsChanged);
        gpumem::ui::readProjectFile(path, reopened);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(reopened.runs().size(), std::size_t{3});
        for (std::size_t index = 0; index < runs.size(); ++index)
            QCOMPARE(nlohmann::ordered_json(reopened.runs()[index]).dump(), nlohmann::ordered_json(runs[index]).dump());
        QVERIFY(std::isnan(reopened.runs()[2].validationMetrics->mape));
        QCOMPARE(reopened.runs()[0].modelFolder, runs[0].modelFolder);
        QCOMPARE(reopened.table()->rowCount(), std::size_t{80});
    }

    void sweepDialogCountsTheTrials()
    {
        gpumem::ui::SweepDialog dialog(gpumem::tests::quickHyperparameters(1));
        dialog.addParameter(QStringLiteral("epochs"), QStringLiteral("1, 2, 3"));
        dialog.addParameter(QStringLiteral("learning_rate"), QStringLiteral("0.001,0.01"));
        QCOMPARE(gpumem::runs::expandSweep(dialog.plan()).size(), std::size_t{6});
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("sweepSummary"))->text().contains("6 run"));
        dialog.setRandom(true, 4, 7);
        QCOMPARE(gpumem::runs::expandSweep(dialog.plan()).size(), std::size_t{4});
        QCOMPARE(dialog.plan().seed, std::uint64_t{7});
        dialog.setRandom(true, 7, 7); // more than the six combinations
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("sweepSummary"))->text().contains("combinations"));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, dialog.plan());
        dialog.setRandom(false);
        dialog.addParameter(QStringLiteral("dropout"), QStringLiteral("0.1,7")); // 7 is out of range
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, dialog.plan());
    }

    void tinySweepTrainsInTheBackgroundAndFillsTheTable()
    {
        QSettings().setValue(QStringLiteral("training/threads"), 2);
        gpumem::tests::QuickTrainingState state(1);
        gpumem::ui::RunsPage page(&state);
        page.resize(1366, 768);
        page.show();
        QSignalSpy finished(&page, &gpumem::ui::RunsPage::sweepFinished);
        QSignalSpy added(&state, &gpumem::ui::WorkbenchState::runsChanged);
        gpumem::runs::SweepPlan plan;
        plan.parameters = {{"epochs", {"1", "2"}}, {"learning_rate", {"0.003", "0.01"}}};
        QVERIFY2(page.startSweep(plan, 0.2), qPrintable(page.statusText()));
        QVERIFY(page.isSweeping());
        QVERIFY(page.statusText().contains("2 thread"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QCOMPARE(finished.at(0).at(0).toInt(), 4);
        QCOMPARE(finished.at(0).at(1).toBool(), false);
        QCOMPARE(added.count(), 4); // one at a time, as each run finished
        QCOMPARE(state.runs().size(), std::size_t{4});
        QCOMPARE(page.model()->rowCount(), 4);
        std::multiset<std::int64_t> epochs;
        for (const auto &run : state.runs()) {
            epochs.insert(std::get<std::int64_t>(*run.hyperparameter("epochs")));
            QVERIFY(run.validationMetrics && run.validationMetrics->rmse > 0.0);
            QCOMPARE(run.validationRows, std::size_t{16});
            QCOMPARE(run.epochs.size(),
                     static_cast<std::size_t>(std::get<std::int64_t>(*run.hyperparameter("epochs"))));
        }
        QCOMPARE(epochs, (std::multiset<std::int64_t>{1, 1, 2, 2}));
        // Each sweep run draws its validation curve as well as its training one, in MiB, and
        // names the file it trained on.
        for (const auto &run : state.runs()) {
            QCOMPARE(QString::fromStdString(run.dataset), gpumem::tests::testDataPath("jobs_training.csv"));
            for (const auto &point : run.epochs)
                QVERIFY(std::isfinite(point.trainRmse) && std::isfinite(point.validationRmse));
        }
        QCOMPARE(page.curvesChart()->graphCount(), 8);
        QVERIFY(page.curvesChart()->yAxis->label().startsWith(QStringLiteral("RMSE (MiB)")));
        QCOMPARE(page.model()->index(0, RunsTableModel::datasetColumn()).data().toString(),
                 QStringLiteral("jobs_training.csv"));
        QCOMPARE(page.parallelCoordinates()->lineCount(), 4);
        QCOMPARE(page.progressBar()->value(), page.progressBar()->maximum());
        QCOMPARE(page.relationChart()->graph(0)->data()->size(), 4);
        page.relationBox()->setCurrentText(QStringLiteral("learning_rate"));
        QCOMPARE(page.relationChart()->xAxis->label(), QStringLiteral("learning_rate"));
        QCOMPARE(page.relationChart()->graph(0)->data()->size(), 4);

        page.table()->selectRow(1);
        page.table()->selectionModel()->select(page.table()->model()->index(2, 0),
                                               QItemSelectionModel::Select | QItemSelectionModel::Rows);
        page.relationBox()->setCurrentText(QStringLiteral("epochs"));
        const QString shot = QStringLiteral(QT_TESTCASE_BUILDDIR "/runs-page-1366x768.png");
        QVERIFY(page.grab().save(shot));
        auto *views = page.findChild<QTabWidget *>(QStringLiteral("runViews"));
        QVERIFY(views);
        views->setCurrentWidget(page.parallelCoordinates());
        QVERIFY(page.grab().save(QStringLiteral(QT_TESTCASE_BUILDDIR "/runs-parallel-1366x768.png")));
        views->setCurrentIndex(0);
        // Each sweep run keeps its model for the session: one selected run can be saved, and
        // the saved folder predicts what the run's model predicts.
        auto *save = page.findChild<QPushButton *>(QStringLiteral("saveRunModel"));
        QVERIFY(save);
        QVERIFY(!save->isEnabled()); // two runs selected
        page.table()->selectRow(0);
        QVERIFY(save->isEnabled());
        const std::size_t run = static_cast<std::size_t>(static_cast<QSortFilterProxyModel *>(page.table()->model())
                                                             ->mapToSource(page.table()->model()->index(0, 0))
                                                             .row());
        QTemporaryDir folder;
        const QString directory = folder.filePath(QStringLiteral("run-model"));
        QVERIFY2(page.saveSelectedModel(directory), qPrintable(page.statusText()));
        QVERIFY(QFile::exists(directory + QStringLiteral("/model.json")));
        QVERIFY(!state.runs()[run].modelFolder.empty());
        const auto reloaded = gpumem::prediction::loadSavedModel(directory.toStdString());
        std::vector<std::string> warnings;
        const auto dataset = state.buildDataset(warnings);
        const Eigen::VectorXd kept = state.runModel(run)->predict(*dataset);
        const Eigen::VectorXd read = reloaded.model->predict(*dataset);
        QVERIFY((kept - read).cwiseAbs().maxCoeff() <= 1e-6 * kept.cwiseAbs().maxCoeff());

        // Runs as a reopened project gives them: no model in memory, but a folder. The run
        // can still be saved elsewhere, read back from its folder.
        state.setRuns(state.runs());
        QVERIFY(!state.runModel(run));
        page.table()->selectRow(0);
        QVERIFY(save->isEnabled());
        const QString again = folder.filePath(QStringLiteral("again"));
        QVERIFY2(page.saveSelectedModel(again), qPrintable(page.statusText()));
        const auto copy = gpumem::prediction::loadSavedModel(again.toStdString());
        QCOMPARE(copy.model->predict(*dataset), read);
    }

    void cancelKeepsTheFinishedRuns()
    {
        gpumem::tests::QuickTrainingState state(1);
        gpumem::ui::RunsPage page(&state);
        QSignalSpy finished(&page, &gpumem::ui::RunsPage::sweepFinished);
        QSignalSpy added(&state, &gpumem::ui::WorkbenchState::runsChanged);
        gpumem::runs::SweepPlan plan;
        plan.parameters = {{"epochs", {"1", "5000"}}};
        QVERIFY(page.startSweep(plan, 0.2));
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, 60000);
        page.cancelSweep();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QCOMPARE(finished.at(0).at(0).toInt(), 1);
        QCOMPARE(finished.at(0).at(1).toBool(), true);
        QCOMPARE(state.runs().size(), std::size_t{1});
        QVERIFY(page.statusText().contains("cancelled"));
    }

    // The Runs page copied the Training page's settings keys; both now read the
    // workbench's device and threads, which the Training page's form sets.
    void aSweepComputesWithTheTrainingPagesThreads()
    {
        if (QThread::idealThreadCount() < 2)
            QSKIP("one hardware thread: the form offers no other count");
        QSettings().setValue(QStringLiteral("training/threads"), 1);
        gpumem::tests::QuickTrainingState state(1);
        QCOMPARE(state.threads(), 1);
        gpumem::ui::TrainingPage training(&state);
        gpumem::ui::RunsPage runs(&state);
        training.findChild<QSpinBox *>(QStringLiteral("threadsBox"))->setValue(2);
        auto *device = training.findChild<QComboBox *>(QStringLiteral("deviceBox"));
        device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
        QCOMPARE(state.threads(), 2);
        QCOMPARE(state.device(), QStringLiteral("cpu"));
        QCOMPARE(QSettings().value(QStringLiteral("training/threads")).toInt(), 2); // remembered once, by the state
        QCOMPARE(gpumem::ui::WorkbenchState().device(), QStringLiteral("cpu"));

        QSignalSpy finished(&runs, &gpumem::ui::RunsPage::sweepFinished);
        gpumem::runs::SweepPlan plan;
        plan.parameters = {{"epochs", {"1"}}};
        QVERIFY2(runs.startSweep(plan, 0.2), qPrintable(runs.statusText()));
        QVERIFY(runs.statusText().contains("2 thread"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    }

    void sweepRefusesUnusableValuesBeforeTraining()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::RunsPage page(&state);
        gpumem::runs::SweepPlan plan;
        plan.parameters = {{"epochs", {"1"}}};
        QVERIFY(!page.startSweep(plan, 0.2)); // no data
        QVERIFY(page.statusText().contains("No data"));
        gpumem::tests::prepareQuickTraining(state, 1);
        plan.parameters = {{"epochs", {"1", "0"}}}; // 0 epochs is out of range
        QVERIFY(!page.startSweep(plan, 0.2));
        QVERIFY(page.statusText().contains("epochs"));
        QVERIFY(!page.isSweeping());
        QVERIFY(state.runs().empty());
    }

    void everyTrainingOfTheTrainingPageIsKept()
    {
        gpumem::tests::QuickTrainingState state(2);
        gpumem::ui::TrainingPage training(&state);
        QObject::connect(
            &training, &gpumem::ui::TrainingPage::runRecorded, &state,
            [&state, &training](const gpumem::runs::RunRecord &run) { state.addRun(run, training.trainedModel()); });
        QSignalSpy finished(&training, &gpumem::ui::TrainingPage::trainingFinished);
        for (int run = 1; run <= 2; ++run) {
            QVERIFY(training.start());
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), run, 120000);
        }
        QCOMPARE(state.runs().size(), std::size_t{2});
        const RunRecord &last = state.runs().back();
        QCOMPARE(last.name, std::string("run 2"));
        QCOMPARE(last.epochs.size(), std::size_t{2});
        QCOMPARE(last.batches.size(), std::size_t{2 * 9}); // 72 rows in batches of 8, two epochs
        QVERIFY(last.trainMetrics && last.trainMetrics->rmse > 0.0);
        QCOMPARE(std::get<std::int64_t>(*last.hyperparameter("batch_size")), std::int64_t{8});
        QCOMPARE(last.stopReason, gpumem::training::StopReason::Completed);
    }
};

QTEST_MAIN(TestRunsPage)
#include "test_RunsPage.moc"
