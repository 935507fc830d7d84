// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/EstimateConfiguration.h"

#include "io/InputError.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace gpumem::estimate {

const std::vector<std::string> &optimizerNames()
{
    static const std::vector<std::string> names = {"sgd", "sgd_momentum", "adam", "adamw", "adamw_8bit", "adafactor"};
    return names;
}

const std::vector<std::string> &optimizerImplementationNames()
{
    static const std::vector<std::string> names = {"foreach", "fused", "for_loop"};
    return names;
}

const std::vector<std::string> &attentionNames()
{
    static const std::vector<std::string> names = {"efficient", "math"};
    return names;
}

const std::vector<std::string> &dtypeNames()
{
    static const std::vector<std::string> names = {"float32", "float64", "bfloat16", "float16"};
    return names;
}

const std::vector<std::string> &modeNames()
{
    static const std::vector<std::string> names = {"training", "inference"};
    return names;
}

const std::vector<std::string> &autocastNames()
{
    static const std::vector<std::string> names = {"bfloat16", "float16"};
    return names;
}

namespace {

bool known(const std::vector<std::string> &names, const std::string &value)
{
    return std::find(names.begin(), names.end(), value) != names.end();
}

// The recipe of a language model: precision, mode, LoRA/QLoRA and the GPUs.
void validateLanguageModel(const EstimateConfiguration &configuration)
{
    using io::parameter;
    if (configuration.dtype == "float64")
        throw io::InputError(parameter("dtype") +
                             " float64 is not a dtype language models are trained in: take float32, "
                             "bfloat16 or float16");
    if (!configuration.autocast.empty()) {
        if (!known(autocastNames(), configuration.autocast))
            throw io::InputError(parameter("autocast") + " takes bfloat16 or float16, not " +
                                 io::quoteForMessage(configuration.autocast));
        if (configuration.dtype != "float32")
            throw io::InputError(parameter("autocast") + " keeps float32 weights: leave " + parameter("dtype") +
                                 " at float32");
    }
    if (!known(modeNames(), configuration.mode))
        throw io::InputError(parameter("mode") + " takes training or inference, not " +
                             io::quoteForMessage(configuration.mode));
    const bool training = configuration.mode == "training";
    if (training && configuration.generatedTokens > 0)
        throw io::InputError(parameter("generated_tokens") + " needs " + parameter("mode") + " inference");
    if (configuration.loraRank > 0 && configuration.loraTargets.empty())
        throw io::InputError(parameter("lora_rank") + " needs " + parameter("lora_targets") + " (e.g. q_proj,v_proj)");
    if (configuration.loraRank <= 0 && !configuration.loraTargets.empty())
        throw io::InputError(parameter("lora_targets") + " needs " + parameter("lora_rank", "RANK"));
    if (configuration.qlora && configuration.loraRank == 0)
        throw io::InputError(parameter("qlora") + " trains LoRA adapters on the 4-bit base: give " +
                             parameter("lora_rank", "RANK") + " and " + parameter("lora_targets"));
    if (configuration.qlora && configuration.dtype == "float32")
        throw io::InputError(parameter("qlora") + " computes in half precision: give " + parameter("dtype") +
                             " bfloat16 or float16 (bnb_4bit_compute_dtype)");
    if (configuration.qlora && !configuration.autocast.empty())
        throw io::InputError(parameter("qlora") + " takes its compute dtype from " + parameter("dtype") + ", not " +
                             parameter("autocast"));
    if (!(configuration.loraDropout >= 0.0 && configuration.loraDropout < 1.0))
        throw io::InputError(parameter("lora_dropout") + " must be at least 0 and below 1");
    if (!(configuration.loraAlpha >= 0.0 && configuration.loraAlpha <= 1e6))
        throw io::InputError(parameter("lora_alpha") + " must be from 0 to 1000000");
    const ShardingPlan plan = shardingPlanOf(configuration);
    if (!training && plan.dataParallel() > 1)
        throw io::InputError(parameter("gpus") + " beyond " + parameter("tensor_parallel") +
                             " shards training: inference spreads a model over GPUs with " +
                             parameter("tensor_parallel") + " alone");
    const bool deepSpeed = plan.scheme == ShardingScheme::Zero1 || plan.scheme == ShardingScheme::Zero2 ||
                           plan.scheme == ShardingScheme::Zero3;
    if (deepSpeed && plan.dataParallel() > 1 && configuration.optimizer != "adam" &&
        configuration.optimizer != "adamw" && configuration.optimizer != "sgd" &&
        configuration.optimizer != "sgd_momentum")
        throw io::InputError(parameter("sharding") + " " + configuration.sharding +
                             " keeps DeepSpeed's float32 optimizer state: take " + parameter("optimizer") +
                             " adamw, adam, sgd or sgd_momentum");
    if (configuration.sequenceLength < 1)
        throw io::InputError(parameter("seq_len") + " must be at least 1");
}

} // namespace

void EstimateConfiguration::validate() const
{
    if (!architecture.empty())
        validateLanguageModel(*this);
    else if (shardingPlanOf(*this).spreads())
        throw io::InputError(io::parameter("gpus") + " and " + io::parameter("tensor_parallel") +
                             " shard a language model: give " + io::parameter("architecture"));
}

const std::vector<std::string> &lossNames()
{
    static const std::vector<std::string> names = {"cross_entropy", "mse", "sum"};
    return names;
}

std::vector<std::int64_t> parseSampleShape(const std::string &text, const std::string &option)
{
    // A bound on each dimension keeps batch × sample sizes far from overflowing 64 bits.
    constexpr std::int64_t kLargestDimension = std::int64_t{1} << 24;
    constexpr std::size_t kMostDimensions = 8;
    const auto refuse = [&] {
        throw io::InputError(option + " takes positive whole numbers separated by commas (e.g. 3,224,224), not " +
                             io::quoteForMessage(text));
    };
    std::vector<std::int64_t> shape;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        std::int64_t value = 0;
        const char *first = text.data() + start;
        const char *last = text.data() + end;
        const auto [pointer, error] = std::from_chars(first, last, value);
        if (first == last || error != std::errc() || pointer != last || value < 1)
            refuse();
        if (value > kLargestDimension)
            throw io::InputError(option + ": dimension " + std::to_string(value) + " is larger than " +
                                 std::to_string(kLargestDimension));
        shape.push_back(value);
        start = end + 1;
    }
    if (shape.size() > kMostDimensions)
        throw io::InputError(option + " takes at most " + std::to_string(kMostDimensions) + " dimensions, not " +
                             std::to_string(shape.size()));
    return shape;
}

namespace {

// The items of text between separators, without white space; empty ones left out.
std::vector<std::string> itemsOf(const std::string &text, char separator)
{
    std::vector<std::string> items;
    std::string item;
    for (std::size_t position = 0; position <= text.size(); ++position) {
        if (position == text.size() || text[position] == separator) {
            if (!item.empty())
                items.push_back(std::move(item));
            item.clear();
        } else if (std::isspace(static_cast<unsigned char>(text[position])) == 0) {
            item += text[position];
        }
    }
    return items;
}

} // namespace

std::vector<std::vector<std::int64_t>> parseSampleShapes(const std::string &text, const std::string &option)
{
    std::vector<std::vector<std::int64_t>> shapes;
    for (const std::string &item : itemsOf(text, ';'))
        shapes.push_back(parseSampleShape(item, option));
    if (shapes.empty())
        throw io::InputError("give one sample's " + option +
                             ", e.g. 3,224,224 (the batch is prepended; several inputs separated by ';')");
    return shapes;
}

std::int64_t parseBatchSize(const std::string &text, const std::string &option)
{
    std::int64_t batch = 0;
    const char *last = text.data() + text.size();
    const auto [pointer, error] = std::from_chars(text.data(), last, batch);
    if (text.empty() || error != std::errc() || pointer != last || batch < 1 || batch > largestBatch)
        throw io::InputError(option + " take whole numbers from 1 to " + std::to_string(largestBatch) +
                             " separated by commas (e.g. 8,32,128), not " + io::quoteForMessage(text));
    return batch;
}

std::vector<std::int64_t> parseBatchSizes(const std::string &text, const std::string &option)
{
    std::vector<std::int64_t> batches;
    for (const std::string &item : itemsOf(text, ','))
        batches.push_back(parseBatchSize(item, option));
    if (batches.empty())
        throw io::InputError("give at least one of the " + option + ", e.g. 8,32,128");
    return batches;
}

ShardingPlan shardingPlanOf(const EstimateConfiguration &configuration)
{
    ShardingPlan plan;
    plan.scheme = parseSharding(configuration.sharding);
    plan.gpus = configuration.gpus;
    plan.tensorParallel = configuration.tensorParallel;
    plan.validate();
    return plan;
}

} // namespace gpumem::estimate
