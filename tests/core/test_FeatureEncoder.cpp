// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/Dataset.h"
#include "data/FeatureEncoder.h"
#include "data/TableLoader.h"
#include "io/InputError.h"

#include <QTest>

using gpumem::data::Dataset;
using gpumem::data::FeatureEncoder;

namespace {

Dataset jobsDataset()
{
    const auto table = gpumem::data::loadTableFromText(
        "batch,act,layers,memory\n"
        "32,relu,\"[('linear', 100, 1000), ('ReLU', 100, 0)]\",1500\n"
        "64,gelu,\"[('linear', 50, 500), ('dropout', 50, 0), ('linear', 10, 60)]\",1600\n"
        "16,relu,\"[('conv', 7, 9)]\",1700\n"
        "8,tanh,\"[('linear', 3, 4)]\",1800\n",
        "jobs.csv");
    gpumem::data::RoleRequest request;
    request.target = "memory";
    std::vector<std::string> warnings;
    return Dataset::fromTable(table, gpumem::data::assignRoles(table, request), gpumem::data::BadCellPolicy::Fail,
                              warnings);
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
        try {
            trained.transform(other);
            QFAIL("no error raised");
        } catch (const gpumem::io::InputError &error) {
            QCOMPARE(std::string(error.what()),
                     std::string("the data has no numeric column 'batch', which the model was trained with"));
        }
    }
};

QTEST_GUILESS_MAIN(TestFeatureEncoder)
#include "test_FeatureEncoder.moc"
