// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/EstimateJson.h"

#include "estimate/MemoryUnits.h"

namespace gpumem::estimate {

namespace {

double mibValue(std::uint64_t bytes)
{
    return roundedMib(mibOf(bytes));
}

io::Json breakdownJson(const BatchEstimate &estimate)
{
    const auto at = [&estimate](Category category) {
        return mibValue(estimate.bytesAtPeak[static_cast<std::size_t>(category)]);
    };
    return {{"parameters_mib", at(Category::Parameters)},
            {"gradients_mib", at(Category::Gradients)},
            {"optimizer_state_mib", at(Category::OptimizerState)},
            {"activations_mib", at(Category::Activations)},
            {"cudnn_workspaces_mib", at(Category::CudnnWorkspaces)},
            {"gathered_parameters_mib", at(Category::GatheredParameters)},
            {"communication_buffers_mib", at(Category::CommunicationBuffers)},
            {"allocator_overhead_mib", mibValue(estimate.allocatorOverheadBytes())}};
}

// A language model's recipe: how it is trained or served.
io::Json recipeJson(const EstimateConfiguration &configuration)
{
    io::Json lora; // null for a full fine-tune
    if (configuration.loraRank > 0) {
        const double alpha =
            configuration.loraAlpha > 0.0 ? configuration.loraAlpha : static_cast<double>(configuration.loraRank);
        lora = io::Json{{"rank", configuration.loraRank},
                        {"targets", configuration.loraTargets},
                        {"alpha", alpha},
                        {"dropout", configuration.loraDropout}};
    }
    io::Json recipe;
    recipe["mode"] = configuration.mode;
    recipe["dtype"] = configuration.dtype;
    recipe["autocast"] = configuration.autocast.empty() ? io::Json() : io::Json(configuration.autocast);
    recipe["optimizer"] = configuration.optimizer;
    recipe["gradient_checkpointing"] = configuration.gradientCheckpointing;
    recipe["clip_grad_norm"] = configuration.clipGradNorm ? io::Json(*configuration.clipGradNorm) : io::Json();
    recipe["lora"] = lora;
    recipe["qlora"] = configuration.qlora;
    if (configuration.mode == "inference")
        recipe["generate"] = configuration.generatedTokens;
    return recipe;
}

io::Json answerJson(const std::optional<std::int64_t> &answer)
{
    return answer ? io::Json(*answer) : io::Json();
}

} // namespace

io::Json estimateJson(const EstimateConfiguration &configuration, const EstimateResult &result, bool maxBatchAsked,
                      const SearchAnswers &answers)
{
    io::Json estimates = io::Json::array();
    for (const auto &estimate : result.estimates) {
        estimates.push_back({{"batch_size", estimate.batchSize},
                             {"peak_allocated_mib", mibValue(estimate.peakAllocatedBytes)},
                             {"peak_reserved_mib", mibValue(estimate.peakReservedBytes)},
                             {"workspace_mib", estimate.workspaceMib},
                             {"context_mib", estimate.contextMib},
                             {"nccl_mib", estimate.ncclMib},
                             {"device_total_mib", roundedMib(estimate.deviceTotalMib())},
                             {"fits", estimate.fitsOn(result.profile)},
                             {"measured_directly", estimate.measuredDirectly},
                             {"breakdown", breakdownJson(estimate)}});
    }
    const bool languageModel = !configuration.architecture.empty();
    io::Json document = {
        {"model", languageModel ? configuration.architecture : configuration.modelPath},
        {"parameter_count", result.model.parameterCount},
        {"parameter_mib", mibValue(result.model.parameterBytes)},
        {"optimizer", configuration.optimizer},
        {"optimizer_implementation", configuration.optimizerImplementation},
        {"attention", configuration.attention},
        {"dtype", configuration.dtype},
        {"gpu", {{"name", result.profile.name}, {"capacity_mib", result.profile.capacityMib}}},
        {"extrapolated", result.extrapolated},
        {"traced_batches", result.tracedBatches},
        {"estimates", std::move(estimates)},
    };
    if (languageModel) {
        document["trainable_parameter_count"] = result.model.trainableParameterCount;
        document["seq_len"] = configuration.sequenceLength;
        document["recipe"] = recipeJson(configuration);
        document["gpus"] = configuration.gpus;
        document["sharding"] = configuration.sharding;
        document["tensor_parallel"] = configuration.tensorParallel;
        if (answers.maxSequenceLength)
            document["max_seq_len"] = answerJson(*answers.maxSequenceLength);
        if (answers.minGpus)
            document["min_gpus"] = answerJson(*answers.minGpus);
    }
    if (maxBatchAsked)
        document["max_batch"] = result.maxBatch ? io::Json(*result.maxBatch) : io::Json();
    document["notes"] = result.notes;
    return document;
}

} // namespace gpumem::estimate
