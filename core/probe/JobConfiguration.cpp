// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/JobConfiguration.h"

#include "io/InputError.h"
#include "io/NamedValues.h"
#include "io/NumberText.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace gpumem::probe {

namespace {

std::string dropoutText(double dropout)
{
    return io::formattedNumber("%.2f", dropout);
}

int parseInteger(const std::string &text, const std::string &column)
{
    // Values read back from a dataset arrive as numbers printed by the table ("64" or "64.0").
    double value = 0.0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size() ||
        value != std::floor(value) || value < 0.0 || value > 1e9)
        throw io::InputError("column '" + column + "' needs a whole number, not " + io::quoteForMessage(text));
    return static_cast<int>(value);
}

double parseReal(const std::string &text, const std::string &column)
{
    double value = 0.0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size() || !std::isfinite(value))
        throw io::InputError("column '" + column + "' needs a number, not " + io::quoteForMessage(text));
    return value;
}

std::string parseChoice(const std::string &text, const std::string &column, const std::vector<std::string> &choices)
{
    for (const auto &choice : choices)
        if (text == choice)
            return text;
    std::string known;
    for (const auto &choice : choices)
        known += (known.empty() ? "" : ", ") + choice;
    throw io::InputError("column '" + column + "' holds " + io::quoteForMessage(text) + " (known: " + known + ")");
}

// The bytes of one element of each dtype, and the tensors each optimizer keeps per
// parameter (momentum, or Adam's two moments).
constexpr io::NamedValues<int, 4> kDtypeBytes{{{"float32", 4}, {"float64", 8}, {"float16", 2}, {"bfloat16", 2}}};
constexpr io::NamedValues<int, 4> kOptimizerStates{{{"sgd", 0}, {"sgd_momentum", 1}, {"adam", 2}, {"adamw", 2}}};
const std::vector<std::string> kActivations = {"relu",       "gelu", "tanh", "sigmoid",
                                               "leaky_relu", "elu",  "silu", "softplus"};

constexpr io::NamedValues<JobFamily, 4> kJobFamilies{{{"mlp", JobFamily::Mlp},
                                                      {"cnn", JobFamily::Cnn},
                                                      {"transformer", JobFamily::Transformer},
                                                      {"llm", JobFamily::Llm}}};

// One configuration column of a probe CSV: its name, its cell as the job writes
// it, and how a cell read back sets the job (throwing InputError naming the column).
struct JobColumn
{
    std::string name;
    std::function<std::string(const JobConfiguration &)> write;
    std::function<void(JobConfiguration &, const std::string &)> read;
};

JobColumn integerColumn(const std::string &name, int JobConfiguration::*field)
{
    return {name, [field](const JobConfiguration &job) { return std::to_string(job.*field); },
            [name, field](JobConfiguration &job, const std::string &text) { job.*field = parseInteger(text, name); }};
}

JobColumn flagColumn(const std::string &name, bool JobConfiguration::*field)
{
    return {
        name, [field](const JobConfiguration &job) { return std::string(job.*field ? "1" : "0"); },
        [name, field](JobConfiguration &job, const std::string &text) { job.*field = parseInteger(text, name) != 0; }};
}

JobColumn choiceColumn(const std::string &name, std::string JobConfiguration::*field, std::vector<std::string> choices)
{
    return {name, [field](const JobConfiguration &job) { return job.*field; },
            [name, field, choices = std::move(choices)](JobConfiguration &job, const std::string &text) {
                job.*field = parseChoice(text, name, choices);
            }};
}

JobColumn countColumn(const std::string &name, std::int64_t JobConfiguration::*field)
{
    return {name, [field](const JobConfiguration &job) { return std::to_string(job.*field); },
            [name, field](JobConfiguration &job, const std::string &text) {
                // Counts beyond 2^53 do not survive a number read back; parameter counts stay far below.
                double value = 0.0;
                const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
                if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size() ||
                    value != std::floor(value) || value < 0.0 || value > 9.0e15)
                    throw io::InputError("column '" + name + "' needs a whole number, not " +
                                         io::quoteForMessage(text));
                job.*field = static_cast<std::int64_t>(value);
            }};
}

// A name written as it is: a non-empty word without commas, quotes or spaces (an
// empty cell would read back as a missing value).
JobColumn nameColumn(const std::string &name, std::string JobConfiguration::*field)
{
    return {name, [field](const JobConfiguration &job) { return job.*field; },
            [name, field](JobConfiguration &job, const std::string &text) {
                if (text.empty() || text.find_first_of(",\" \t") != std::string::npos)
                    throw io::InputError("column '" + name + "' holds " + io::quoteForMessage(text) + ", not a name");
                job.*field = text;
            }};
}

JobColumn dropoutColumn()
{
    return {"dropout", [](const JobConfiguration &job) { return dropoutText(job.dropout); },
            [](JobConfiguration &job, const std::string &text) {
                // In hundredths, as written: the key of a configuration read back must
                // equal the key it was written with.
                job.dropout = std::round(parseReal(text, "dropout") * 100.0) / 100.0;
            }};
}

// The columns after "family", in order: the shared ones, then the family's own.
const std::vector<JobColumn> &columnsOf(JobFamily family)
{
    using Job = JobConfiguration;
    const auto withShared = [](std::vector<JobColumn> own) {
        std::vector<JobColumn> columns = {integerColumn("batch_size", &Job::batchSize),
                                          choiceColumn("optimizer", &Job::optimizer, io::namesOf(kOptimizerStates)),
                                          choiceColumn("dtype", &Job::dtype, io::namesOf(kDtypeBytes)),
                                          integerColumn("steps", &Job::steps)};
        columns.insert(columns.end(), own.begin(), own.end());
        return columns;
    };
    static const std::vector<JobColumn> mlp = withShared(
        {integerColumn("input_features", &Job::inputFeatures), integerColumn("depth", &Job::depth),
         integerColumn("width", &Job::width),
         choiceColumn("width_pattern", &Job::widthPattern, {"uniform", "pyramid", "bottleneck"}),
         choiceColumn("activation", &Job::activation, kActivations), flagColumn("batch_norm", &Job::batchNorm),
         dropoutColumn(), integerColumn("classes", &Job::classes)});
    static const std::vector<JobColumn> cnn =
        withShared({integerColumn("input_channels", &Job::inputChannels), integerColumn("resolution", &Job::resolution),
                    integerColumn("blocks", &Job::blocks), integerColumn("base_channels", &Job::baseChannels),
                    integerColumn("kernel_size", &Job::kernelSize),
                    choiceColumn("downsampling", &Job::downsampling, {"stride", "pool"}),
                    flagColumn("batch_norm", &Job::batchNorm), integerColumn("head_hidden", &Job::headHidden),
                    integerColumn("classes", &Job::classes)});
    static const std::vector<JobColumn> transformer =
        withShared({integerColumn("layers", &Job::layers), integerColumn("d_model", &Job::dModel),
                    integerColumn("heads", &Job::heads), integerColumn("feed_forward", &Job::feedForward),
                    integerColumn("sequence_length", &Job::sequenceLength),
                    integerColumn("vocabulary", &Job::vocabulary), flagColumn("causal", &Job::causal),
                    choiceColumn("activation", &Job::activation, kActivations), dropoutColumn()});
    // Whole numbers here are the architecture's; the recipe follows them.
    static const std::vector<JobColumn> llm = {
        nameColumn("architecture", &Job::architecture),
        countColumn("parameters", &Job::parameters),
        integerColumn("hidden_size", &Job::hiddenSize),
        integerColumn("layers", &Job::layers),
        integerColumn("heads", &Job::heads),
        integerColumn("kv_heads", &Job::keyValueHeads),
        integerColumn("intermediate_size", &Job::intermediateSize),
        integerColumn("vocabulary", &Job::vocabulary),
        integerColumn("experts", &Job::experts),
        integerColumn("seq_len", &Job::sequenceLength),
        integerColumn("batch_size", &Job::batchSize),
        choiceColumn("dtype", &Job::dtype, {"float32", "bfloat16", "float16"}),
        choiceColumn("autocast", &Job::autocast, {"none", "bfloat16"}),
        integerColumn("lora_rank", &Job::loraRank),
        nameColumn("lora_targets", &Job::loraTargets),
        flagColumn("qlora", &Job::qlora),
        flagColumn("checkpointing", &Job::checkpointing),
        choiceColumn("optimizer", &Job::optimizer, languageModelOptimizers()),
        choiceColumn("mode", &Job::mode, {"training", "inference"}),
        integerColumn("generated", &Job::generated),
        integerColumn("gpus", &Job::gpus),
        choiceColumn("sharding", &Job::sharding, {"none", "ddp", "zero1", "zero2", "zero3", "fsdp"}),
        integerColumn("tensor_parallel", &Job::tensorParallel)};
    switch (family) {
    case JobFamily::Llm: return llm;
    case JobFamily::Cnn: return cnn;
    case JobFamily::Transformer: return transformer;
    case JobFamily::Mlp: break;
    }
    return mlp;
}

} // namespace

std::string_view jobFamilyName(JobFamily family)
{
    return io::nameOf(kJobFamilies, family);
}

JobFamily parseJobFamily(std::string_view name)
{
    return io::parseNamed(kJobFamilies, name, "job family");
}

int JobConfiguration::channelsOfBlock(int block) const
{
    return std::min(baseChannels << std::min(block, 20), kMaxChannels);
}

std::vector<std::string> JobConfiguration::columnNames(JobFamily family)
{
    std::vector<std::string> names = {"family"};
    for (const auto &column : columnsOf(family))
        names.push_back(column.name);
    return names;
}

std::vector<std::string> JobConfiguration::columnValues() const
{
    std::vector<std::string> values = {std::string(jobFamilyName(family))};
    for (const auto &column : columnsOf(family))
        values.push_back(column.write(*this));
    return values;
}

std::string JobConfiguration::key() const
{
    std::string key;
    for (const auto &value : columnValues())
        key += value + '|';
    return key;
}

JobConfiguration JobConfiguration::fromColumns(JobFamily family,
                                               const std::function<std::string(const std::string &)> &cell)
{
    JobConfiguration job;
    job.family = family;
    for (const auto &column : columnsOf(family))
        column.read(job, cell(column.name));
    return job;
}

int bytesPerElement(const std::string &dtype)
{
    return io::parseNamed(kDtypeBytes, dtype, "dtype");
}

const std::vector<std::string> &languageModelOptimizers()
{
    static const std::vector<std::string> names = {"adamw", "adam", "sgd", "adamw_8bit", "adafactor"};
    return names;
}

int optimizerStatesPerParameter(const std::string &optimizer)
{
    return io::parseNamed(kOptimizerStates, optimizer, "optimizer");
}

} // namespace gpumem::probe
