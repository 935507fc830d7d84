// SPDX-License-Identifier: GPL-3.0-or-later
#include "UiTestSupport.h"
#include "calibration/CalibratedFit.h"
#include "data/Dataset.h"
#include "models/NeuralNetworkRegressor.h"
#include "models/RegressorRegistry.h"
#include "ui/app/WorkbenchState.h"
#include "ui/pages/PredictPage.h"
#include "ui/pages/TrainingPage.h"

#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

class TestPredictPage : public QObject
{
    Q_OBJECT

  private:
    std::shared_ptr<gpumem::models::NeuralNetworkRegressor> mModel;
    std::shared_ptr<const gpumem::data::Table> mTable;

  private Q_SLOTS:
    void initTestCase()
    {
        gpumem::tests::isolateSettings("test_PredictPage");
        mTable = gpumem::tests::trainingTable();
        gpumem::ui::WorkbenchState state;
        state.setTable(mTable, gpumem::tests::testDataPath("jobs_training.csv"));
        std::vector<std::string> warnings;
        const auto dataset = state.buildDataset(warnings);
        mModel = std::make_shared<gpumem::models::NeuralNetworkRegressor>(gpumem::tests::quickHyperparameters(3));
        std::vector<Eigen::Index> rows(dataset->rowCount());
        for (std::size_t row = 0; row < rows.size(); ++row)
            rows[row] = static_cast<Eigen::Index>(row);
        mModel->fit(*dataset, rows);
    }

    void predictsOneJobLive()
    {
        gpumem::ui::WorkbenchState state;
        state.setTable(mTable, gpumem::tests::testDataPath("jobs_training.csv"));
        gpumem::ui::TrainingPage training(&state);
        gpumem::ui::PredictPage page(&state, &training);
        page.setModel({mModel, std::nullopt}, QStringLiteral("test model"));
        QVERIFY(page.hasModel());
        // The form starts from the first data row, so the prediction is the model's for that row.
        std::vector<std::string> warnings;
        const auto dataset = state.buildDataset(warnings);
        const double firstRow = mModel->predict(*dataset)[0];
        QVERIFY2(std::isfinite(page.currentPrediction()), qPrintable(page.predictionText()));
        QCOMPARE(std::round(page.currentPrediction() * 1000.0), std::round(firstRow * 1000.0));

        const double before = page.currentPrediction();
        QVERIFY(page.setInput(QStringLiteral("batch"), QStringLiteral("256")));
        QVERIFY(std::isfinite(page.currentPrediction()));
        QVERIFY(page.currentPrediction() != before);
        QVERIFY(page.predictionText().contains(QStringLiteral("MiB")));
        auto *warning = page.findChild<QLabel *>(QStringLiteral("extrapolationWarning"));
        QVERIFY(warning);
        QVERIFY(warning->isHidden()); // 256 is the largest batch of the training file
        // A batch beyond the training data still gets a number, and a warning that says why to doubt it.
        QVERIFY(page.setInput(QStringLiteral("batch"), QStringLiteral("4096")));
        QVERIFY(std::isfinite(page.currentPrediction()));
        QVERIFY(!warning->isHidden());
        QVERIFY2(warning->text().contains(QStringLiteral("batch 4096 > 256")), qPrintable(warning->text()));

        // A malformed layer list shows core's message instead of a number.
        QVERIFY(page.setInput(QStringLiteral("layers"), QStringLiteral("[('linear', 10")));
        QVERIFY(std::isnan(page.currentPrediction()));
        QVERIFY(!page.predictionText().contains(QStringLiteral("MiB")));
    }

    void predictsAWholeFileLikeTheCommandLine()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::TrainingPage training(&state);
        gpumem::ui::PredictPage page(&state, &training);
        page.setModel({mModel, std::nullopt}, QStringLiteral("test model"));
        QTemporaryDir directory;
        const QString output = directory.filePath(QStringLiteral("predictions.csv"));
        QSignalSpy finished(&page, &gpumem::ui::PredictPage::predictionFinished);
        page.predictFile(gpumem::tests::testDataPath("jobs_training.csv"), output);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));
        QFile file(output);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 81);
        // The model keeps its training ranges, so the file names jobs outside them (none here: these trained it).
        QCOMPARE(lines.front(), QStringLiteral("prediction,actual,error,extrapolated"));
        QVERIFY(lines.at(1).endsWith(QLatin1Char(',')));
        // A file without the model's columns is refused before any save dialog, naming the column.
        QVERIFY(page.checkInput(gpumem::tests::testDataPath("jobs_training.csv")).isEmpty());
        const QString lacking = directory.filePath(QStringLiteral("lacking.csv"));
        QVERIFY(gpumem::tests::writeFile(lacking, "batch,other\n8,1\n16,2\n"));
        QVERIFY2(page.checkInput(lacking).contains(QStringLiteral("missing column")),
                 qPrintable(page.checkInput(lacking)));
        // The preview names each job by the file's identifier column and shows whole MiB for GPU-sized jobs.
        auto *preview = page.findChild<QTableView *>(QStringLiteral("predictionPreview"));
        QVERIFY(preview);
        QCOMPARE(preview->model()->headerData(0, Qt::Horizontal).toString().section(QLatin1Char('\n'), 0, 0),
                 QStringLiteral("job"));
        QCOMPARE(preview->model()->index(0, 0).data().toString(), QStringLiteral("r1"));
        QVERIFY(!preview->model()->index(0, 1).data().toString().contains(QLatin1Char('.')));
        QCOMPARE(preview->model()->rowCount(), 80);
        // Row 1 of jobs_training.csv has memory_mib 1353; error = prediction − actual.
        const QStringList first = lines.at(1).split(QLatin1Char(','));
        QCOMPARE(first.at(1).toDouble(), 1353.0);
        QVERIFY(std::abs(first.at(2).toDouble() - (first.at(0).toDouble() - 1353.0)) < 1e-6 * 1353.0);
    }

    void showsTheRequestAtACoverageAndWhichGpusFit()
    {
        gpumem::ui::WorkbenchState state;
        state.setTable(mTable, gpumem::tests::testDataPath("jobs_training.csv"));
        std::vector<std::string> warnings;
        const auto dataset = state.buildDataset(warnings);
        std::shared_ptr<gpumem::models::Regressor> ridge =
            gpumem::models::createRegressor("ridge", gpumem::models::regressorHyperparameters("ridge"));
        std::vector<Eigen::Index> rows(dataset->rowCount());
        for (std::size_t row = 0; row < rows.size(); ++row)
            rows[row] = static_cast<Eigen::Index>(row);
        gpumem::calibration::CalibrationSettings settings;
        settings.coverage = 0.9;
        settings.fraction = 0.5;
        settings.score = gpumem::calibration::Score::Absolute;
        const auto fit = gpumem::calibration::fitCalibrated(*ridge, *dataset, rows, settings);
        QVERIFY(fit.calibration);

        gpumem::ui::TrainingPage training(&state);
        gpumem::ui::PredictPage page(&state, &training);
        page.setModel({ridge, fit.calibration}, QStringLiteral("calibrated ridge"));
        // The request is the prediction plus the absolute margin at the stored coverage.
        const double margin = fit.calibration->margin(0.9);
        QVERIFY2(std::isfinite(page.currentUpperBound()), qPrintable(page.predictionText()));
        QCOMPARE(page.currentUpperBound(), page.currentPrediction() + margin);
        QVERIFY(page.predictionText().contains(QStringLiteral("request")));
        QVERIFY(page.predictionText().contains(QStringLiteral("90%")));
        // A lower coverage asks for less.
        page.setCoverage(0.6);
        QVERIFY(page.currentUpperBound() <= page.currentPrediction() + margin);
        QCOMPARE(page.currentUpperBound(), page.currentPrediction() + fit.calibration->margin(0.6));

        auto *capacities = page.findChild<QTableWidget *>(QStringLiteral("capacityTable"));
        QVERIFY(capacities);
        QCOMPARE(capacities->rowCount(), 8);
        for (int row = 0; row < capacities->rowCount(); ++row) {
            const double gib = capacities->item(row, 0)->text().split(QLatin1Char(' ')).front().toDouble();
            QCOMPARE(capacities->item(row, 1)->text().startsWith(QStringLiteral("fits")),
                     page.currentUpperBound() <= gib * 1024.0);
        }

        // The saved file has the command line's upper_bound column.
        QTemporaryDir directory;
        const QString output = directory.filePath(QStringLiteral("bounds.csv"));
        QSignalSpy finished(&page, &gpumem::ui::PredictPage::predictionFinished);
        page.predictFile(gpumem::tests::testDataPath("jobs_training.csv"), output);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QFile file(output);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(file.readAll()).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.front(), QStringLiteral("prediction,upper_bound,actual,error,extrapolated"));
        const QStringList first = lines.at(1).split(QLatin1Char(','));
        QVERIFY(std::abs(first.at(1).toDouble() - (first.at(0).toDouble() + fit.calibration->margin(0.6))) < 1e-6);
    }
};

QTEST_MAIN(TestPredictPage)
#include "test_PredictPage.moc"
