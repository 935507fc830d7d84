// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/DifficultyModel.h"

#include "io/InputError.h"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>
#include <vector>

namespace gpumem::calibration {

namespace {

// Returns the raw inputs of one row: the size term, then log(1 + |x|) per column
// (memory features span orders of magnitude; the log keeps one huge layer from
// dominating the fit).
Eigen::MatrixXd rawInputs(const Eigen::MatrixXd &features, const std::vector<int> &columnIndices,
                          const Eigen::VectorXd &predicted, double floor)
{
    Eigen::MatrixXd inputs(predicted.size(), static_cast<Eigen::Index>(columnIndices.size()) + 1);
    for (Eigen::Index row = 0; row < predicted.size(); ++row) {
        inputs(row, 0) = std::log1p(std::max(predicted[row] - floor, 0.0));
        for (std::size_t column = 0; column < columnIndices.size(); ++column)
            inputs(row, static_cast<Eigen::Index>(column) + 1) =
                std::log1p(std::abs(features(row, columnIndices[column])));
    }
    return inputs;
}

std::vector<int> indicesOf(const std::vector<std::string> &wanted, const std::vector<std::string> &available)
{
    std::vector<int> indices;
    for (const auto &name : wanted) {
        const auto found = std::find(available.begin(), available.end(), name);
        if (found == available.end())
            throw io::InputError("the calibration's difficulty estimate reads the numeric column " +
                                 io::quoteForMessage(name, 60) + ", which the data lacks");
        indices.push_back(static_cast<int>(found - available.begin()));
    }
    return indices;
}

} // namespace

DifficultyModel DifficultyModel::fit(const Eigen::MatrixXd &features, const std::vector<std::string> &featureNames,
                                     const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted,
                                     const std::vector<Eigen::Index> &rows, double floor)
{
    if (rows.empty())
        throw io::InputError("the difficulty estimate needs at least one row to fit on");
    if (!std::isfinite(floor))
        throw io::InputError("the difficulty estimate needs a finite floor");
    DifficultyModel model;
    model.floor = floor;
    model.columns = featureNames;
    std::vector<int> all(featureNames.size());
    for (std::size_t column = 0; column < all.size(); ++column)
        all[column] = static_cast<int>(column);

    const auto n = static_cast<Eigen::Index>(rows.size());
    Eigen::MatrixXd fitFeatures(n, features.cols());
    Eigen::VectorXd fitPredicted(n);
    Eigen::VectorXd logResidual(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index row = rows[static_cast<std::size_t>(i)];
        fitFeatures.row(i) = features.row(row);
        fitPredicted[i] = predicted[row];
        logResidual[i] = std::log1p(std::abs(actual[row] - predicted[row]));
        if (!std::isfinite(logResidual[i]) || !fitFeatures.row(i).allFinite())
            throw io::InputError("the difficulty estimate met a non-finite value in row " + std::to_string(row + 1));
    }
    Eigen::MatrixXd inputs = rawInputs(fitFeatures, all, fitPredicted, floor);
    const Eigen::Index width = inputs.cols();
    model.means.resize(static_cast<std::size_t>(width));
    model.deviations.resize(static_cast<std::size_t>(width));
    for (Eigen::Index column = 0; column < width; ++column) {
        const double mean = inputs.col(column).mean();
        const double deviation = std::sqrt((inputs.col(column).array() - mean).square().mean());
        // A constant input carries no information; a unit deviation keeps it at zero after centring.
        const double scale = deviation > 1e-12 ? deviation : 1.0;
        inputs.col(column) = (inputs.col(column).array() - mean) / scale;
        model.means[static_cast<std::size_t>(column)] = mean;
        model.deviations[static_cast<std::size_t>(column)] = scale;
    }
    const double intercept = logResidual.mean();
    Eigen::MatrixXd gram = inputs.transpose() * inputs;
    gram.diagonal().array() += ridgePenalty;
    const Eigen::VectorXd slopes = gram.ldlt().solve(inputs.transpose() * (logResidual.array() - intercept).matrix());
    model.coefficients.push_back(intercept);
    for (Eigen::Index column = 0; column < width; ++column)
        model.coefficients.push_back(slopes[column]);

    const Eigen::VectorXd fitted = (inputs * slopes).array() + intercept;
    if (!fitted.allFinite())
        throw io::InputError("the difficulty estimate did not converge to finite values");
    // A score divides by the scale, so a job whose difficulty is underestimated is
    // what inflates the top scores, and with them the margin at high coverage: no
    // job's scale goes below that of the easiest quarter of the fitted rows. Above,
    // one unit of room lets a job larger than any seen get a wider margin, but not an absurd one.
    std::vector<double> sorted(fitted.data(), fitted.data() + fitted.size());
    std::sort(sorted.begin(), sorted.end());
    model.lowest = sorted[(sorted.size() - 1) / 4];
    model.highest = sorted.back() + 1.0;
    return model;
}

Eigen::VectorXd DifficultyModel::scales(const Eigen::MatrixXd &features, const std::vector<std::string> &featureNames,
                                        const Eigen::VectorXd &predicted) const
{
    const std::vector<int> indices = indicesOf(columns, featureNames);
    const Eigen::MatrixXd inputs = rawInputs(features, indices, predicted, floor);
    Eigen::VectorXd result(predicted.size());
    for (Eigen::Index row = 0; row < predicted.size(); ++row) {
        double estimate = coefficients[0];
        for (Eigen::Index column = 0; column < inputs.cols(); ++column) {
            const auto index = static_cast<std::size_t>(column);
            estimate += coefficients[index + 1] * (inputs(row, column) - means[index]) / deviations[index];
        }
        // NaN (a non-finite prediction) stays NaN: its bound is then unknown, not invented.
        result[row] = std::isnan(estimate) ? estimate : std::exp(std::clamp(estimate, lowest, highest));
    }
    return result;
}

bool operator==(const DifficultyModel &left, const DifficultyModel &right)
{
    return left.floor == right.floor && left.columns == right.columns && left.means == right.means &&
           left.deviations == right.deviations && left.coefficients == right.coefficients &&
           left.lowest == right.lowest && left.highest == right.highest;
}

} // namespace gpumem::calibration
