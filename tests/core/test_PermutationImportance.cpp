// SPDX-License-Identifier: GPL-3.0-or-later
// Permutation importance: scores computed by hand on a tiny table for predictors
// whose dependence is known (one numeric column, a categorical column's one-hot
// group, the layer sequence), their pooling, and the experiment that measures
// them for every model on the same shuffles.
#include "ExplanationData.h"

#include "data/SeededRandom.h"
#include "evaluation/Experiment.h"
#include "evaluation/InputEditor.h"
#include "evaluation/PermutationImportance.h"
#include "models/RegressorRegistry.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace gpumem;
using gpumem::tests::numericColumn;

namespace {

// Eight jobs: a and b numeric, c categorical, layers a sequence of 1 to 3 layers, y = 3·a.
const char *const tinyCsv = "a,b,c,layers,y\n"
                            "1,5,x,\"[('linear', 4, 20)]\",3\n"
                            "2,1,y,\"[('linear', 4, 20), ('ReLU', 4, 0)]\",6\n"
                            "4,7,x,\"[('linear', 4, 20)]\",12\n"
                            "3,2,z,\"[('linear', 4, 20), ('ReLU', 4, 0), ('linear', 2, 10)]\",9\n"
                            "6,9,y,\"[('linear', 4, 20)]\",18\n"
                            "5,3,x,\"[('linear', 4, 20), ('ReLU', 4, 0)]\",15\n"
                            "8,4,z,\"[('linear', 4, 20), ('ReLU', 4, 0), ('linear', 2, 10)]\",24\n"
                            "7,6,y,\"[('linear', 4, 20)]\",21\n";
const double columnA[] = {1, 2, 4, 3, 6, 5, 8, 7};
const char *const columnC[] = {"x", "y", "x", "z", "y", "x", "z", "y"};
const int layerCounts[] = {1, 2, 1, 3, 1, 2, 3, 1};

std::unique_ptr<gpumem::tests::LoadedTable> tinyData(const std::string &text)
{
    return gpumem::tests::loadedTable(text, "tiny.csv");
}

// The RMSE increase of predictions value[order[i]] against value[i] over rows, as a shuffle gives it for a
// predictor that reads only that value and predicts the target exactly: the importance computed by hand.
double shuffledRmse(const std::vector<Eigen::Index> &rows, std::uint64_t seed, const std::function<double(int)> &value)
{
    const auto order = data::shuffledRows(static_cast<Eigen::Index>(rows.size()), seed);
    double squares = 0.0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double error =
            value(static_cast<int>(rows[static_cast<std::size_t>(order[i])])) - value(static_cast<int>(rows[i]));
        squares += error * error;
    }
    return std::sqrt(squares / static_cast<double>(rows.size()));
}

} // namespace

class TestPermutationImportance : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void inputsAreTheFilesColumns()
    {
        const auto tiny = tinyData(tinyCsv);
        const evaluation::InputEditor editor(tiny->table, tiny->roles, tiny->usable);
        QCOMPARE(editor.inputs().size(), std::size_t{4});
        QCOMPARE(editor.inputs()[0].name, std::string("a"));
        QCOMPARE(editor.inputs()[2].type, data::ColumnType::Categorical);
        QCOMPARE(editor.inputs()[3].type, data::ColumnType::Sequence);
        QCOMPARE(editor.numericInputs(), (std::vector<std::size_t>{0, 1}));
        QCOMPARE(editor.range(0), std::make_pair(1.0, 8.0));
        // Rows rebuilt with a donor's cell: only that input changes.
        const data::Dataset swapped = editor.withInputFrom({0, 1}, 0, {1, 0});
        QCOMPARE(numericColumn(swapped, "a")[0], 2.0);
        QCOMPARE(numericColumn(swapped, "b")[0], 5.0);
        QCOMPARE(swapped.target()[0], 3.0);
        QCOMPARE(swapped.rowLines()[0], std::int64_t{2});
    }

    // A model of y = 3·a: only a matters, and a's score is the RMSE its shuffles cause, computed by hand.
    void onlyTheUsedNumericColumnMatters()
    {
        const auto tiny = tinyData(tinyCsv);
        const evaluation::InputEditor editor(tiny->table, tiny->roles, tiny->usable);
        const evaluation::DatasetPredictor threeA = [](const data::Dataset &rows) {
            return Eigen::VectorXd(3.0 * numericColumn(rows, "a"));
        };
        const std::vector<Eigen::Index> rows{0, 2, 3, 5, 6, 7};
        const int fold = 1;
        const auto scores = evaluation::permutationImportance(threeA, editor, rows, 3, 42, fold);
        QCOMPARE(scores.size(), std::size_t{4});
        for (int repeat = 0; repeat < 3; ++repeat) {
            const double expected = shuffledRmse(rows, evaluation::permutationSeed(42, fold, 0, repeat),
                                                 [](int row) { return 3.0 * columnA[row]; });
            QVERIFY(std::abs(scores[0][static_cast<std::size_t>(repeat)] - expected) < 1e-12);
            for (std::size_t input = 1; input < 4; ++input)
                QCOMPARE(scores[input][static_cast<std::size_t>(repeat)], 0.0);
        }
        QVERIFY(scores[0][0] > 0.0);
        // Every model gets the same shuffles, other folds and repeats others.
        QVERIFY(evaluation::permutationSeed(42, 1, 0, 0) != evaluation::permutationSeed(42, 2, 0, 0));
        QVERIFY(evaluation::permutationSeed(42, 1, 0, 0) != evaluation::permutationSeed(42, 1, 1, 0));
        QVERIFY(evaluation::permutationSeed(42, 1, 0, 0) != evaluation::permutationSeed(42, 1, 0, 1));
    }

    // A categorical column is shuffled as a whole: its one-hot group moves together.
    void aCategoricalColumnIsOneInput()
    {
        const auto tiny = tinyData(tinyCsv);
        const evaluation::InputEditor editor(tiny->table, tiny->roles, tiny->usable);
        // 10 for "x", 0 otherwise, whatever order the dataset numbers the categories in.
        const evaluation::DatasetPredictor isX = [](const data::Dataset &rows) {
            const data::CategoricalFeature &c = rows.categoricalFeatures().front();
            Eigen::VectorXd predicted(static_cast<Eigen::Index>(c.codes.size()));
            for (std::size_t row = 0; row < c.codes.size(); ++row)
                predicted[static_cast<Eigen::Index>(row)] =
                    c.categories[static_cast<std::size_t>(c.codes[row])] == "x" ? 10.0 : 0.0;
            return predicted;
        };
        const std::vector<Eigen::Index> rows{0, 1, 2, 3, 4, 5, 6, 7};
        const auto scores = evaluation::permutationImportance(isX, editor, rows, 2, 7, 0);
        // The baseline's error is the same for every shuffle: RMSE of isX against y.
        double baseline = 0.0;
        for (int row = 0; row < 8; ++row)
            baseline += std::pow((std::string(columnC[row]) == "x" ? 10.0 : 0.0) - 3.0 * columnA[row], 2);
        baseline = std::sqrt(baseline / 8.0);
        for (int repeat = 0; repeat < 2; ++repeat) {
            const auto order = data::shuffledRows(8, evaluation::permutationSeed(7, 0, 2, repeat));
            double shuffled = 0.0;
            for (int row = 0; row < 8; ++row)
                shuffled += std::pow((std::string(columnC[order[static_cast<std::size_t>(row)]]) == "x" ? 10.0 : 0.0) -
                                         3.0 * columnA[row],
                                     2);
            shuffled = std::sqrt(shuffled / 8.0);
            QVERIFY(std::abs(scores[2][static_cast<std::size_t>(repeat)] - (shuffled - baseline)) < 1e-12);
            QCOMPARE(scores[0][static_cast<std::size_t>(repeat)], 0.0);
            QCOMPARE(scores[3][static_cast<std::size_t>(repeat)], 0.0);
        }
    }

    // The layer sequence is one input: its rows' sequences are shuffled whole.
    void theSequenceIsOneInput()
    {
        const auto tiny = tinyData(tinyCsv);
        const evaluation::InputEditor editor(tiny->table, tiny->roles, tiny->usable);
        const evaluation::DatasetPredictor layers = [](const data::Dataset &rows) {
            Eigen::VectorXd predicted(static_cast<Eigen::Index>(rows.rowCount()));
            for (std::size_t row = 0; row < rows.rowCount(); ++row)
                predicted[static_cast<Eigen::Index>(row)] = 3.0 * static_cast<double>(rows.sequence().layerCount(row));
            return predicted;
        };
        const std::vector<Eigen::Index> rows{1, 3, 4, 6};
        const auto scores = evaluation::permutationImportance(layers, editor, rows, 2, 3, 4);
        double baseline = 0.0;
        for (Eigen::Index row : rows)
            baseline += std::pow(3.0 * layerCounts[row] - 3.0 * columnA[row], 2);
        baseline = std::sqrt(baseline / 4.0);
        for (int repeat = 0; repeat < 2; ++repeat) {
            const auto order = data::shuffledRows(4, evaluation::permutationSeed(3, 4, 3, repeat));
            double shuffled = 0.0;
            for (std::size_t i = 0; i < rows.size(); ++i)
                shuffled +=
                    std::pow(3.0 * layerCounts[rows[static_cast<std::size_t>(order[i])]] - 3.0 * columnA[rows[i]], 2);
            shuffled = std::sqrt(shuffled / 4.0);
            QVERIFY(std::abs(scores[3][static_cast<std::size_t>(repeat)] - (shuffled - baseline)) < 1e-12);
            QCOMPARE(scores[1][static_cast<std::size_t>(repeat)], 0.0);
        }
    }

    void cancelledReturnsNothing()
    {
        const auto tiny = tinyData(tinyCsv);
        const evaluation::InputEditor editor(tiny->table, tiny->roles, tiny->usable);
        const evaluation::DatasetPredictor zero = [](const data::Dataset &rows) {
            return Eigen::VectorXd(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(rows.rowCount())));
        };
        QVERIFY(evaluation::permutationImportance(zero, editor, {0, 1}, 2, 1, 0, [] { return true; }).empty());
    }

    void poolsFoldsAndShuffles()
    {
        // Two folds of two shuffles for input "p": 1, 3 and 2, 6 → mean 3, sample sd √(14/3).
        const auto summary =
            evaluation::summariseImportance({"p", "q"}, {{{1.0, 3.0}, {0.0, 0.0}}, {{2.0, 6.0}, {0.0, 0.0}}, {}});
        QCOMPARE(summary.size(), std::size_t{2});
        QCOMPARE(summary[0].input, std::string("p"));
        QCOMPARE(summary[0].mean, 3.0);
        QVERIFY(std::abs(summary[0].standardDeviation - std::sqrt(14.0 / 3.0)) < 1e-12);
        QCOMPARE(summary[0].measurements, std::size_t{4});
        QCOMPARE(summary[1].mean, 0.0);
        QCOMPARE(summary[1].standardDeviation, 0.0);
    }

    // The experiment explains every model on its folds: ridge on y = 10·a − b + 100 ranks a over b, and
    // a column it cannot use (noise) near zero; without explanation nothing is measured.
    void experimentExplainsEveryModel()
    {
        std::string text = "a,b,noise,y\n";
        for (int row = 0; row < 60; ++row) {
            const int a = row % 7;
            const int b = (row * 3) % 11;
            text += std::to_string(a) + ',' + std::to_string(b) + ',' + std::to_string((row * 5) % 13) + ',' +
                    std::to_string(10 * a - b + 100) + '\n';
        }
        const auto linear = tinyData(text);
        const data::Dataset dataset = data::Dataset::fromTable(linear->table, linear->roles, linear->usable);
        evaluation::ExperimentSettings settings;
        settings.models = {{"ridge", models::regressorHyperparameters("ridge")},
                           {"decision_tree", models::regressorHyperparameters("decision_tree")}};
        settings.folds = 3;
        const evaluation::ExperimentResult plain = evaluation::runExperiment(dataset, settings);
        QVERIFY(plain.inputs.empty());
        QVERIFY(plain.models.front().importance.empty());
        QVERIFY(plain.models.front().folds.front().importance.empty());

        settings.explanation.emplace();
        settings.explanation->inputs =
            std::make_shared<const evaluation::InputEditor>(linear->table, linear->roles, linear->usable);
        settings.explanation->importanceRepeats = 4;
        const evaluation::ExperimentResult explained = evaluation::runExperiment(dataset, settings);
        QCOMPARE(explained.inputs, (std::vector<std::string>{"a", "b", "noise"}));
        QCOMPARE(explained.partialDependenceGrids.size(), std::size_t{3});
        for (const auto &model : explained.models) {
            QCOMPARE(model.importance.size(), std::size_t{3});
            QCOMPARE(model.importance[0].measurements, std::size_t{12}); // 3 folds × 4 shuffles
            QVERIFY(model.importance[0].mean > model.importance[1].mean);
            QVERIFY(model.importance[1].mean > 1.0);
            QCOMPARE(model.partialDependence.size(), std::size_t{3});
            // The scores are unchanged by the explanation.
            QCOMPARE(model.mean.rmse, plain.models[&model - explained.models.data()].mean.rmse);
        }
        // Ridge: the noise column moves its predictions by almost nothing.
        QVERIFY(std::abs(explained.models.front().importance[2].mean) < 0.05);
    }
};

QTEST_GUILESS_MAIN(TestPermutationImportance)
#include "test_PermutationImportance.moc"
