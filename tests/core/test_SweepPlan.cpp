// SPDX-License-Identifier: GPL-3.0-or-later
#include "RaisedInputError.h"
#include "TestSupport.h"
#include "io/InputError.h"
#include "runs/RunRecord.h"
#include "runs/SweepPlan.h"
#include "runs/SweepRecords.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>

using gpumem::runs::RunRecord, gpumem::runs::SweepMode, gpumem::runs::SweepPlan, gpumem::runs::SweepTrial;

namespace {

SweepPlan gridPlan()
{
    SweepPlan plan;
    plan.parameters = {{"epochs", {"5", "10"}}, {"learning_rate", {"0.001", "0.01", "0.1"}}};
    return plan;
}

std::string valuesText(const SweepTrial &trial)
{
    std::string text;
    for (const auto &[name, value] : trial.assignments)
        text += name + "=" + value + ";";
    return text;
}

RunRecord sampleRecord()
{
    RunRecord record;
    record.name = "trial 1";
    record.model = "bigru_transformer";
    record.hyperparameters = {{"epochs", std::int64_t{12}},
                              {"learning_rate", 0.0025},
                              {"use_bigru", true},
                              {"schedule", std::string("cosine")}};
    record.seed = 7;
    record.batches = {{1, 1, 2, 0.5}, {1, 2, 2, 0.25}};
    record.epochs = {{1, 0.375, std::nan(""), 0.001}, {2, 0.125, 0.2, 0.0005}};
    record.bestEpoch = 2;
    record.trainRows = 60;
    record.validationRows = 20;
    gpumem::evaluation::RegressionMetrics metrics;
    metrics.rmse = 12.5;
    metrics.mse = 156.25;
    metrics.r2 = 0.75;
    metrics.mape = std::nan("");
    record.trainMetrics = metrics;
    record.seconds = 1.5;
    record.stopReason = gpumem::training::StopReason::EarlyStopped;
    record.message = "stopped early";
    record.modelFolder = "/tmp/model";
    return record;
}

} // namespace

class TestSweepPlan : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void gridVariesTheFirstParameterSlowest()
    {
        const auto trials = gpumem::runs::expandSweep(gridPlan());
        QCOMPARE(trials.size(), std::size_t{6});
        QCOMPARE(valuesText(trials[0]), std::string("epochs=5;learning_rate=0.001;"));
        QCOMPARE(valuesText(trials[1]), std::string("epochs=5;learning_rate=0.01;"));
        QCOMPARE(valuesText(trials[3]), std::string("epochs=10;learning_rate=0.001;"));
        QCOMPARE(valuesText(trials[5]), std::string("epochs=10;learning_rate=0.1;"));
        for (std::size_t index = 0; index < trials.size(); ++index)
            QCOMPARE(trials[index].index, index);
    }

    void randomTrialsAreDistinctAndSeeded()
    {
        SweepPlan plan = gridPlan();
        plan.mode = SweepMode::Random;
        plan.randomTrials = 4;
        plan.seed = 11;
        const auto first = gpumem::runs::expandSweep(plan);
        const auto again = gpumem::runs::expandSweep(plan);
        QCOMPARE(first.size(), std::size_t{4});
        std::set<std::string> distinct;
        for (std::size_t index = 0; index < first.size(); ++index) {
            QCOMPARE(valuesText(first[index]), valuesText(again[index]));
            distinct.insert(valuesText(first[index]));
        }
        QCOMPARE(distinct.size(), std::size_t{4});
        // All six combinations: a random plan as large as the grid is a permutation of it.
        plan.randomTrials = 6;
        std::set<std::string> all;
        for (const auto &trial : gpumem::runs::expandSweep(plan))
            all.insert(valuesText(trial));
        QCOMPARE(all.size(), std::size_t{6});
        plan.seed = 12;
        plan.randomTrials = 4;
        bool differs = false;
        const auto other = gpumem::runs::expandSweep(plan);
        for (std::size_t index = 0; index < other.size(); ++index)
            differs = differs || valuesText(other[index]) != valuesText(first[index]);
        QVERIFY(differs);
    }

    void refusesBadPlans()
    {
        SweepPlan plan;
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::runs::expandSweep(plan));
        plan = gridPlan();
        plan.parameters.push_back({"epochs", {"3"}});
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::runs::expandSweep(plan));
        plan = gridPlan();
        plan.mode = SweepMode::Random;
        plan.randomTrials = 7; // only 6 combinations
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::runs::expandSweep(plan));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::runs::parseSweepParameter("epochs"));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::runs::parseSweepParameter("epochs=5,,6"));
        const auto parameter = gpumem::runs::parseSweepParameter("dropout=0,0.1");
        QCOMPARE(parameter.name, std::string("dropout"));
        QCOMPARE(parameter.values, (std::vector<std::string>{"0", "0.1"}));
    }

    void shardsAreDisjointAndCoverEveryTrial()
    {
        const auto trials = gpumem::runs::expandSweep(gridPlan());
        for (std::size_t shards : {1u, 2u, 4u, 7u}) {
            std::multiset<std::size_t> seen;
            for (std::size_t shard = 0; shard < shards; ++shard)
                for (const auto &trial : gpumem::runs::sweepShard(trials, shard, shards))
                    seen.insert(trial.index);
            QCOMPARE(seen.size(), trials.size());
            QCOMPARE(std::set<std::size_t>(seen.begin(), seen.end()).size(), trials.size());
        }
        const auto second = gpumem::runs::sweepShard(trials, 1, 4);
        QCOMPARE(second.size(), std::size_t{2});
        QCOMPARE(second[0].index, std::size_t{1});
        QCOMPARE(second[1].index, std::size_t{5});
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::runs::sweepShard(trials, 4, 4));
    }

    void runRecordRoundTrips()
    {
        const RunRecord record = sampleRecord();
        const nlohmann::ordered_json json = record;
        QCOMPARE(json["hyperparameters"]["epochs"].get<std::int64_t>(), std::int64_t{12});
        QVERIFY(json["epochs"][0][2].is_null()); // NaN validation loss
        QVERIFY(json["validation_metrics"].is_null());
        QCOMPARE(json["stop_reason"].get<std::string>(), std::string("early_stopped"));
        const RunRecord read = nlohmann::ordered_json::parse(json.dump()).get<RunRecord>();
        QCOMPARE(nlohmann::ordered_json(read).dump(), json.dump());
        QCOMPARE(read.hyperparameters.size(), std::size_t{4});
        QVERIFY(std::holds_alternative<std::int64_t>(read.hyperparameters[0].second));
        QVERIFY(std::holds_alternative<double>(read.hyperparameters[1].second));
        QVERIFY(std::holds_alternative<bool>(read.hyperparameters[2].second));
        QVERIFY(std::holds_alternative<std::string>(read.hyperparameters[3].second));
        QVERIFY(std::isnan(read.epochs[0].validationLoss));
        QCOMPARE(read.trainMetrics->rmse, 12.5);
        QVERIFY(std::isnan(read.trainMetrics->mape));
        QVERIFY(!read.validationMetrics);
        QCOMPARE(read.stopReason, gpumem::training::StopReason::EarlyStopped);
        QCOMPARE(read.modelFolder, std::string("/tmp/model"));
    }

    void runRecordRefusesBadMembers()
    {
        nlohmann::ordered_json json = sampleRecord();
        json["stop_reason"] = "exploded";
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, json.get<RunRecord>());
        json = sampleRecord();
        json.erase("seed");
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, json.get<RunRecord>());
        json = sampleRecord();
        json["epochs"][0] = nlohmann::ordered_json::array({1, 2});
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, json.get<RunRecord>());
    }

    void thinsLongBatchCurves()
    {
        std::vector<gpumem::runs::BatchPoint> points;
        for (int index = 0; index < 5001; ++index)
            points.push_back({1, index + 1, 5001, static_cast<double>(index)});
        const auto kept = gpumem::runs::thinnedBatches(points);
        QCOMPARE(kept.size(), gpumem::runs::maxBatchPoints);
        QCOMPARE(kept.front().trainLoss, 0.0);
        QCOMPARE(kept.back().trainLoss, 5000.0);
    }

    void mergeOrdersByTrialAndRefusesBadShards()
    {
        const auto trials = gpumem::runs::expandSweep(gridPlan());
        const auto header = gpumem::runs::sweepHeader("plan A", gridPlan(), "ridge", trials.size());
        const std::string headerLine = gpumem::runs::sweepHeaderLine(header);
        std::string whole = headerLine;
        std::string shard[2] = {headerLine, headerLine};
        for (const auto &trial : trials) {
            RunRecord record = sampleRecord();
            record.name = "trial " + std::to_string(trial.index);
            const std::string line = gpumem::runs::sweepLine(header, trial, record);
            whole += line;
            shard[trial.index % 2] += line;
        }
        QTemporaryDir folder;
        const QString a = folder.filePath("a.jsonl");
        const QString b = folder.filePath("b.jsonl");
        QVERIFY(writeText(a, shard[0]));
        QVERIFY(writeText(b, shard[1]));
        QCOMPARE(gpumem::runs::mergeSweepFiles({b.toStdString(), a.toStdString()}), whole);

        // Missing: one shard only.
        const auto missing = gpumem::tests::raisedInputError([&] { gpumem::runs::mergeSweepFiles({a.toStdString()}); });
        QVERIFY2(std::string(missing.what()).find("trial 1 of 6 is in none") != std::string::npos, missing.what());
        // Overlapping: the same shard twice.
        const auto overlapping = gpumem::tests::raisedInputError([&] {
            gpumem::runs::mergeSweepFiles({a.toStdString(), b.toStdString(), a.toStdString()});
        });
        QVERIFY2(std::string(overlapping.what()).find("overlapping") != std::string::npos, overlapping.what());
        // Mismatched: a shard of another plan.
        const QString c = folder.filePath("c.jsonl");
        const auto other = gpumem::runs::sweepHeader("plan B", gridPlan(), "ridge", trials.size());
        QVERIFY(writeText(c, gpumem::runs::sweepHeaderLine(other) +
                                 gpumem::runs::sweepLine(other, trials[1], sampleRecord())));
        const auto mismatched = gpumem::tests::raisedInputError([&] {
            gpumem::runs::mergeSweepFiles({a.toStdString(), c.toStdString()});
        });
        QVERIFY2(std::string(mismatched.what()).find("another sweep") != std::string::npos, mismatched.what());
        QCOMPARE(mismatched.line(), std::int64_t{1});
        // A half-written last line.
        QVERIFY(writeText(c, shard[1].substr(0, shard[1].size() - 10)));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError,
                                 gpumem::runs::mergeSweepFiles({a.toStdString(), c.toStdString()}));
    }

    // Issue 49: every line repeated the sweep's identity, which lists every value of the grid, so a
    // file grew with the cube of the values; a line is now the same size whatever the plan.
    void aRunsLineDoesNotGrowWithThePlan()
    {
        gpumem::runs::SweepPlan small;
        small.parameters = {{"epochs", {"1", "2"}}};
        gpumem::runs::SweepPlan large = small;
        for (int value = 3; value <= 2000; ++value)
            large.parameters.front().values.push_back(std::to_string(value));
        const auto trial = gpumem::runs::expandSweep(small).front();
        const auto smallHeader = gpumem::runs::sweepHeader(gpumem::runs::sweepDescription(small), small, "ridge", 2);
        const auto largeHeader = gpumem::runs::sweepHeader(gpumem::runs::sweepDescription(large), large, "ridge", 2);
        QCOMPARE(largeHeader.id.size(), std::size_t{64});
        QCOMPARE(gpumem::runs::sweepLine(largeHeader, trial, sampleRecord()).size(),
                 gpumem::runs::sweepLine(smallHeader, trial, sampleRecord()).size());
        // The plan is spelled out once, in the first line.
        QVERIFY(gpumem::runs::sweepHeaderLine(largeHeader).find(",2000\"") != std::string::npos);
    }

    void aFileWithoutItsFirstLineIsRefused()
    {
        const auto trials = gpumem::runs::expandSweep(gridPlan());
        const auto header = gpumem::runs::sweepHeader("plan A", gridPlan(), "ridge", trials.size());
        QTemporaryDir folder;
        const QString path = folder.filePath("runs.jsonl");
        QVERIFY(writeText(path, gpumem::runs::sweepLine(header, trials[0], sampleRecord())));
        const auto error = gpumem::tests::raisedInputError([&] { gpumem::runs::readSweepFile(path.toStdString()); });
        QVERIFY2(std::string(error.what()).find(":1:1: the first line is a run, not the line naming the sweep") !=
                     std::string::npos,
                 error.what());
        QVERIFY(writeText(path, ""));
        const auto empty = gpumem::tests::raisedInputError([&] { gpumem::runs::readSweepFile(path.toStdString()); });
        QVERIFY2(std::string(empty.what()).find("is empty") != std::string::npos, empty.what());
    }
};

QTEST_GUILESS_MAIN(TestSweepPlan)
#include "test_SweepPlan.moc"
