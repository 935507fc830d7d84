// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/EstimateConfiguration.h"
#include "estimate/MemoryEstimator.h"
#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"
#include "workflows/EstimateWorkflow.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::workflows {

// One recipe of a comparison, named as a person would say it ("LoRA r16 +
// checkpointing").
struct RecipeVariant
{
    std::string label;
    estimate::EstimateConfiguration configuration;
};

// The recipes a comparison puts side by side for a language model's training: a full
// fine-tune, the same with gradient checkpointing, LoRA, LoRA with checkpointing and
// QLoRA with checkpointing. LoRA takes model's rank, targets, alpha and dropout when it
// has them, else rank 16 on every linear layer; the precision is model's, QLoRA's
// compute dtype bfloat16 unless model's is float16.
std::vector<RecipeVariant> comparedRecipes(const estimate::EstimateConfiguration &model);

// One recipe's estimate at one batch size on one GPU.
struct RecipeEstimate
{
    std::string label;
    estimate::BatchEstimate estimate;
    std::int64_t trainableParameterCount = 0;
    bool fits = false;
};

// Estimates every recipe of comparedRecipes(settings.model) at the first of
// settings.request.batchSizes on settings.gpu. Reports the share done; throws
// estimate::EstimateCancelled on a cancel and io::InputError as estimateModel does.
std::vector<RecipeEstimate> estimateRecipes(const EstimateSettings &settings,
                                            runtime::ProgressObserver *observer = nullptr,
                                            const runtime::OperationControl *control = nullptr);

// The device total of a language model at one sequence length and batch size.
struct SequencePoint
{
    std::int64_t sequenceLength = 0;
    std::int64_t batchSize = 0;
    double deviceTotalMib = 0.0;
    bool fits = false;
};

// settings.model at each of lengths and each of settings.request.batchSizes on
// settings.gpu: the points of a chart of memory against the sequence length, one
// line per batch size. A length beyond the model's positions is left out.
std::vector<SequencePoint> memoryAgainstSequence(const EstimateSettings &settings,
                                                 const std::vector<std::int64_t> &lengths,
                                                 runtime::ProgressObserver *observer = nullptr,
                                                 const runtime::OperationControl *control = nullptr);

// The largest sequence length at which settings.model fits settings.gpu at batchSize
// (doubling, then bisection; each try is one trace of the model at that length and
// batch, which on the meta device costs a fraction of a second); nullopt when not even
// one token fits. Capped at the model's max_position_embeddings.
std::optional<std::int64_t> maxSequenceLength(const EstimateSettings &settings, std::int64_t batchSize,
                                              const runtime::OperationControl *control = nullptr);

// The fewest GPUs of settings.gpu on which settings.model fits at batchSize (each GPU's
// batch) with its sharding scheme and tensor-parallel degree: the model's share is
// traced once, then sharded for each data-parallel degree and replayed. The memory of
// one GPU does not grow with the degree, so the search doubles it, then bisects.
// nullopt when not even largestGpuCount GPUs hold it (or, with no scheme, the
// tensor-parallel GPUs alone). Throws as estimateModel does.
std::optional<std::int64_t> minGpuCount(const EstimateSettings &settings, std::int64_t batchSize,
                                        const runtime::OperationControl *control = nullptr);

} // namespace gpumem::workflows
