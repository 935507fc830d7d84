// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/RegressionLoss.h"

#include <cmath>
#include <stdexcept>

namespace gpumem::training {

RegressionLoss RegressionLoss::named(const std::string &name, double delta)
{
    if (!(delta > 0.0) || !std::isfinite(delta))
        throw std::invalid_argument("RegressionLoss: delta must be a positive number, not " + std::to_string(delta));
    if (name == "mse")
        return {Kind::SquaredError, delta};
    if (name == "huber")
        return {Kind::Huber, delta};
    throw std::invalid_argument("RegressionLoss: unknown loss \"" + name + "\"");
}

torch::Tensor RegressionLoss::operator()(const torch::Tensor &predicted, const torch::Tensor &target) const
{
    if (kind == Kind::Huber)
        return torch::smooth_l1_loss(predicted, target, at::Reduction::Mean, delta);
    return torch::mse_loss(predicted, target);
}

} // namespace gpumem::training
