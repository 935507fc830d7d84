// SPDX-License-Identifier: GPL-3.0-or-later
// Extrapolation: the encoder keeps each feature's range over the training rows,
// and a job beyond a range or with an unseen category is named, with the values.
#include "data/Dataset.h"
#include "data/FeatureEncoder.h"
#include "data/TableLoader.h"

#include <QTest>

#include <algorithm>

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
        "128,tanh,\"[('linear', 3, 4)]\",1800\n",
        "jobs.csv");
    gpumem::data::RoleRequest request;
    request.target = "memory";
    std::vector<std::string> warnings;
    return Dataset::fromTable(table, gpumem::data::assignRoles(table, request), gpumem::data::BadCellPolicy::Fail,
                              warnings);
}

} // namespace

class TestExtrapolation : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void rangesComeFromTheTrainingRowsOnly()
    {
        const Dataset dataset = jobsDataset();
        FeatureEncoder encoder;
        encoder.fit(dataset, {0, 1});
        const auto &ranges = encoder.encoding().ranges;
        QCOMPARE(ranges.size(), encoder.featureNames().size());
        // batch over rows 0 and 1: 32 and 64 (row 3's 128 is held out).
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
        // Row 3: batch 128 above 64, and the activation 'tanh' no training row had.
        const auto &above = found[3];
        const auto batch = std::find_if(above.begin(), above.end(), [](const auto &e) { return e.feature == "batch"; });
        QVERIFY(batch != above.end());
        QCOMPARE(gpumem::data::describeExtrapolation(*batch), std::string("batch 128 > 64 (trained 32 to 64)"));
        const auto unseen = std::find_if(above.begin(), above.end(), [](const auto &e) { return e.feature == "act"; });
        QVERIFY(unseen != above.end());
        QCOMPARE(unseen->category, std::string("tanh"));
        QCOMPARE(gpumem::data::describeExtrapolation(*unseen), std::string("act 'tanh' unseen in training"));
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

QTEST_GUILESS_MAIN(TestExtrapolation)
#include "test_Extrapolation.moc"
