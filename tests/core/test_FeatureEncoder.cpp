// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"
#include "RaisedInputError.h"
#include "data/Dataset.h"
#include "data/FeatureEncoder.h"
#include "data/TableLoader.h"
#include "io/InputError.h"

#include <QTest>

#include <algorithm>

using gpumem::data::Dataset;
using gpumem::data::FeatureEncoder;

namespace {

Dataset jobsDataset()
{
    return gpumem::tests::baselineDataset(
        "batch,act,layers,memory\n"
        "32,relu,\"[('linear', 100, 1000), ('ReLU', 100, 0)]\",1500\n"
        "64,gelu,\"[('linear', 50, 500), ('dropout', 50, 0), ('linear', 10, 60)]\",1600\n"
        "16,relu,\"[('conv', 7, 9)]\",1700\n"
        "8,tanh,\"[('linear', 3, 4)]\",1800\n");
}

} // namespace

class TestFeatureEncoder : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void encodesWithTrainingVocabularyOnly()
    {
        const Dataset dataset = jobsDataset();
        FeatureEncoder encoder;
        // Rows 0 and 1 train: 'tanh' (row 3) and the 'conv' layer (row 2) are unseen.
        encoder.fit(dataset, {0, 1});
        // clang-format off
        const std::vector<std::string> names{"batch",          "act=relu",        "act=gelu",
                                             "layers.length",  "layers.count[linear]", "layers.count[ReLU]",
                                             "layers.count[dropout]", "layers.sum[1]", "layers.max[1]",
                                             "layers.sum[2]",  "layers.max[2]"};
        // clang-format on
        QCOMPARE(encoder.featureNames(), names);

        const Eigen::MatrixXd encoded = encoder.transform(dataset);
        QCOMPARE(encoded.rows(), Eigen::Index(4));
        QCOMPARE(encoded.cols(), Eigen::Index(names.size()));
        Eigen::MatrixXd expected(4, 11);
        // clang-format off
        // batch, relu, gelu, length, #linear, #ReLU, #dropout, sum1, max1, sum2, max2
        expected << 32, 1, 0, 2, 1, 1, 0, 200, 100, 1000, 1000,
                    64, 0, 1, 3, 2, 0, 1, 110, 50, 560, 500,
                    16, 1, 0, 1, 0, 0, 0, 7, 7, 9, 9,
                     8, 0, 0, 1, 1, 0, 0, 3, 3, 4, 4;
        // clang-format on
        QCOMPARE(encoded, expected);
    }

    // With a batch-size column beside the layers, the activations per sample (the
    // first field) are also encoded multiplied by the batch size: sum and maximum.
    void multipliesTheActivationsByTheBatchSize()
    {
        const Dataset dataset = gpumem::tests::baselineDataset("batch_size,layers,memory\n"
                                                               "32,\"[('linear', 100, 1000), ('ReLU', 100, 0)]\",1500\n"
                                                               "64,\"[('linear', 50, 500), ('linear', 10, 60)]\",1600\n"
                                                               "3,\"[('conv', 7, 9)]\",1700\n");
        FeatureEncoder encoder;
        encoder.fit(dataset, {0, 1, 2});
        QCOMPARE(encoder.encoding().batchColumn, std::string("batch_size"));
        const auto &names = encoder.featureNames();
        QCOMPARE(names.size(), std::size_t(11));
        QCOMPARE(names[9], std::string("layers.sum[1]*batch_size"));
        QCOMPARE(names[10], std::string("layers.max[1]*batch_size"));
        const Eigen::MatrixXd encoded = encoder.transform(dataset);
        // 32 × (100 + 100), 32 × 100; 64 × (50 + 10), 64 × 50; 3 × 7 twice.
        QCOMPARE(encoded.col(9), (Eigen::VectorXd(3) << 6400, 3840, 21).finished());
        QCOMPARE(encoded.col(10), (Eigen::VectorXd(3) << 3200, 3200, 21).finished());
        // The restored encoder (as a model folder keeps it) encodes the same.
        QCOMPARE(FeatureEncoder(encoder.encoding()).transform(dataset), encoded);
        // A column of another name ("batch") is not taken for the batch size.
        FeatureEncoder other;
        other.fit(jobsDataset(), {0, 1, 2, 3});
        QVERIFY(other.encoding().batchColumn.empty());
    }

    void refitForgetsThePreviousVocabulary()
    {
        const Dataset dataset = jobsDataset();
        FeatureEncoder encoder;
        encoder.fit(dataset, {0, 1, 2, 3});
        encoder.fit(dataset, {3});
        QCOMPARE(encoder.featureNames(),
                 (std::vector<std::string>{"batch", "act=tanh", "layers.length", "layers.count[linear]",
                                           "layers.sum[1]", "layers.max[1]", "layers.sum[2]", "layers.max[2]"}));
        QCOMPARE(encoder.transform(dataset).row(3), (Eigen::RowVectorXd(8) << 8, 1, 1, 1, 3, 3, 4, 4).finished());
    }

    void restoredEncoderMatchesCategoriesByName()
    {
        FeatureEncoder trained;
        trained.fit(jobsDataset(), {0, 1, 2, 3});
        // Another file lists the categories and layer types in another order, and adds unseen ones.
        const auto table = gpumem::data::loadTableFromText("memory,layers,act,batch\n"
                                                           "1,\"[('ReLU', 2, 0), ('linear', 5, 50)]\",gelu,4\n"
                                                           "2,\"[('pool', 1, 1)]\",swish,2\n",
                                                           "other.csv");
        // Roles come from the model, not from inference: two unique strings would read as an identifier.
        gpumem::data::RoleRequest request;
        request.target = "memory";
        request.features = {"batch", "act"};
        request.sequenceColumn = "layers";
        std::vector<std::string> warnings;
        const Dataset other = Dataset::fromTable(table, gpumem::data::assignRoles(table, request),
                                                 gpumem::data::BadCellPolicy::Fail, warnings);
        const FeatureEncoder restored(trained.encoding());
        QCOMPARE(restored.featureNames(), trained.featureNames());
        const Eigen::MatrixXd encoded = restored.transform(other);
        // batch, relu, gelu, tanh, length, #linear, #ReLU, #dropout, #conv, sum1, max1, sum2, max2
        const Eigen::RowVectorXd first = (Eigen::RowVectorXd(13) << 4, 0, 1, 0, 2, 1, 1, 0, 0, 7, 5, 50, 50).finished();
        const Eigen::RowVectorXd second = (Eigen::RowVectorXd(13) << 2, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 1).finished();
        QCOMPARE(encoded.row(0), first);
        QCOMPARE(encoded.row(1), second);
    }

    void restoredEncoderRefusesMissingColumns()
    {
        FeatureEncoder trained;
        trained.fit(jobsDataset(), {0, 1});
        const auto table = gpumem::data::loadTableFromText("memory,act\n1,relu\n2,gelu\n", "other.csv");
        std::vector<std::string> warnings;
        const Dataset other =
            Dataset::fromTable(table, gpumem::data::defaultRoles(table), gpumem::data::BadCellPolicy::Fail, warnings);
        const auto error = gpumem::tests::raisedInputError([&] { trained.transform(other); });
        QCOMPARE(std::string(error.what()),
                 std::string("the data has no numeric column 'batch', which the model was trained with"));
    }

    // Extrapolation: the encoder keeps each feature's range over the training rows, and
    // a job beyond a range or with an unseen category is named, with the values.
    void rangesComeFromTheTrainingRowsOnly()
    {
        const Dataset dataset = jobsDataset();
        FeatureEncoder encoder;
        encoder.fit(dataset, {0, 1});
        const auto &ranges = encoder.encoding().ranges;
        QCOMPARE(ranges.size(), encoder.featureNames().size());
        // batch over rows 0 and 1: 32 and 64 (rows 2 and 3 are held out).
        QCOMPARE(ranges[0].minimum, 32.0);
        QCOMPARE(ranges[0].maximum, 64.0);
        // layers.length: 2 and 3 layers.
        const auto length = std::find(encoder.featureNames().begin(), encoder.featureNames().end(), "layers.length") -
                            encoder.featureNames().begin();
        QCOMPARE(ranges[static_cast<std::size_t>(length)].minimum, 2.0);
        QCOMPARE(ranges[static_cast<std::size_t>(length)].maximum, 3.0);
    }

    void trainingRowsNeverExtrapolate()
    {
        const Dataset dataset = jobsDataset();
        FeatureEncoder encoder;
        encoder.fit(dataset, {0, 1, 2, 3});
        const auto found = encoder.extrapolations(dataset, encoder.transform(dataset));
        QCOMPARE(found.size(), std::size_t{4});
        for (const auto &row : found)
            QVERIFY(row.empty());
    }

    void namesValuesBeyondTheRangesAndUnseenCategories()
    {
        const Dataset dataset = jobsDataset();
        FeatureEncoder encoder;
        encoder.fit(dataset, {0, 1});
        const auto found = encoder.extrapolations(dataset, encoder.transform(dataset));
        QVERIFY(found[0].empty());
        QVERIFY(found[1].empty());
        // Row 2: batch 16 below 32, one layer below 2.
        const auto &below = found[2];
        QVERIFY(std::any_of(below.begin(), below.end(), [](const auto &e) {
            return e.feature == "batch" && e.value == 16.0 && e.range.minimum == 32.0;
        }));
        QVERIFY(std::any_of(below.begin(), below.end(), [](const auto &e) { return e.feature == "layers.length"; }));
        // Row 3: batch 8 below 32, and the activation 'tanh' no training row had.
        const auto &row3 = found[3];
        const auto batch = std::find_if(row3.begin(), row3.end(), [](const auto &e) { return e.feature == "batch"; });
        QVERIFY(batch != row3.end());
        QCOMPARE(gpumem::data::describeExtrapolation(*batch), std::string("batch 8 < 32 (trained 32 to 64)"));
        const auto unseen = std::find_if(row3.begin(), row3.end(), [](const auto &e) { return e.feature == "act"; });
        QVERIFY(unseen != row3.end());
        QCOMPARE(unseen->category, std::string("tanh"));
        QCOMPARE(gpumem::data::describeExtrapolation(*unseen), std::string("act 'tanh' unseen in training"));
        // Trained on the small batches (rows 2 and 3: 16 and 8), row 1's 64 lies above.
        FeatureEncoder small;
        small.fit(dataset, {2, 3});
        const auto beyondSmall = small.extrapolations(dataset, small.transform(dataset));
        const auto &row1 = beyondSmall[1];
        const auto large = std::find_if(row1.begin(), row1.end(), [](const auto &e) { return e.feature == "batch"; });
        QVERIFY(large != row1.end());
        QCOMPARE(gpumem::data::describeExtrapolation(*large), std::string("batch 64 > 16 (trained 8 to 16)"));
    }

    void anEncoderWithoutRangesFindsNothing()
    {
        // A model folder saved before ranges were kept restores an encoding without them.
        const Dataset dataset = jobsDataset();
        FeatureEncoder fitted;
        fitted.fit(dataset, {0, 1});
        gpumem::data::FeatureEncoding old = fitted.encoding();
        old.ranges.clear();
        const FeatureEncoder restored(old);
        const auto found = restored.extrapolations(dataset, restored.transform(dataset));
        for (const auto &row : found)
            QVERIFY(row.empty());
    }
};

QTEST_GUILESS_MAIN(TestFeatureEncoder)
#include "test_FeatureEncoder.moc"
