// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/MemberSpread.h"

#include "io/InputError.h"
#include "models/NeuralNetworkRegressor.h"

#include <algorithm>
#include <cmath>

namespace gpumem::calibration {

namespace {

// The ensemble behind model, or null when model is not one of at least two networks.
const models::NeuralNetworkRegressor *ensembleOf(const models::Regressor &model)
{
    const auto *network = dynamic_cast<const models::NeuralNetworkRegressor *>(&model);
    return network && network->hyperparameters().integer("ensemble") >= 2 ? network : nullptr;
}

} // namespace

void checkModelHasMembers(const models::Regressor &model)
{
    if (ensembleOf(model))
        return;
    const std::string what = dynamic_cast<const models::NeuralNetworkRegressor *>(&model)
                                 ? "this bigru_transformer trains a single network (ensemble = 1)"
                                 : model.name() + " has no members";
    throw io::InputError("the spread calibration score needs an ensemble of networks whose members can disagree "
                         "(bigru_transformer with " +
                         io::parameter("hyperparameter") + " ensemble=K, K >= 2), but " + what + "; use " +
                         io::parameter("calibration_score") + " difficulty instead");
}

Eigen::VectorXd relativeMemberSpread(const models::Regressor &model, const data::Dataset &dataset,
                                     const Eigen::VectorXd &predicted)
{
    checkModelHasMembers(model);
    const models::NeuralNetworkRegressor &ensemble = *ensembleOf(model);
    const Eigen::VectorXd spread = ensemble.memberSpread(dataset);
    if (ensemble.hyperparameters().boolean("log_target"))
        return spread; // d log1p(y) = dy / (1 + y): a spread in log space is relative already
    return spread.cwiseQuotient(predicted.cwiseMax(1.0));
}

Eigen::VectorXd memberSpreadForScore(Score score, const models::Regressor &model, const data::Dataset &dataset,
                                     const Eigen::VectorXd &predicted)
{
    return score == Score::Spread ? relativeMemberSpread(model, dataset, predicted) : Eigen::VectorXd();
}

double fitSpreadFloor(const Eigen::VectorXd &spread, const std::vector<Eigen::Index> &fitRows)
{
    if (fitRows.empty())
        throw io::InputError("the spread score needs fit rows to choose its floor");
    std::vector<double> values;
    values.reserve(fitRows.size());
    for (Eigen::Index row : fitRows) {
        if (!std::isfinite(spread[row]))
            throw io::InputError("cannot calibrate: the members' spread on row " + std::to_string(row + 1) +
                                 " is not finite");
        values.push_back(spread[row]);
    }
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return std::max(*middle, minimumSpreadFloor);
}

} // namespace gpumem::calibration
