// SPDX-License-Identifier: GPL-3.0-or-later
// Partial dependence: its grid (the data's range and as far again beyond), its
// curve computed by hand for a known linear predictor, a fitted linear model's
// slope, and a tree that stays flat past the largest value it was trained on.
#include "ExplanationData.h"

#include "evaluation/Experiment.h"
#include "evaluation/InputEditor.h"
#include "evaluation/PartialDependence.h"
#include "models/RegressorRegistry.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

using namespace gpumem;
using gpumem::tests::numericColumn;

namespace {

// y = 3·a − 2·b + 100 with a in 0..6 and b in 0..10, and an optimizer column that does not matter.
std::unique_ptr<gpumem::tests::LoadedTable> linearData(int rows)
{
    std::string text = "a,b,optimizer,y\n";
    for (int row = 0; row < rows; ++row) {
        const int a = row % 7;
        const int b = (row * 3) % 11;
        text += std::to_string(a) + ',' + std::to_string(b) + (row % 2 ? ",adam," : ",sgd,") +
                std::to_string(3 * a - 2 * b + 100) + '\n';
    }
    return gpumem::tests::loadedTable(text, "linear.csv");
}

} // namespace

class TestPartialDependence : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void gridsReachTwiceTheLargestValue()
    {
        const auto linear = linearData(30);
        const evaluation::InputEditor editor(linear->table, linear->roles, linear->usable);
        const auto grids = evaluation::partialDependenceGrids(editor, 25);
        // Only the numeric inputs: a and b, not the optimizer.
        QCOMPARE(grids.size(), std::size_t{2});
        QCOMPARE(grids[0].input, std::string("a"));
        QCOMPARE(grids[0].trainingMinimum, 0.0);
        QCOMPARE(grids[0].trainingMaximum, 6.0);
        QCOMPARE(grids[0].values.size(), std::size_t{25});
        QCOMPARE(grids[0].values.front(), 0.0);
        QCOMPARE(grids[0].values.back(), 12.0);
        QCOMPARE(grids[0].values[1], 0.5);
        QCOMPARE(grids[1].input, std::string("b"));
        QCOMPARE(grids[1].inputIndex, std::size_t{1});
        QCOMPARE(grids[1].values.back(), 20.0);
    }

    void rowsAreSeededAndSorted()
    {
        const auto rows = evaluation::partialDependenceRows(50, 10, 9);
        QCOMPARE(rows.size(), std::size_t{10});
        QVERIFY(std::is_sorted(rows.begin(), rows.end()));
        QCOMPARE(rows, evaluation::partialDependenceRows(50, 10, 9));
        QVERIFY(rows != evaluation::partialDependenceRows(50, 10, 10));
        QCOMPARE(evaluation::partialDependenceRows(5, 10, 9).size(), std::size_t{5});
    }

    // f = 3·a − 2·b: at each value v of a the mean over rows is 3·v − 2·mean(b), computed by hand.
    void aKnownLinearPredictorGivesItsLine()
    {
        const auto linear = linearData(30);
        const evaluation::InputEditor editor(linear->table, linear->roles, linear->usable);
        const evaluation::DatasetPredictor predict = [](const data::Dataset &rows) {
            return Eigen::VectorXd(3.0 * numericColumn(rows, "a") - 2.0 * numericColumn(rows, "b"));
        };
        const std::vector<Eigen::Index> rows{2, 5, 11, 17};
        const auto grid = evaluation::partialDependenceGrids(editor, 5).front();
        const std::vector<double> curve = evaluation::partialDependence(predict, editor, rows, grid);
        double meanB = 0.0;
        for (Eigen::Index row : rows)
            meanB += static_cast<double>((row * 3) % 11) / 4.0;
        QCOMPARE(curve.size(), std::size_t{5});
        for (std::size_t point = 0; point < 5; ++point)
            QVERIFY(std::abs(curve[point] - (3.0 * grid.values[point] - 2.0 * meanB)) < 1e-9);
    }

    // A fitted linear model's partial dependence is a line of its slope, beyond the data too; a tree's
    // is flat past the largest value it saw. Measured by the experiment, on every fold.
    void linearModelRisesWhileATreeFlattens()
    {
        const auto linear = linearData(70);
        const data::Dataset dataset = data::Dataset::fromTable(linear->table, linear->roles, linear->usable);
        evaluation::ExperimentSettings settings;
        models::Hyperparameters ridge = models::regressorHyperparameters("ridge");
        ridge.setAssignment("alpha=0.0001");
        settings.models = {{"ridge", ridge}, {"decision_tree", models::regressorHyperparameters("decision_tree")}};
        settings.folds = 2;
        settings.explanation.emplace();
        settings.explanation->inputs =
            std::make_shared<const evaluation::InputEditor>(linear->table, linear->roles, linear->usable);
        settings.explanation->gridPoints = 13; // a step of 1 from 0 to 12
        const evaluation::ExperimentResult result = evaluation::runExperiment(dataset, settings);
        const evaluation::PartialDependenceGrid &grid = result.partialDependenceGrids.front();
        QCOMPARE(grid.values[1], 1.0);
        const auto &ridgeCurve = result.models[0].partialDependence.front();
        QCOMPARE(ridgeCurve.input, std::string("a"));
        for (std::size_t point = 1; point < grid.values.size(); ++point)
            QVERIFY2(std::abs(ridgeCurve.mean[point] - ridgeCurve.mean[point - 1] - 3.0) < 0.01,
                     qPrintable(QString::number(ridgeCurve.mean[point] - ridgeCurve.mean[point - 1])));
        // Two folds, each a curve: their spread is set per value.
        QCOMPARE(ridgeCurve.standardDeviation.size(), grid.values.size());
        const auto &treeCurve = result.models[1].partialDependence.front();
        for (std::size_t point = 7; point < grid.values.size(); ++point)
            QCOMPARE(treeCurve.mean[point], treeCurve.mean[6]);
        QVERIFY(treeCurve.mean[6] > treeCurve.mean[0] + 10.0);
    }

    void poolsTheFoldsCurves()
    {
        evaluation::PartialDependenceGrid grid;
        grid.input = "a";
        grid.values = {0.0, 1.0};
        const auto curves = evaluation::summarisePartialDependence({grid}, {{{1.0, 2.0}}, {{3.0, 6.0}}, {}});
        QCOMPARE(curves.size(), std::size_t{1});
        QCOMPARE(curves[0].mean, (std::vector<double>{2.0, 4.0}));
        QVERIFY(std::abs(curves[0].standardDeviation[0] - std::sqrt(2.0)) < 1e-12);
        QVERIFY(std::abs(curves[0].standardDeviation[1] - std::sqrt(8.0)) < 1e-12);
    }
};

QTEST_GUILESS_MAIN(TestPartialDependence)
#include "test_PartialDependence.moc"
