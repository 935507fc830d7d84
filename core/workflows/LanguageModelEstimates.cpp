// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/LanguageModelEstimates.h"

#include "architectures/ArchitectureLibrary.h"
#include "estimate/ArchitectureTracer.h"
#include "estimate/EstimateCancelled.h"

namespace gpumem::workflows {

namespace {

// The estimate of model alone (no searches, no other profile) at batchSizes,
// replayed for the settings' GPU with its context.
EstimateOutcome estimateOnly(const EstimateSettings &settings, const estimate::EstimateConfiguration &model,
                             const std::vector<std::int64_t> &batchSizes, const runtime::OperationControl *control)
{
    EstimateSettings one = settings;
    one.model = model;
    one.everyProfile = false;
    one.searchMaxSequenceLength = false;
    one.searchMinGpus = false;
    one.request = estimate::EstimateRequest{};
    one.request.batchSizes = batchSizes;
    return estimateModel(one, nullptr, control);
}

std::int64_t firstBatch(const EstimateSettings &settings)
{
    return settings.request.batchSizes.empty() ? 1 : settings.request.batchSizes.front();
}

} // namespace

std::vector<RecipeVariant> comparedRecipes(const estimate::EstimateConfiguration &model)
{
    estimate::EstimateConfiguration full = model;
    full.mode = "training";
    full.generatedTokens = 0;
    full.loraRank = 0;
    full.loraTargets.clear();
    full.qlora = false;
    full.gradientCheckpointing = false;
    estimate::EstimateConfiguration lora = full;
    lora.loraRank = model.loraRank > 0 ? model.loraRank : 16;
    lora.loraTargets = model.loraRank > 0 ? model.loraTargets : std::vector<std::string>{"all-linear"};
    const std::string rank = "r" + std::to_string(lora.loraRank);
    std::vector<RecipeVariant> variants;
    variants.push_back({"full fine-tune", full});
    full.gradientCheckpointing = true;
    variants.push_back({"full + checkpointing", full});
    variants.push_back({"LoRA " + rank, lora});
    lora.gradientCheckpointing = true;
    variants.push_back({"LoRA " + rank + " + checkpointing", lora});
    estimate::EstimateConfiguration qlora = lora;
    qlora.qlora = true;
    qlora.autocast.clear();
    qlora.dtype = model.dtype == "float16" ? "float16" : "bfloat16";
    variants.push_back({"QLoRA " + rank + " + checkpointing", qlora});
    return variants;
}

std::vector<RecipeEstimate> estimateRecipes(const EstimateSettings &settings, runtime::ProgressObserver *observer,
                                            const runtime::OperationControl *control)
{
    const estimate::GpuProfile profile = chosenProfile(settings);
    const std::vector<RecipeVariant> variants = comparedRecipes(settings.model);
    runtime::ProgressThrottle progress(observer);
    std::vector<RecipeEstimate> estimates;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        estimate::stopIfCancelled(control);
        RecipeEstimate result;
        result.label = variants[i].label;
        const EstimateOutcome outcome =
            estimateOnly(settings, variants[i].configuration, {firstBatch(settings)}, control);
        result.estimate = outcome.result.estimates.front();
        result.trainableParameterCount = outcome.result.model.trainableParameterCount;
        result.fits = result.estimate.fitsOn(profile);
        estimates.push_back(std::move(result));
        progress.advance(static_cast<double>(i + 1) / static_cast<double>(variants.size()));
    }
    return estimates;
}

std::vector<SequencePoint> memoryAgainstSequence(const EstimateSettings &settings,
                                                 const std::vector<std::int64_t> &lengths,
                                                 runtime::ProgressObserver *observer,
                                                 const runtime::OperationControl *control)
{
    const estimate::GpuProfile profile = chosenProfile(settings);
    const std::int64_t positions = architectures::resolveArchitecture(settings.model.architecture).maxPositions;
    std::vector<std::int64_t> batches = settings.request.batchSizes;
    if (batches.empty())
        batches.push_back(1);
    runtime::ProgressThrottle progress(observer);
    std::vector<SequencePoint> points;
    std::size_t done = 0;
    for (const std::int64_t length : lengths) {
        estimate::stopIfCancelled(control);
        if (length < 1 || length + settings.model.generatedTokens > positions)
            continue;
        estimate::EstimateConfiguration model = settings.model;
        model.sequenceLength = length;
        // One trace per length; the batch sizes come from its extrapolation.
        const EstimateOutcome outcome = estimateOnly(settings, model, batches, control);
        for (const auto &estimate : outcome.result.estimates)
            points.push_back({length, estimate.batchSize, estimate.deviceTotalMib(), estimate.fitsOn(profile)});
        progress.advance(static_cast<double>(++done) / static_cast<double>(lengths.size()));
    }
    return points;
}

std::optional<std::int64_t> maxSequenceLength(const EstimateSettings &settings, std::int64_t batchSize,
                                              const runtime::OperationControl *control)
{
    const estimate::GpuProfile profile = chosenProfile(settings);
    const std::int64_t positions =
        architectures::resolveArchitecture(settings.model.architecture).maxPositions - settings.model.generatedTokens;
    // One direct trace per try: on the meta device it costs what the small traces of an
    // extrapolation would, and the search needs no other batch.
    const auto fits = [&](std::int64_t length) {
        estimate::stopIfCancelled(control);
        estimate::EstimateConfiguration model = settings.model;
        model.sequenceLength = length;
        const estimate::ArchitectureTracer tracer(model, control);
        return estimate::MemoryEstimator::estimateOf(tracer.trace(batchSize), profile).fitsOn(profile);
    };
    if (positions < 1 || !fits(1))
        return std::nullopt;
    std::int64_t fitting = 1;
    std::int64_t failing = 0; // 0: none found yet
    while (failing == 0) {
        const std::int64_t next = std::min(fitting * 2, positions);
        if (next == fitting)
            return fitting; // every position fits
        if (fits(next))
            fitting = next;
        else
            failing = next;
    }
    while (failing - fitting > 1) {
        const std::int64_t middle = fitting + (failing - fitting) / 2;
        if (fits(middle))
            fitting = middle;
        else
            failing = middle;
    }
    return fitting;
}

std::optional<std::int64_t> minGpuCount(const EstimateSettings &settings, std::int64_t batchSize,
                                        const runtime::OperationControl *control)
{
    const std::int64_t tensorParallel = settings.model.tensorParallel;
    estimate::EstimateConfiguration share = settings.model;
    share.gpus = tensorParallel;
    const estimate::ArchitectureTracer tracer(share, control);
    const estimate::TaggedTrace traced = tracer.trace(batchSize);
    estimate::ShardingPlan plan = estimate::shardingPlanOf(share);
    const auto fits = [&](std::int64_t dataParallel) {
        estimate::stopIfCancelled(control);
        plan.gpus = tensorParallel * dataParallel;
        estimate::GpuProfile profile = chosenProfile(settings);
        profile.communicators = plan.communicators();
        return estimate::MemoryEstimator::estimateOf(estimate::shardedTrace(traced, plan, tracer.shardedModelSizes()),
                                                     profile)
            .fitsOn(profile);
    };
    if (fits(1))
        return tensorParallel;
    const std::int64_t most = estimate::largestGpuCount / tensorParallel;
    if (plan.scheme == estimate::ShardingScheme::None || most < 2 || !fits(most))
        return std::nullopt;
    // fits(most) holds; find the least degree from 2 on that fits.
    std::int64_t failing = 1;
    std::int64_t fitting = most;
    for (std::int64_t degree = 2; degree < most; degree *= 2) {
        if (fits(degree)) {
            fitting = degree;
            break;
        }
        failing = degree;
    }
    while (fitting - failing > 1) {
        const std::int64_t middle = failing + (fitting - failing) / 2;
        (fits(middle) ? fitting : failing) = middle;
    }
    return tensorParallel * fitting;
}

} // namespace gpumem::workflows
