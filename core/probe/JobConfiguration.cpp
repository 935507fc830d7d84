// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/JobConfiguration.h"

#include "io/InputError.h"
#include "io/NumberText.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace gpumem::probe {

namespace {

const std::vector<std::string> &commonColumns()
{
    static const std::vector<std::string> columns = {"family", "batch_size", "optimizer", "dtype", "steps"};
    return columns;
}

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

const std::vector<std::string> kOptimizers = {"sgd", "sgd_momentum", "adam", "adamw"};
const std::vector<std::string> kDtypes = {"float32", "float64", "float16", "bfloat16"};
const std::vector<std::string> kActivations = {"relu",       "gelu", "tanh", "sigmoid",
                                               "leaky_relu", "elu",  "silu", "softplus"};

} // namespace

std::string_view jobFamilyName(JobFamily family)
{
    switch (family) {
    case JobFamily::Mlp: return "mlp";
    case JobFamily::Cnn: return "cnn";
    case JobFamily::Transformer: return "transformer";
    }
    return "mlp";
}

JobFamily parseJobFamily(std::string_view name)
{
    for (JobFamily family : {JobFamily::Mlp, JobFamily::Cnn, JobFamily::Transformer})
        if (name == jobFamilyName(family))
            return family;
    throw io::InputError("unknown job family " + io::quoteForMessage(std::string(name)) +
                         " (known: mlp, cnn, transformer)");
}

int JobConfiguration::channelsOfBlock(int block) const
{
    return std::min(baseChannels << std::min(block, 20), kMaxChannels);
}

std::vector<std::string> JobConfiguration::columnNames(JobFamily family)
{
    std::vector<std::string> names = commonColumns();
    switch (family) {
    case JobFamily::Mlp:
        names.insert(names.end(), {"input_features", "depth", "width", "width_pattern", "activation", "batch_norm",
                                   "dropout", "classes"});
        break;
    case JobFamily::Cnn:
        names.insert(names.end(), {"input_channels", "resolution", "blocks", "base_channels", "kernel_size",
                                   "downsampling", "batch_norm", "head_hidden", "classes"});
        break;
    case JobFamily::Transformer:
        names.insert(names.end(), {"layers", "d_model", "heads", "feed_forward", "sequence_length", "vocabulary",
                                   "causal", "activation", "dropout"});
        break;
    }
    return names;
}

std::vector<std::string> JobConfiguration::columnValues() const
{
    using std::to_string;
    std::vector<std::string> values = {std::string(jobFamilyName(family)), to_string(batchSize), optimizer, dtype,
                                       to_string(steps)};
    switch (family) {
    case JobFamily::Mlp:
        values.insert(values.end(), {to_string(inputFeatures), to_string(depth), to_string(width), widthPattern,
                                     activation, batchNorm ? "1" : "0", dropoutText(dropout), to_string(classes)});
        break;
    case JobFamily::Cnn:
        values.insert(values.end(), {to_string(inputChannels), to_string(resolution), to_string(blocks),
                                     to_string(baseChannels), to_string(kernelSize), downsampling,
                                     batchNorm ? "1" : "0", to_string(headHidden), to_string(classes)});
        break;
    case JobFamily::Transformer:
        values.insert(values.end(), {to_string(layers), to_string(dModel), to_string(heads), to_string(feedForward),
                                     to_string(sequenceLength), to_string(vocabulary), causal ? "1" : "0", activation,
                                     dropoutText(dropout)});
        break;
    }
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
    const auto integer = [&](const char *column) { return parseInteger(cell(column), column); };
    const auto flag = [&](const char *column) { return parseInteger(cell(column), column) != 0; };
    job.batchSize = integer("batch_size");
    job.optimizer = parseChoice(cell("optimizer"), "optimizer", kOptimizers);
    job.dtype = parseChoice(cell("dtype"), "dtype", kDtypes);
    job.steps = integer("steps");
    switch (family) {
    case JobFamily::Mlp:
        job.inputFeatures = integer("input_features");
        job.depth = integer("depth");
        job.width = integer("width");
        job.widthPattern = parseChoice(cell("width_pattern"), "width_pattern", {"uniform", "pyramid", "bottleneck"});
        job.activation = parseChoice(cell("activation"), "activation", kActivations);
        job.batchNorm = flag("batch_norm");
        job.dropout = parseReal(cell("dropout"), "dropout");
        job.classes = integer("classes");
        break;
    case JobFamily::Cnn:
        job.inputChannels = integer("input_channels");
        job.resolution = integer("resolution");
        job.blocks = integer("blocks");
        job.baseChannels = integer("base_channels");
        job.kernelSize = integer("kernel_size");
        job.downsampling = parseChoice(cell("downsampling"), "downsampling", {"stride", "pool"});
        job.batchNorm = flag("batch_norm");
        job.headHidden = integer("head_hidden");
        job.classes = integer("classes");
        break;
    case JobFamily::Transformer:
        job.layers = integer("layers");
        job.dModel = integer("d_model");
        job.heads = integer("heads");
        job.feedForward = integer("feed_forward");
        job.sequenceLength = integer("sequence_length");
        job.vocabulary = integer("vocabulary");
        job.causal = flag("causal");
        job.activation = parseChoice(cell("activation"), "activation", kActivations);
        job.dropout = parseReal(cell("dropout"), "dropout");
        break;
    }
    // The key of a configuration read back must equal the key it was written with.
    job.dropout = std::round(job.dropout * 100.0) / 100.0;
    return job;
}

int bytesPerElement(const std::string &dtype)
{
    if (dtype == "float64")
        return 8;
    if (dtype == "float32")
        return 4;
    if (dtype == "float16" || dtype == "bfloat16")
        return 2;
    throw io::InputError("unknown dtype " + io::quoteForMessage(dtype) +
                         " (known: float32, float64, float16, bfloat16)");
}

int optimizerStatesPerParameter(const std::string &optimizer)
{
    if (optimizer == "sgd")
        return 0;
    if (optimizer == "sgd_momentum")
        return 1;
    if (optimizer == "adam" || optimizer == "adamw")
        return 2;
    throw io::InputError("unknown optimizer " + io::quoteForMessage(optimizer) +
                         " (known: sgd, sgd_momentum, adam, adamw)");
}

} // namespace gpumem::probe
