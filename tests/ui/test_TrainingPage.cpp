// SPDX-License-Identifier: GPL-3.0-or-later
#include "UiTestSupport.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/CurveCsvExport.h"
#include "ui/charts/LossPlot.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/pages/TrainingPage.h"

#include <QAction>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

// The names the loss chart's legend lists.
QStringList legendNames(const gpumem::ui::TrainingPage &page)
{
    QStringList names;
    QCustomPlot *chart = page.plot()->lossChart();
    for (int item = 0; item < chart->legend->itemCount(); ++item)
        if (auto *entry = qobject_cast<QCPPlottableLegendItem *>(chart->legend->item(item)))
            names << entry->plottable()->name();
    return names;
}

// Trains on page to the end, as pressing Start does: whether the training succeeded.
bool trainsToTheEnd(gpumem::ui::TrainingPage &page)
{
    QSignalSpy finished(&page, &gpumem::ui::TrainingPage::trainingFinished);
    return page.start() && QTest::qWaitFor([&finished] { return finished.count() == 1; }, 120000) &&
           finished.at(0).at(0).toBool();
}

// A Training page on quick settings, the spy of its finished runs and its Save button.
struct TrainingPageAndSpy
{
    explicit TrainingPageAndSpy(int epochs = 2)
        : state(epochs)
    {
    }

    gpumem::tests::QuickTrainingState state;
    gpumem::ui::TrainingPage page{&state};
    QSignalSpy finished{&page, &gpumem::ui::TrainingPage::trainingFinished};
    QPushButton *save = page.findChild<QPushButton *>(QStringLiteral("saveModel"));
};

// The value of the curve named name at epoch x, or NaN when it has no such point.
double curveValue(const QCustomPlot *chart, const QString &name, double x)
{
    for (int graph = 0; graph < chart->graphCount(); ++graph)
        if (chart->graph(graph)->name() == name)
            for (auto point = chart->graph(graph)->data()->constBegin();
                 point != chart->graph(graph)->data()->constEnd(); ++point)
                if (point->key == x)
                    return point->value;
    return std::nan("");
}

// The RMSE (MiB) of predicted against actual on rows, summed here rather than by the project's metrics.
double rmseOn(const Eigen::VectorXd &predicted, const Eigen::VectorXd &actual, const std::vector<Eigen::Index> &rows)
{
    double squared = 0.0;
    for (Eigen::Index row : rows)
        squared += (predicted[row] - actual[row]) * (predicted[row] - actual[row]);
    return std::sqrt(squared / static_cast<double>(rows.size()));
}

class TestTrainingPage : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { gpumem::tests::isolateSettings("test_TrainingPage"); }

    void trainsLiveAndKeepsTheModel()
    {
        TrainingPageAndSpy shown(3);
        auto &[state, page, finished, save] = shown;
        page.show();
        QVERIFY(page.start());
        QVERIFY(page.isRunning());
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("startTraining"))->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));
        QVERIFY(page.trainedModel());
        QVERIFY(page.trainedModel()->isFitted());
        // 80 rows, 10% kept for validation: 72 training rows in batches of 8 → 9 batches per epoch.
        QCOMPARE(page.plot()->batchPointCount(), 3 * 9);
        QCOMPARE(page.plot()->epochPointCount(), 3);
        QVERIFY(page.findChild<QPushButton *>(QStringLiteral("startTraining"))->isEnabled());
        QVERIFY(page.findChild<QPushButton *>(QStringLiteral("saveModel"))->isEnabled());
        // The validation error is shown in MiB as it goes: the lowest of the run, as the label says.
        QVERIFY(std::isfinite(page.validationRmse()));
        auto *accuracy = page.findChild<QLabel *>(QStringLiteral("validationRmse"));
        QVERIFY2(accuracy->text().contains(QStringLiteral("(best %L1)").arg(page.validationRmse(), 0, 'f', 1)),
                 qPrintable(accuracy->text()));
        QVERIFY(legendNames(page).contains(QStringLiteral("validation RMSE")));
        QCOMPARE(page.plot()->lossChart()->yAxis->label(), QStringLiteral("RMSE (MiB)"));
        QCOMPARE(page.plot()->optimisationChart()->yAxis->label(), QStringLiteral("MSE loss (scaled target)"));

        // New data marks the model and its curves stale.
        state.setTable(gpumem::tests::trainingTable(), gpumem::tests::testDataPath("jobs_training.csv"));
        QVERIFY(page.statusText().contains(QStringLiteral("data changed")));
        QCOMPARE(page.plot()->batchPointCount(), 0);
    }

    void namesNoValidationCurveWithoutValidationRows()
    {
        // The defaults hold no rows out: the legend lists only what the chart draws.
        gpumem::tests::QuickTrainingState state(2);
        gpumem::models::Hyperparameters hyperparameters = state.hyperparameters();
        hyperparameters.set("validation_fraction", 0.0);
        // The loss axis names the loss trained, whose values differ from the squared error's.
        hyperparameters.setAssignment("loss=huber");
        state.setHyperparameters(hyperparameters);
        gpumem::ui::TrainingPage page(&state);
        QVERIFY2(trainsToTheEnd(page), qPrintable(page.statusText()));
        QCOMPARE(page.plot()->epochPointCount(), 2);
        const QStringList names = legendNames(page);
        QVERIFY2(names.contains(QStringLiteral("training RMSE")), qPrintable(names.join(", ")));
        QVERIFY2(!names.contains(QStringLiteral("validation RMSE")), qPrintable(names.join(", ")));
        QCOMPARE(page.plot()->optimisationChart()->yAxis->label(), QStringLiteral("Huber loss (scaled target)"));
        // Without validation rows the label reads the training error, and says why there is no other.
        QVERIFY2(page.findChild<QLabel *>(QStringLiteral("validationRmse"))
                     ->text()
                     .contains(QStringLiteral("training RMSE")),
                 qPrintable(page.findChild<QLabel *>(QStringLiteral("validationRmse"))->text()));
    }

    void drawsEachNetworkOfAnEnsembleBehindTheMean()
    {
        gpumem::tests::QuickTrainingState state(2);
        gpumem::models::Hyperparameters hyperparameters = state.hyperparameters();
        hyperparameters.setAssignment("ensemble=3");
        state.setHyperparameters(hyperparameters);
        gpumem::ui::TrainingPage page(&state);
        QVERIFY2(trainsToTheEnd(page), qPrintable(page.statusText()));
        QCOMPARE(page.plot()->memberCurveCount(), 3);
        // Three thin curves of two epochs each, whose mean is the bold epoch curve, named once.
        QCustomPlot *chart = page.plot()->lossChart();
        std::vector<QCPGraph *> members;
        QCPGraph *mean = nullptr;
        for (int graph = 0; graph < chart->graphCount(); ++graph) {
            if (chart->graph(graph)->name() == QStringLiteral("each network's training RMSE"))
                members.push_back(chart->graph(graph));
            if (chart->graph(graph)->name() == QStringLiteral("training RMSE"))
                mean = chart->graph(graph);
        }
        QCOMPARE(members.size(), std::size_t{3});
        QVERIFY(mean);
        QCOMPARE(mean->dataCount(), 2);
        for (int epoch = 0; epoch < 2; ++epoch) {
            double sum = 0.0;
            for (QCPGraph *member : members) {
                QCOMPARE(member->dataCount(), 2);
                QCOMPARE(member->data()->at(epoch)->key, mean->data()->at(epoch)->key);
                sum += member->data()->at(epoch)->value;
            }
            QVERIFY(std::abs(sum / 3.0 - mean->data()->at(epoch)->value) <= 1e-9 * std::abs(sum));
        }
        QCOMPARE(legendNames(page).count(QStringLiteral("each network's training RMSE")), 1);

        // The next training, of one network, draws none.
        hyperparameters.setAssignment("ensemble=1");
        state.setHyperparameters(hyperparameters);
        QVERIFY2(trainsToTheEnd(page), qPrintable(page.statusText()));
        QCOMPARE(page.plot()->memberCurveCount(), 0);
        QVERIFY(!legendNames(page).contains(QStringLiteral("each network's training RMSE")));
    }

    // Issue 25: a run trained on this page reached the Runs page without validation
    // metrics, while a sweep's runs had them. Both now come from workflows::train.
    void recordsItsRunWithValidationMetrics()
    {
        gpumem::tests::QuickTrainingState state(3);
        gpumem::ui::TrainingPage page(&state);
        std::vector<gpumem::runs::RunRecord> recorded;
        connect(&page, &gpumem::ui::TrainingPage::runRecorded, this,
                [&recorded](const gpumem::runs::RunRecord &run) { recorded.push_back(run); });
        QSignalSpy finished(&page, &gpumem::ui::TrainingPage::trainingFinished);
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));
        QCOMPARE(recorded.size(), std::size_t{1});
        const gpumem::runs::RunRecord &run = recorded.front();
        // Every row trains; the network's 10% validation share (8 of 80 rows) scores the run.
        QCOMPARE(run.trainRows, std::size_t{80});
        QCOMPARE(run.validationRows, std::size_t{8});
        QVERIFY(run.trainMetrics.has_value());
        QVERIFY(run.validationMetrics.has_value());
        QVERIFY(std::isfinite(run.validationMetrics->rmse) && run.validationMetrics->rmse > 0.0);
        QVERIFY(std::isfinite(run.validationMetrics->r2));
        QVERIFY(std::isfinite(run.validationMetrics->mae));
        QCOMPARE(run.epochs.size(), std::size_t{3});
        QCOMPARE(run.batches.size(), std::size_t{3 * 9});
        // The same rows as the page's validation RMSE, on the best epoch's weights the model keeps.
        QVERIFY2(std::abs(run.validationMetrics->rmse - page.validationRmse()) <= 1e-3 * page.validationRmse(),
                 qPrintable(QStringLiteral("%1 vs %2").arg(run.validationMetrics->rmse).arg(page.validationRmse())));
    }

    void drawsXgboostsRmseFromTheLastComparison()
    {
        gpumem::ui::WorkbenchState state;
        state.setTable(gpumem::tests::trainingTable(), gpumem::tests::testDataPath("jobs_training.csv"));
        gpumem::ui::TrainingPage page(&state);
        auto result = std::make_shared<gpumem::evaluation::ExperimentResult>();
        gpumem::evaluation::ModelResult xgboost;
        xgboost.name = "xgboost";
        xgboost.mean.rmse = 123.5;
        result->models.push_back(xgboost);
        state.setComparison(result, nullptr);
        // The dashed reference spans the plot on the network's own axis of errors in MiB, named in the legend.
        QCustomPlot *chart = page.plot()->lossChart();
        QCPGraph *reference = nullptr;
        for (int graph = 0; graph < chart->graphCount(); ++graph)
            if (chart->graph(graph)->name().contains(QStringLiteral("XGBoost")))
                reference = chart->graph(graph);
        QVERIFY(reference);
        QCOMPARE(reference->valueAxis(), chart->yAxis);
        page.plot()->scheduleReplot();
        QTRY_VERIFY_WITH_TIMEOUT(reference->dataCount() == 2, 2000);
        QCOMPARE(reference->data()->at(0)->value, 123.5);
    }

    void calibratesAnUpperBoundWhenAsked()
    {
        gpumem::tests::QuickTrainingState state(2);
        gpumem::ui::TrainingPage page(&state);
        page.setCalibration(true, 0.8);
        QSignalSpy finished(&page, &gpumem::ui::TrainingPage::trainingFinished);
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));
        // A fifth of the 80 rows calibrate, as `gpumem train --coverage` sets them aside.
        QVERIFY(page.trainedCalibration());
        QCOMPARE(page.trainedCalibration()->coverage(), 0.8);
        QCOMPARE(page.trainedCalibration()->calibrationRowCount(), std::size_t{16});
        QVERIFY(std::isfinite(page.trainedCalibration()->margin(0.8)));
    }

    void pausesResumesAndStops()
    {
        TrainingPageAndSpy shown(5000);
        auto &[state, page, finished, save] = shown;
        page.show();
        QVERIFY(page.start());
        QTRY_VERIFY_WITH_TIMEOUT(page.plot()->batchPointCount() > 3, 60000);
        QTRY_VERIFY(page.plot()->replotCount() > 0);

        page.pause();
        QVERIFY(page.findChild<QPushButton *>(QStringLiteral("resumeTraining"))->isEnabled());
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("pauseTraining"))->isEnabled());
        // Paused training produces no batches: after the one in flight, the count holds still.
        QTest::qWait(300);
        const int paused = page.plot()->batchPointCount();
        QTest::qWait(300);
        QCOMPARE(page.plot()->batchPointCount(), paused);

        page.resume();
        QTRY_VERIFY_WITH_TIMEOUT(page.plot()->batchPointCount() > paused, 30000);
        page.stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        // A stop keeps the best epoch so far: a model exists exactly when an epoch finished.
        const bool kept = page.plot()->epochPointCount() > 0;
        QCOMPARE(finished.at(0).at(0).toBool(), kept);
        QCOMPARE(page.trainedModel() != nullptr, kept);
        QVERIFY(!page.isRunning());
    }

    // "Save model…" after a stopped run must not save the run before it: stopped inside its
    // first epoch, a run has no epoch to keep.
    void aRunStoppedInItsFirstEpochLeavesNothingToSave()
    {
        TrainingPageAndSpy trained;
        auto &[state, page, finished, save] = trained;
        QVERIFY(trainsToTheEnd(page));
        QVERIFY(page.trainedModel());
        QVERIFY(save->isEnabled());

        gpumem::models::Hyperparameters longer = state.hyperparameters();
        longer.setAssignment("epochs=5000");
        longer.setAssignment("batch_size=1");
        state.setHyperparameters(longer);
        QVERIFY(page.start());
        QTRY_VERIFY_WITH_TIMEOUT(page.plot()->batchPointCount() > 3, 60000);
        page.stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
        if (page.plot()->epochPointCount() == 0) {
            QVERIFY(!page.trainedModel());
            QVERIFY(!save->isEnabled());
            QVERIFY(page.statusText().contains(QStringLiteral("No model was kept")));
        }
    }

    // Issue 51: Stop threw the trained model away. It keeps the best epoch so far, as the
    // early stop does, and says so; "Save model…" then saves this run, not the one before.
    void aStoppedRunKeepsItsBestEpochSoFar()
    {
        TrainingPageAndSpy trained;
        auto &[state, page, finished, save] = trained;
        QVERIFY(trainsToTheEnd(page));
        const auto first = page.trainedModel();
        QVERIFY(first);

        gpumem::models::Hyperparameters longer = state.hyperparameters();
        longer.setAssignment("epochs=5000");
        state.setHyperparameters(longer);
        QVERIFY(page.start());
        QTRY_VERIFY_WITH_TIMEOUT(page.plot()->epochPointCount() >= 2, 120000);
        page.stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
        QVERIFY(page.trainedModel());
        QVERIFY(page.trainedModel() != first);
        QVERIFY(save->isEnabled());
        QVERIFY2(page.statusText().contains(QStringLiteral("the best so far")), qPrintable(page.statusText()));
    }

    // The chart of errors shows the RMSE in MiB of the weights each epoch ended with: at the
    // epoch the model keeps, the RMSE of the kept model's own predictions on the same rows.
    void plotsTheErrorInMibOfTheRowsItNames()
    {
        gpumem::tests::QuickTrainingState state(3);
        gpumem::ui::TrainingPage page(&state);
        QVERIFY2(trainsToTheEnd(page), qPrintable(page.statusText()));
        std::vector<std::string> warnings;
        const auto dataset = state.buildDataset(warnings);
        const Eigen::VectorXd predicted = page.trainedModel()->predict(*dataset);
        const std::vector<Eigen::Index> &validation = page.lastResult().validationRows;
        QCOMPARE(validation.size(), std::size_t{8});
        std::vector<Eigen::Index> fitted;
        for (Eigen::Index row = 0; row < 80; ++row)
            if (std::find(validation.begin(), validation.end(), row) == validation.end())
                fitted.push_back(row);
        const double best = page.lastResult().bestEpoch;
        QVERIFY(best >= 1);
        const QCustomPlot *chart = page.plot()->lossChart();
        const double validationRmse = curveValue(chart, QStringLiteral("validation RMSE"), best);
        const double trainRmse = curveValue(chart, QStringLiteral("training RMSE"), best);
        const double expectedValidation = rmseOn(predicted, dataset->target(), validation);
        const double expectedTrain = rmseOn(predicted, dataset->target(), fitted);
        QVERIFY2(std::abs(validationRmse - expectedValidation) <= 1e-4 * expectedValidation,
                 qPrintable(QStringLiteral("%1 vs %2").arg(validationRmse).arg(expectedValidation)));
        QVERIFY2(std::abs(trainRmse - expectedTrain) <= 1e-4 * expectedTrain,
                 qPrintable(QStringLiteral("%1 vs %2").arg(trainRmse).arg(expectedTrain)));
        QCOMPARE(page.plot()->lossChart()->graph(0)->dataCount(), 3); // one point per epoch
    }

    void showsTheErrorsOnALogAxisByDefault()
    {
        gpumem::ui::LossPlot plot;
        QVERIFY(plot.isLogarithmic());
        QCOMPARE(plot.lossChart()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(plot.optimisationChart()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        auto *toggle = plot.findChild<QCheckBox *>(QStringLiteral("logScale"));
        QVERIFY(toggle && toggle->isChecked());
        toggle->setChecked(false); // the linear axes stay a click away
        QCOMPARE(plot.lossChart()->yAxis->scaleType(), QCPAxis::stLinear);
        QCOMPARE(plot.optimisationChart()->yAxis->scaleType(), QCPAxis::stLinear);
    }

    void startsTheLearningRateAxisAtZero()
    {
        gpumem::ui::LossPlot plot;
        // A warm-up that starts well above 0: the axis still starts at 0.
        for (int batch = 1; batch <= 10; ++batch)
            plot.addBatch(batch / 10.0, 1.0 / batch, 0.002 + 0.0002 * batch);
        plot.scheduleReplot();
        QTRY_VERIFY(plot.replotCount() > 0);
        const QCPAxis *rate = plot.optimisationChart()->yAxis2;
        QVERIFY(rate->visible());
        QCOMPARE(rate->range().lower, 0.0);
        QVERIFY(rate->range().upper >= 0.004);
    }

    void exportsTheCurvesAsCsv()
    {
        gpumem::ui::LossPlot plot;
        for (int epoch = 1; epoch <= 3; ++epoch) {
            gpumem::training::EpochProgress progress;
            progress.epoch = epoch;
            progress.trainLoss = 0.5 / epoch;
            progress.validationLoss = 0.6 / epoch;
            progress.trainRmse = 100.0 / epoch;
            progress.validationRmse = 120.25 / epoch;
            plot.addEpoch(progress);
        }
        const auto hasExport = [](QWidget *chart) {
            const QList<QAction *> actions = chart->actions();
            return std::any_of(actions.begin(), actions.end(),
                               [](const QAction *action) { return action->text() == QStringLiteral("Export CSV…"); });
        };
        QVERIFY(hasExport(plot.lossChart()));
        QVERIFY(hasExport(plot.optimisationChart()));
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("rmse.csv"));
        QVERIFY(gpumem::ui::saveCurvesCsv(*plot.lossChart(), path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.value(0), QStringLiteral("curve,x,y,axis"));
        QCOMPARE(lines.size(), 1 + 3 + 3);
        std::vector<double> train;
        std::vector<double> validation;
        for (const QString &line : lines.mid(1)) {
            const QStringList fields = line.split(QLatin1Char(','));
            QCOMPARE(fields.size(), 4);
            QCOMPARE(fields[3], QStringLiteral("RMSE (MiB)"));
            const double epoch = fields[1].toDouble();
            QCOMPARE(fields[0] == QStringLiteral("training RMSE") ? 100.0 / epoch : 120.25 / epoch,
                     fields[2].toDouble());
            (fields[0] == QStringLiteral("training RMSE") ? train : validation).push_back(epoch);
        }
        QCOMPARE(train, (std::vector<double>{1.0, 2.0, 3.0}));
        QCOMPARE(validation, (std::vector<double>{1.0, 2.0, 3.0}));
    }

    void refusesToStartWithoutData()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::TrainingPage page(&state);
        QVERIFY(!page.start());
        QVERIFY(page.statusText().contains(QStringLiteral("No data")));
    }
};

QTEST_MAIN(TestTrainingPage)
#include "test_TrainingPage.moc"
