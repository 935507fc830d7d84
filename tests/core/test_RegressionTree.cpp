// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"

#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonWriter.h"
#include "models/RegressionTree.h"

#include <QTest>

#include <sstream>

using gpumem::models::RegressionTree;
using gpumem::models::RegressionTreeOptions;

namespace {

using gpumem::tests::vectorOf;

Eigen::MatrixXd column(std::initializer_list<double> values)
{
    Eigen::MatrixXd matrix(static_cast<Eigen::Index>(values.size()), 1);
    Eigen::Index row = 0;
    for (const double value : values)
        matrix(row++, 0) = value;
    return matrix;
}

std::vector<Eigen::Index> allOf(const Eigen::MatrixXd &features)
{
    std::vector<Eigen::Index> rows;
    for (Eigen::Index row = 0; row < features.rows(); ++row)
        rows.push_back(row);
    return rows;
}

RegressionTree fitted(const Eigen::MatrixXd &features, const Eigen::VectorXd &target, RegressionTreeOptions options,
                      std::vector<double> weights = {})
{
    if (weights.empty())
        weights.assign(static_cast<std::size_t>(features.rows()), 1.0);
    RegressionTree tree;
    tree.fit(features, target, allOf(features), weights, options);
    return tree;
}

RegressionTreeOptions depth(int maxDepth)
{
    RegressionTreeOptions options;
    options.maxDepth = maxDepth;
    return options;
}

std::string jsonOf(const RegressionTree &tree)
{
    std::ostringstream out;
    gpumem::io::JsonWriter json(out);
    json.value(gpumem::io::Json(tree));
    return out.str();
}

} // namespace

class TestRegressionTree : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void stumpTakesTheBestSplitAndMeanLeaves()
    {
        // x = 1 2 3 4, y = 1 2 10 11. Squared error of the children per cut:
        // after 1: 0 + (5.67² + 2.33² + 3.33²) = 48.7; after 2: 0.5 + 0.5 = 1;
        // after 3: (4.33² + 3.33² + 5.67²) + 0 = 54.7. Best: between 2 and 3,
        // threshold 2.5, leaves 1.5 and 10.5.
        const RegressionTree tree = fitted(column({1, 2, 3, 4}), vectorOf({1, 2, 10, 11}), depth(1));
        QCOMPARE(tree.nodeCount(), std::size_t{3});
        QCOMPARE(tree.feature()[0], 0);
        QCOMPARE(tree.threshold()[0], 2.5);
        QCOMPARE(tree.value()[static_cast<std::size_t>(tree.left()[0])], 1.5);
        QCOMPARE(tree.value()[static_cast<std::size_t>(tree.right()[0])], 10.5);
        QCOMPARE(tree.value()[0], 6.0); // the root holds the mean of all rows
        QCOMPARE(tree.predict(column({0, 2.5, 2.6, 100})), vectorOf({1.5, 1.5, 10.5, 10.5}));
    }

    void picksTheInformativeFeature()
    {
        // Column 0 is in a different order than the target, column 1 separates it perfectly.
        Eigen::MatrixXd features(4, 2);
        features << 4, 10, 1, 20, 3, 30, 2, 40;
        const RegressionTree tree = fitted(features, vectorOf({5, 5, 9, 9}), depth(1));
        QCOMPARE(tree.feature()[0], 1);
        QCOMPARE(tree.threshold()[0], 25.0);
    }

    void weightsMoveTheSplitAndTheLeafValues()
    {
        // x = 1 2 3, y = 0 6 10. Unweighted, cutting after 1 leaves {6, 10}
        // (error 8) and cutting after 2 leaves {0, 6} (error 18): threshold 1.5.
        const Eigen::MatrixXd features = column({1, 2, 3});
        const Eigen::VectorXd target = vectorOf({0, 6, 10});
        QCOMPARE(fitted(features, target, depth(1)).threshold()[0], 1.5);
        // Weights 0.1, 1, 1: the weighted error of {6, 10} is 1·1/2·16 = 8, of
        // {0 (0.1), 6 (1)} is 0.1·1/1.1·36 = 3.27, so the cut moves to 2.5; the
        // left leaf is the weighted mean (0·0.1 + 6·1) / 1.1 = 5.4545…
        const RegressionTree tree = fitted(features, target, depth(1), {0.1, 1.0, 1.0});
        QCOMPARE(tree.threshold()[0], 2.5);
        QVERIFY(std::abs(tree.value()[static_cast<std::size_t>(tree.left()[0])] - 6.0 / 1.1) < 1e-12);
        QCOMPARE(tree.value()[static_cast<std::size_t>(tree.right()[0])], 10.0);
    }

    void integerWeightsEqualRepeatedSamples()
    {
        Eigen::MatrixXd features(6, 2);
        features << 1, 7, 2, 3, 3, 9, 4, 1, 5, 5, 6, 2;
        const Eigen::VectorXd target = vectorOf({3, 8, 1, 9, 4, 7});
        RegressionTree weighted;
        weighted.fit(features, target, {0, 1, 2, 3, 4, 5}, {2, 1, 3, 1, 0, 1}, {});
        RegressionTree repeated;
        repeated.fit(features, target, {0, 0, 1, 2, 2, 2, 3, 5}, std::vector<double>(8, 1.0), {});
        QCOMPARE(weighted.predict(features), repeated.predict(features));
        QCOMPARE(jsonOf(weighted), jsonOf(repeated));
    }

    void minSamplesLeafForbidsSmallLeaves()
    {
        // y = 0 10 10 10: the best cut isolates the 0 (threshold 1.5). With two
        // rows per leaf only the cut at 2.5 is allowed: leaves mean(0, 10) = 5 and 10.
        const Eigen::MatrixXd features = column({1, 2, 3, 4});
        const Eigen::VectorXd target = vectorOf({0, 10, 10, 10});
        QCOMPARE(fitted(features, target, {}).threshold()[0], 1.5);
        RegressionTreeOptions options;
        options.minSamplesLeaf = 2;
        const RegressionTree tree = fitted(features, target, options);
        QCOMPARE(tree.nodeCount(), std::size_t{3});
        QCOMPARE(tree.threshold()[0], 2.5);
        QCOMPARE(tree.predict(features), vectorOf({5, 5, 10, 10}));
    }

    void minSamplesSplitStopsSmallNodes()
    {
        RegressionTreeOptions options;
        options.minSamplesSplit = 5;
        QCOMPARE(fitted(column({1, 2, 3, 4}), vectorOf({1, 2, 10, 11}), options).nodeCount(), std::size_t{1});
    }

    void maxDepthLimitsTheLevels()
    {
        // y = x for x = 1..8: the halves are cut at 4.5, then at 2.5 and 6.5,
        // leaving pairs with means 1.5, 3.5, 5.5, 7.5. Unlimited, every row gets a leaf.
        const Eigen::MatrixXd features = column({1, 2, 3, 4, 5, 6, 7, 8});
        const Eigen::VectorXd target = vectorOf({1, 2, 3, 4, 5, 6, 7, 8});
        const RegressionTree shallow = fitted(features, target, depth(2));
        QCOMPARE(shallow.depth(), 2);
        QCOMPARE(shallow.threshold()[0], 4.5);
        QCOMPARE(shallow.predict(features), vectorOf({1.5, 1.5, 3.5, 3.5, 5.5, 5.5, 7.5, 7.5}));
        const RegressionTree full = fitted(features, target, {});
        QCOMPARE(full.depth(), 3);
        QCOMPARE(full.nodeCount(), std::size_t{15});
        QCOMPARE(full.predict(features), target);
    }

    void pureOrConstantNodesStayLeaves()
    {
        QCOMPARE(fitted(column({1, 2, 3}), vectorOf({4, 4, 4}), {}).nodeCount(), std::size_t{1});
        // Equal feature values cannot be separated: the leaf holds their mean.
        const RegressionTree tree = fitted(column({2, 2, 2}), vectorOf({1, 2, 6}), {});
        QCOMPARE(tree.nodeCount(), std::size_t{1});
        QCOMPARE(tree.value()[0], 3.0);
    }

    void featureSubsetsFollowTheSeed()
    {
        Eigen::MatrixXd features(8, 3);
        features << 1, 8, 3, 2, 7, 1, 3, 6, 4, 4, 5, 1, 5, 4, 5, 6, 3, 9, 7, 2, 2, 8, 1, 6;
        const Eigen::VectorXd target = vectorOf({1, 4, 2, 8, 5, 7, 3, 6});
        RegressionTreeOptions options;
        options.maxFeatures = 1;
        options.seed = 11;
        QCOMPARE(jsonOf(fitted(features, target, options)), jsonOf(fitted(features, target, options)));
        // Whatever features it draws, a fully grown tree still fits distinct rows exactly.
        QCOMPARE(fitted(features, target, options).predict(features), target);
    }

    void jsonRoundTripKeepsPredictions()
    {
        Eigen::MatrixXd features(6, 2);
        features << 0.1, 7, 0.2, 3, 0.3, 9, 0.4, 1, 0.5, 5, 0.6, 2;
        const Eigen::VectorXd target = vectorOf({3.3, 8.1, 1.7, 9.9, 4.2, 7.0});
        const RegressionTree tree = fitted(features, target, depth(2));
        const RegressionTree copy = RegressionTree::read(gpumem::io::parseJson(jsonOf(tree), "tree.json"));
        QCOMPARE(copy.predict(features), tree.predict(features));
        QCOMPARE(jsonOf(copy), jsonOf(tree));
    }

    void malformedJsonIsAnInputError()
    {
        const char *cases[] = {
            "{}",
            "{'features': 1, 'feature': [0], 'threshold': [1], 'left': [1], 'right': [2], 'value': [1]}",
            "{'features': 1, 'feature': [0, -1, -1], 'threshold': [1, 0, 0], 'left': [0, -1, -1], "
            "'right': [2, -1, -1], 'value': [1, 2, 3]}",
            "{'features': 1, 'feature': [3, -1, -1], 'threshold': [1, 0, 0], 'left': [1, -1, -1], "
            "'right': [2, -1, -1], 'value': [1, 2, 3]}",
            "{'features': 1, 'feature': [-1], 'threshold': [0], 'left': [-1], 'right': [-1], 'value': ['x']}",
            "{'features': 1.5, 'feature': [-1], 'threshold': [0], 'left': [-1], 'right': [-1], 'value': [1]}",
            "{'features': 1, 'feature': [], 'threshold': [], 'left': [], 'right': [], 'value': []}",
        };
        for (const char *text : cases) {
            std::string json = text;
            for (char &character : json)
                character = character == '\'' ? '"' : character;
            QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError,
                                     RegressionTree::read(gpumem::io::parseJson(json, "tree.json")));
        }
    }

    void predictChecksTheFeatureCount()
    {
        const RegressionTree tree = fitted(column({1, 2, 3, 4}), vectorOf({1, 2, 10, 11}), depth(1));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, tree.predict(Eigen::MatrixXd::Zero(2, 3)));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, RegressionTree().predict(Eigen::MatrixXd::Zero(2, 1)));
    }
};

QTEST_APPLESS_MAIN(TestRegressionTree)
#include "test_RegressionTree.moc"
