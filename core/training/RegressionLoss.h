// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <string>

namespace gpumem::training {

// What a network minimises between its outputs and the targets, both on the
// scale it learns (the standardised log1p of MiB with log_target):
// - mse: the mean squared error;
// - huber: the smooth L1 loss, error² / (2·delta) while |error| < delta and
//   |error| − delta/2 beyond. Small errors count as they do squared; a large one
//   pulls no harder than its size, so a few jobs the inputs cannot explain (the
//   allocator's segment steps, a noisy measurement) do not set the fit of all the
//   others (bench/README.md, "The loss").
struct RegressionLoss
{
    enum class Kind
    {
        SquaredError,
        Huber
    };
    Kind kind = Kind::SquaredError;
    double delta = 1.0; // huber only: where the penalty turns linear, on the learned scale

    // Throws std::invalid_argument for a name other than "mse" or "huber", or a delta not above 0.
    static RegressionLoss named(const std::string &name, double delta);

    // The mean loss over the rows: predicted and target are [rows].
    torch::Tensor operator()(const torch::Tensor &predicted, const torch::Tensor &target) const;
};

} // namespace gpumem::training
