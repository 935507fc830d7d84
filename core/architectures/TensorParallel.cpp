// SPDX-License-Identifier: GPL-3.0-or-later
#include "architectures/TensorParallel.h"

#include "io/InputError.h"

namespace gpumem::architectures {

namespace {

// count / parallel; throws naming what count is unless parallel divides it.
std::int64_t split(std::int64_t count, std::int64_t parallel, const std::string &what, const std::string &model)
{
    if (count % parallel != 0)
        throw io::InputError("tensor_parallel " + std::to_string(parallel) + " does not divide " + model + "'s " +
                             what + " (" + std::to_string(count) + ")");
    return count / parallel;
}

} // namespace

ArchitectureConfig tensorParallelShare(const ArchitectureConfig &config, std::int64_t parallel)
{
    if (parallel < 1)
        throw io::InputError("tensor_parallel must be at least 1");
    if (parallel == 1)
        return config;
    if (config.family != Family::Llama)
        throw io::InputError("tensor_parallel splits the Llama family's layers (llama, mistral, qwen2, qwen3, "
                             "mixtral, qwen2_moe), not " +
                             config.modelType + "'s");
    ArchitectureConfig share = config;
    share.attentionHeads = split(config.attentionHeads, parallel, "num_attention_heads", config.name);
    if (config.keyValueHeads >= parallel)
        share.keyValueHeads = split(config.keyValueHeads, parallel, "num_key_value_heads", config.name);
    else if (parallel % config.keyValueHeads == 0)
        share.keyValueHeads = 1;
    else
        throw io::InputError("tensor_parallel " + std::to_string(parallel) + " is not a multiple of " + config.name +
                             "'s num_key_value_heads (" + std::to_string(config.keyValueHeads) +
                             "), which must be split or replicated evenly");
    if (config.experts == 0)
        share.intermediateSize = split(config.intermediateSize, parallel, "intermediate_size", config.name);
    else
        share.expertIntermediateSize =
            split(config.expertIntermediateSize, parallel, "moe_intermediate_size", config.name);
    if (config.sharedExpertIntermediateSize > 0)
        share.sharedExpertIntermediateSize =
            split(config.sharedExpertIntermediateSize, parallel, "shared_expert_intermediate_size", config.name);
    const std::int64_t multiple = vocabularyPaddingMultiple * parallel;
    share.vocabulary = (config.vocabulary + multiple - 1) / multiple * multiple / parallel;
    return share;
}

} // namespace gpumem::architectures
