// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/PermutationImportance.h"

#include "data/SeededRandom.h"
#include "evaluation/MeanAndSpread.h"
#include "evaluation/Splits.h"

#include <cmath>
#include <stdexcept>

namespace gpumem::evaluation {

namespace {

double rootMeanSquaredError(const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted)
{
    if (actual.size() != predicted.size() || actual.size() == 0)
        throw std::invalid_argument("a prediction per row is needed");
    return std::sqrt((predicted - actual).squaredNorm() / static_cast<double>(actual.size()));
}

} // namespace

std::uint64_t permutationSeed(std::uint64_t seed, int fold, std::size_t input, int repeat)
{
    // Offset by one so that no part mixes in as zero, which repetitionSeed returns unchanged.
    return repetitionSeed(repetitionSeed(repetitionSeed(seed, fold + 1), static_cast<int>(input) + 1), repeat + 1);
}

std::vector<std::vector<double>> permutationImportance(const DatasetPredictor &predict, const InputEditor &editor,
                                                       const std::vector<Eigen::Index> &rows, int repeats,
                                                       std::uint64_t seed, int fold,
                                                       const std::function<bool()> &cancelled)
{
    // Predicted through the same rebuilt rows as the shuffles, so that an ignored input scores exactly 0.
    const data::Dataset unchanged = editor.rows(rows);
    const Eigen::VectorXd &actual = unchanged.target();
    const double baseline = rootMeanSquaredError(actual, predict(unchanged));
    std::vector<std::vector<double>> increases(editor.inputs().size());
    for (std::size_t input = 0; input < editor.inputs().size(); ++input) {
        if (cancelled && cancelled())
            return {};
        for (int repeat = 0; repeat < repeats; ++repeat) {
            const std::vector<Eigen::Index> order =
                data::shuffledRows(static_cast<Eigen::Index>(rows.size()), permutationSeed(seed, fold, input, repeat));
            std::vector<Eigen::Index> donors(rows.size());
            for (std::size_t i = 0; i < rows.size(); ++i)
                donors[i] = rows[static_cast<std::size_t>(order[i])];
            const double shuffled = rootMeanSquaredError(actual, predict(editor.withInputFrom(rows, input, donors)));
            increases[input].push_back(shuffled - baseline);
        }
    }
    return increases;
}

std::vector<InputImportance> summariseImportance(const std::vector<std::string> &inputs,
                                                 const std::vector<std::vector<std::vector<double>>> &folds)
{
    std::vector<InputImportance> summary;
    for (std::size_t input = 0; input < inputs.size(); ++input) {
        std::vector<double> values;
        for (const auto &fold : folds)
            if (input < fold.size())
                values.insert(values.end(), fold[input].begin(), fold[input].end());
        const MeanAndSpread pooled = meanAndSpread(values);
        InputImportance importance;
        importance.input = inputs[input];
        importance.measurements = values.size();
        importance.mean = values.empty() ? 0.0 : pooled.mean;
        importance.standardDeviation = pooled.standardDeviation;
        summary.push_back(importance);
    }
    return summary;
}

} // namespace gpumem::evaluation
