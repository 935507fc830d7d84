// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Dataset.h"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace gpumem::models {

// The network's physically informed input: the peak that PyTorch's caching
// allocator would reserve for each row's job, as the allocator_sim model
// simulates it from the job's layers (without its fitted offset, so nothing is
// learned from targets). The columns say how large each tensor is; what they do
// not say is how the allocator rounds every block and packs blocks into
// segments, which moves the peak in steps that a network learns poorly from the
// sums of the layers' sizes (bench/README.md, "A physically informed input").

// The simulated peaks of a dataset's rows.
struct SimulatedPeaks
{
    Eigen::VectorXd mebibytes; // one per row
    // Per row, why the simulation cannot follow its job (an optimizer it does not
    // know, no layers, a first layer that is not linear, memory beyond any GPU), or
    // empty where it can. Such a row's peak is a stand-in: the plain sum of its
    // tensors (weights, gradients and Adam's two states of every parameter, the
    // batch's activations and their gradients) plus the cuBLAS workspace, without
    // the allocator's rounding.
    std::vector<std::string> unfollowed;
};

// Returns the simulated peak in MiB of every row of dataset, or nothing when its
// rows do not describe jobs layer by layer: a layer sequence with (type,
// activations, parameters) tuples and a batch size column, as GPUMemNet's files
// do. Probe datasets are left out on purpose: their jobs are traced with
// LibTorch (seconds each at GPU sizes), and their simulated targets would make
// the input the answer. A row whose job cannot be simulated is not an error here.
std::optional<SimulatedPeaks> simulatedPeaks(const data::Dataset &dataset);

// What a fitted network reads for the rows it predicts: simulatedPeaks(dataset)'s
// MiB, stand-ins included (predictTable marks those rows as extrapolated).
std::optional<Eigen::VectorXd> simulatedPeakMebibytes(const data::Dataset &dataset);

// What a network's fit takes: simulatedPeaks(dataset)'s MiB, or nothing also when
// a row's job cannot be simulated (the network then learns without it, so that no
// stand-in is ever learned from).
std::optional<Eigen::VectorXd> simulatedPeakWherePossible(const data::Dataset &dataset);

} // namespace gpumem::models
