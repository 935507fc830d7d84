// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Dataset.h"

#include <Eigen/Core>

#include <optional>

namespace gpumem::models {

// The network's physically informed input: the peak that PyTorch's caching
// allocator would reserve for each row's job, as the allocator_sim model
// simulates it from the job's layers (without its fitted offset, so nothing is
// learned from targets). The columns say how large each tensor is; what they do
// not say is how the allocator rounds every block and packs blocks into
// segments, which moves the peak in steps that a network learns poorly from the
// sums of the layers' sizes (bench/README.md, "A physically informed input").
//
// Returns the simulated peak in MiB of every row of dataset, or nothing when its
// rows do not describe jobs layer by layer: a layer sequence with (type,
// activations, parameters) tuples and a batch size column, as GPUMemNet's files
// do. Probe datasets are left out on purpose: their jobs are traced with
// LibTorch (seconds each at GPU sizes), and their simulated targets would make
// the input the answer. Throws io::InputError naming the line of a row whose
// layers cannot be simulated (e.g. a first layer that is not linear).
std::optional<Eigen::VectorXd> simulatedPeakMebibytes(const data::Dataset &dataset);

// What a network's fit takes: simulatedPeakMebibytes(dataset), or nothing also
// when a row's layers cannot be simulated (the network then learns without it).
std::optional<Eigen::VectorXd> simulatedPeakWherePossible(const data::Dataset &dataset);

} // namespace gpumem::models
