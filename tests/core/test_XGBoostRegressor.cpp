// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"
#include "RaisedInputError.h"

#include "io/InputError.h"
#include "models/RegressorRegistry.h"
#include "models/XGBoostRegressor.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

using gpumem::models::xgboostHyperparameters;
using gpumem::models::XGBoostRegressor;

namespace {

class Rounds : public gpumem::training::TrainingObserver
{
  public:
    void epochFinished(const gpumem::training::EpochProgress &progress) override
    {
        losses.push_back(progress.trainLoss);
    }
    std::vector<double> losses;
};

} // namespace

class TestXGBoostRegressor : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void defaultsAreXGBoosts()
    {
        const auto hyperparameters = xgboostHyperparameters();
        QCOMPARE(hyperparameters.integer("n_estimators"), std::int64_t{100});
        QCOMPARE(hyperparameters.integer("max_depth"), std::int64_t{6});
        QCOMPARE(hyperparameters.real("learning_rate"), 0.3);
        QCOMPARE(hyperparameters.real("reg_lambda"), 1.0);
        QCOMPARE(hyperparameters.real("reg_alpha"), 0.0);
    }

    void fitsALinearRuleWithNoise()
    {
        // memory = 1000 + 3a − 2b (+50 for one kind) with ±2 MiB uniform noise
        // (its RMSE is 2/√3 = 1.15); the target's spread is about 130 MiB.
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(1000, 2.0));
        XGBoostRegressor model(xgboostHyperparameters(), gpumem::tests::cpuSettings(1));
        Rounds rounds;
        const auto result = model.fit(dataset, gpumem::tests::firstRows(800), &rounds);
        QCOMPARE(result.stopReason, gpumem::training::StopReason::Completed);
        QCOMPARE(rounds.losses.size(), std::size_t{100});
        QVERIFY(rounds.losses.back() < rounds.losses.front());
        QVERIFY(rounds.losses.back() > 0.0 && rounds.losses.back() < 100.0);
        const Eigen::VectorXd predicted = model.predict(dataset).tail(200);
        const double rmse = gpumem::tests::rootMeanSquare(predicted, dataset.target().tail(200));
        QVERIFY2(rmse < 12.0, std::to_string(rmse).c_str());
    }

    void sameSeedSameModel()
    {
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(300, 5.0));
        auto hyperparameters = xgboostHyperparameters();
        hyperparameters.setAssignment("subsample=0.7");
        hyperparameters.setAssignment("n_estimators=20");
        XGBoostRegressor first(hyperparameters, gpumem::tests::cpuSettings(9));
        XGBoostRegressor second(hyperparameters, gpumem::tests::cpuSettings(9, 2));
        first.fit(dataset, gpumem::tests::firstRows(300));
        second.fit(dataset, gpumem::tests::firstRows(300));
        QCOMPARE(first.predict(dataset), second.predict(dataset));
    }

    void cancelBetweenRounds()
    {
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(100, 5.0));
        XGBoostRegressor model(xgboostHyperparameters(), gpumem::tests::cpuSettings(1));
        gpumem::runtime::OperationControl control;
        control.cancel();
        const auto result = model.fit(dataset, gpumem::tests::firstRows(100), nullptr, &control);
        QCOMPARE(result.stopReason, gpumem::training::StopReason::Cancelled);
        QVERIFY(!model.isFitted());
    }

    void savedBoosterLoadsBack()
    {
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(200, 5.0));
        XGBoostRegressor model(xgboostHyperparameters(), gpumem::tests::cpuSettings(1));
        model.fit(dataset, gpumem::tests::firstRows(200));
        QTemporaryDir folder;
        const std::string directory = folder.path().toStdString() + "/xgb";
        model.save(directory);
        QVERIFY(QFile::exists(QString::fromStdString(directory + "/booster.json")));
        const auto loaded = gpumem::models::loadRegressor(directory);
        QCOMPARE(loaded->name(), std::string("xgboost"));
        QCOMPARE(loaded->predict(dataset), model.predict(dataset));

        // A damaged booster file is an input error, not a crash: its digest no longer matches.
        std::ofstream(directory + "/booster.json", std::ios::trunc) << "{\"learner\": 3}";
        const auto error = gpumem::tests::raisedInputError([&] { gpumem::models::loadRegressor(directory); });
        QVERIFY2(std::string(error.what()).find("SHA-256") != std::string::npos, error.what());
        QFile::remove(QString::fromStdString(directory + "/booster.json"));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::models::loadRegressor(directory));
    }
};

QTEST_APPLESS_MAIN(TestXGBoostRegressor)
#include "test_XGBoostRegressor.moc"
