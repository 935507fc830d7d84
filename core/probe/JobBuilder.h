// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/JobConfiguration.h"

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace gpumem::probe {

// A job ready to train: its network and one fixed synthetic batch on the
// device, and a function that runs the forward pass and the cross-entropy loss
// on that batch. The batch's values do not change memory, so one batch serves
// every step.
struct TrainingJob
{
    std::shared_ptr<torch::nn::Module> network;
    std::function<torch::Tensor()> loss; // [] scalar
    std::vector<torch::Tensor> batch;    // the inputs and targets loss() reads
};

// Builds LibTorch networks for probe configurations: an MLP as a Sequential of
// Linear (+ BatchNorm1d) + activation (+ Dropout) and a Linear classifier; a
// CNN as convolution blocks, global average pooling and a head; a Transformer
// as token and position embeddings, nn::TransformerEncoderLayer blocks
// (sequence-first, with a causal mask when asked) and a language-model head.
class JobBuilder
{
  public:
    // Builds job's network and batch on device in job's element type. Throws
    // io::InputError or c10::Error when the configuration cannot be built.
    static TrainingJob build(const JobConfiguration &job, const torch::Device &device);

    // Gives built, made by build() on device, the batch of job: the same job at
    // another batch size, resolution or sequence length, equal to the built one in
    // every other column (the caller's to keep). The network stays, its gradients
    // dropped; a Transformer's position table and causal mask take the new length.
    // Memory does not depend on the parameters' values, so a tracer that steps one
    // job at many sizes spares the building (most of it the random initialisation)
    // of all but the first.
    static void resize(TrainingJob &built, const JobConfiguration &job, const torch::Device &device);

    // The element type named by a dtype column ("float32" gives torch::kFloat32);
    // throws io::InputError for a name it does not know.
    static torch::ScalarType scalarType(const std::string &dtype);

    // The same, or nothing for an unknown name, for callers that word the error themselves.
    static std::optional<torch::ScalarType> findScalarType(const std::string &dtype);

    // Builds the optimizer a job names over network's parameters.
    static std::unique_ptr<torch::optim::Optimizer> optimizer(const JobConfiguration &job, torch::nn::Module &network);
};

} // namespace gpumem::probe
