// SPDX-License-Identifier: GPL-3.0-or-later
// The files core writes for the commands from hand-built results: the comparison's
// out-of-fold CSV (`gpumem compare --predictions`) and the estimate's JSON
// (`gpumem estimate --json`), each checked against values worked out here.
#include "TestSupport.h"
#include "estimate/EstimateJson.h"
#include "report/OutOfFoldCsv.h"

#include <QTest>

#include <cmath>
#include <limits>

namespace {

constexpr std::uint64_t kMib = std::uint64_t{1} << 20;

// Four dataset rows from a file of six (rows 1 and 4 were left out), two models, the
// second calibrated; splits holds every repetition's folds in order.
gpumem::evaluation::ExperimentResult comparison(std::vector<gpumem::evaluation::Split> splits, int repeats)
{
    gpumem::evaluation::ExperimentResult result;
    result.splits = std::move(splits);
    result.repeats = repeats;
    result.actual = Eigen::Vector4d(9, 19, 29, 39);
    gpumem::evaluation::ModelResult tree;
    tree.name = "tree";
    tree.predictions = Eigen::Vector4d(10, 20, 30, 40);
    gpumem::evaluation::ModelResult ridge;
    ridge.name = "ridge";
    ridge.predictions = Eigen::Vector4d(11.5, 21, std::numeric_limits<double>::quiet_NaN(), 41);
    ridge.bound.emplace();
    ridge.bound->upperBounds = Eigen::Vector4d(12, 22, 32, 42.25);
    result.models = {tree, ridge};
    return result;
}

const std::vector<std::size_t> kUsableRows = {0, 2, 3, 5};

// A batch estimate whose sizes are whole or half MiB, so that each figure is exact.
gpumem::estimate::BatchEstimate batchEstimate(std::int64_t batch, std::uint64_t reservedMib)
{
    using gpumem::estimate::Category;
    gpumem::estimate::BatchEstimate estimate;
    estimate.batchSize = batch;
    estimate.peakAllocatedBytes = reservedMib * kMib - kMib / 2;
    estimate.peakReservedBytes = reservedMib * kMib;
    estimate.bytesAtPeak[static_cast<std::size_t>(Category::Parameters)] = 100 * kMib;
    estimate.bytesAtPeak[static_cast<std::size_t>(Category::Activations)] = (reservedMib - 300) * kMib;
    estimate.workspaceMib = 16;
    estimate.contextMib = 400;
    return estimate;
}

gpumem::estimate::EstimateResult estimateOfTwoBatches()
{
    gpumem::estimate::EstimateResult result;
    result.model.parameterBytes = 100 * kMib;
    result.model.parameterCount = 26214400;
    result.model.trainableParameterCount = 1000;
    result.profile.name = "T4";
    result.profile.capacityMib = 1000;
    result.estimates = {batchEstimate(8, 500), batchEstimate(16, 700)};
    result.extrapolated = true;
    result.tracedBatches = {1, 2};
    result.maxBatch = 12;
    result.notes = {"a note"};
    return result;
}

} // namespace

class TestWorkflowOutputs : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void outOfFoldCsvHasARowPerFileRow()
    {
        // Two repetitions of two folds: only the first repetition's folds name the rows.
        const auto result = comparison({{{1, 3}, {0, 2}}, {{0, 2}, {1, 3}}, {{0, 3}, {1, 2}}, {{1, 2}, {0, 3}}}, 2);
        QCOMPARE(gpumem::report::outOfFoldCsv(6, kUsableRows, result),
                 std::string("fold,actual,prediction_tree,prediction_ridge,upper_bound_ridge\n"
                             "1,9,10,11.5,12\n"
                             ",,,,\n"
                             "2,19,20,21,22\n"
                             "1,29,30,,32\n"
                             ",,,,\n"
                             "2,39,40,41,42.25\n"));
    }

    void outOfFoldCsvOfAHoldOutNamesTheTrainingRows()
    {
        auto result = comparison({{{0, 2}, {1, 3}}}, 1);
        result.models.pop_back(); // no calibrated model: no bound column
        QCOMPARE(gpumem::report::outOfFoldCsv(6, kUsableRows, result), std::string("fold,actual,prediction_tree\n"
                                                                                   "train,9,10\n"
                                                                                   ",,\n"
                                                                                   "1,19,20\n"
                                                                                   "train,29,30\n"
                                                                                   ",,\n"
                                                                                   "1,39,40\n"));
    }

    void estimateJsonOfATorchScriptModel()
    {
        gpumem::estimate::EstimateConfiguration configuration;
        configuration.modelPath = "cnn.pt";
        configuration.optimizer = "sgd";
        const auto json = gpumem::estimate::estimateJson(configuration, estimateOfTwoBatches(), true);
        QCOMPARE(json["model"].get<std::string>(), std::string("cnn.pt"));
        QCOMPARE(json["parameter_count"].get<std::int64_t>(), std::int64_t{26214400});
        QCOMPARE(json["parameter_mib"].get<double>(), 100.0);
        QCOMPARE(json["optimizer"].get<std::string>(), std::string("sgd"));
        QCOMPARE(json["gpu"]["name"].get<std::string>(), std::string("T4"));
        QCOMPARE(json["gpu"]["capacity_mib"].get<double>(), 1000.0);
        QCOMPARE(json["traced_batches"].size(), std::size_t{2});
        QCOMPARE(json["estimates"].size(), std::size_t{2});
        const auto &small = json["estimates"][0];
        QCOMPARE(small["batch_size"].get<std::int64_t>(), std::int64_t{8});
        QCOMPARE(small["peak_allocated_mib"].get<double>(), 499.5);
        QCOMPARE(small["peak_reserved_mib"].get<double>(), 500.0);
        // 500 reserved + 16 workspace + 400 context fits 1000 MiB; 700 + 416 does not.
        QCOMPARE(small["device_total_mib"].get<double>(), 916.0);
        QCOMPARE(small["fits"].get<bool>(), true);
        QCOMPARE(json["estimates"][1]["device_total_mib"].get<double>(), 1116.0);
        QCOMPARE(json["estimates"][1]["fits"].get<bool>(), false);
        QCOMPARE(small["breakdown"]["parameters_mib"].get<double>(), 100.0);
        QCOMPARE(small["breakdown"]["activations_mib"].get<double>(), 200.0);
        QCOMPARE(small["breakdown"]["gradients_mib"].get<double>(), 0.0);
        // Reserved less what the categories hold: 500 − 100 − 200.
        QCOMPARE(small["breakdown"]["allocator_overhead_mib"].get<double>(), 200.0);
        QCOMPARE(json["max_batch"].get<std::int64_t>(), std::int64_t{12});
        QCOMPARE(json["notes"][0].get<std::string>(), std::string("a note"));
        // A TorchScript model has no recipe, sequence or GPUs of its own.
        for (const char *key : {"seq_len", "recipe", "gpus", "max_seq_len", "trainable_parameter_count"})
            QVERIFY2(!json.contains(key), key);
        QVERIFY(!gpumem::estimate::estimateJson(configuration, estimateOfTwoBatches(), false).contains("max_batch"));
    }

    void estimateJsonOfALanguageModel()
    {
        gpumem::estimate::EstimateConfiguration configuration;
        configuration.architecture = "gpt2";
        configuration.sequenceLength = 256;
        configuration.loraRank = 8;
        configuration.loraTargets = {"c_attn"};
        configuration.gpus = 4;
        configuration.sharding = "zero3";
        gpumem::estimate::SearchAnswers answers;
        answers.maxSequenceLength = std::optional<std::int64_t>(1536);
        answers.minGpus = std::optional<std::int64_t>(); // asked, and nothing fits
        const auto json = gpumem::estimate::estimateJson(configuration, estimateOfTwoBatches(), false, answers);
        QCOMPARE(json["model"].get<std::string>(), std::string("gpt2"));
        QCOMPARE(json["trainable_parameter_count"].get<std::int64_t>(), std::int64_t{1000});
        QCOMPARE(json["seq_len"].get<std::int64_t>(), std::int64_t{256});
        QCOMPARE(json["recipe"]["mode"].get<std::string>(), std::string("training"));
        QCOMPARE(json["recipe"]["lora"]["rank"].get<std::int64_t>(), std::int64_t{8});
        QCOMPARE(json["recipe"]["lora"]["alpha"].get<double>(), 8.0); // no alpha given: the rank
        QVERIFY(json["recipe"]["autocast"].is_null());
        QVERIFY(!json["recipe"].contains("generate")); // training only
        QCOMPARE(json["gpus"].get<std::int64_t>(), std::int64_t{4});
        QCOMPARE(json["sharding"].get<std::string>(), std::string("zero3"));
        QCOMPARE(json["tensor_parallel"].get<std::int64_t>(), std::int64_t{1});
        QCOMPARE(json["max_seq_len"].get<std::int64_t>(), std::int64_t{1536});
        QVERIFY(json["min_gpus"].is_null());
        QVERIFY(!json.contains("max_batch"));
    }
};

QTEST_APPLESS_MAIN(TestWorkflowOutputs)
#include "test_WorkflowOutputs.moc"
