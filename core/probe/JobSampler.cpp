// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/JobSampler.h"

#include "architectures/ArchitectureLibrary.h"
#include "architectures/ParameterCount.h"
#include "data/SeededRandom.h"
#include "io/InputError.h"
#include "io/NamedValues.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

namespace gpumem::probe {

namespace {

// splitmix64: spreads (seed, index) so that neighbouring indices get unrelated streams.
std::uint64_t mix(std::uint64_t value)
{
    value += 0x9e3779b97f4a7c15ULL;
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ULL;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebULL;
    return value ^ (value >> 31);
}

class Draw
{
  public:
    explicit Draw(std::uint64_t seed)
        : mRandom(seed)
    {
    }
    int between(int low, int high) // inclusive
    {
        return low + static_cast<int>(mRandom.below(static_cast<std::uint64_t>(high - low + 1)));
    }
    // Log-uniform whole number in [low, high]: small and large sizes equally likely per octave.
    int logBetween(int low, int high)
    {
        const double exponent = std::log(low) + mRandom.unit() * (std::log(high + 1.0) - std::log(low));
        const int value = static_cast<int>(std::exp(exponent));
        return value < low ? low : (value > high ? high : value);
    }
    template <typename T> T pick(std::initializer_list<T> choices)
    {
        const auto index = mRandom.below(choices.size());
        return *(choices.begin() + index);
    }
    bool chance(double probability) { return mRandom.unit() < probability; }
    // A drop probability in hundredths, 0.05–0.50.
    double dropout() { return between(5, 50) / 100.0; }

  private:
    data::SeededRandom mRandom;
};

std::string drawDtype(Draw &draw, const std::string &device)
{
    if (device == "cuda")
        return draw.pick<const char *>({"float32", "float32", "float16", "bfloat16"});
    return draw.chance(0.15) ? "float64" : "float32";
}

void sampleMlp(Draw &draw, JobConfiguration &job)
{
    job.batchSize = draw.pick({8, 16, 32, 64, 128, 256, 512});
    job.inputFeatures = draw.logBetween(16, 2048);
    job.depth = draw.between(1, 6);
    job.width = draw.pick({32, 64, 128, 256, 512, 1024});
    job.widthPattern = draw.pick<const char *>({"uniform", "pyramid", "bottleneck"});
    job.activation =
        draw.pick<const char *>({"relu", "gelu", "tanh", "sigmoid", "leaky_relu", "elu", "silu", "softplus"});
    job.batchNorm = draw.chance(0.5);
    job.dropout = draw.chance(0.5) ? draw.dropout() : 0.0;
    job.classes = draw.logBetween(2, 200);
}

void sampleCnn(Draw &draw, JobConfiguration &job)
{
    job.batchSize = draw.pick({4, 8, 16, 32});
    job.inputChannels = draw.pick({1, 3});
    job.resolution = draw.pick({16, 24, 32, 48, 64});
    job.downsampling = draw.pick<const char *>({"stride", "pool"});
    // Pooling halves the map each block: keep at least a 2×2 map.
    int maxBlocks = 4;
    while (maxBlocks > 1 && (job.resolution >> maxBlocks) < 2)
        --maxBlocks;
    job.blocks = draw.between(1, maxBlocks);
    job.baseChannels = draw.pick({8, 16, 32});
    job.kernelSize = draw.pick({3, 3, 5});
    job.batchNorm = draw.chance(0.5);
    job.headHidden = draw.pick({0, 0, 64, 128, 256});
    job.classes = draw.logBetween(2, 100);
}

void sampleTransformer(Draw &draw, JobConfiguration &job)
{
    job.dModel = draw.pick({32, 64, 128, 192, 256});
    std::vector<int> heads;
    for (int count : {1, 2, 4, 8})
        if (job.dModel % count == 0)
            heads.push_back(count);
    job.heads = heads[static_cast<std::size_t>(draw.between(0, static_cast<int>(heads.size()) - 1))];
    job.layers = draw.between(1, 4);
    job.feedForward = job.dModel * draw.pick({2, 4});
    job.sequenceLength = draw.pick({16, 32, 64, 128});
    // At most 512 tokens a batch keeps each step cheap on a CPU.
    std::vector<int> batches;
    for (int batch : {2, 4, 8, 16})
        if (batch * job.sequenceLength <= 512)
            batches.push_back(batch);
    job.batchSize = batches[static_cast<std::size_t>(draw.between(0, static_cast<int>(batches.size()) - 1))];
    job.vocabulary = draw.logBetween(100, 2000);
    job.causal = draw.chance(0.5);
    job.activation = draw.pick<const char *>({"relu", "gelu"});
    job.dropout = draw.chance(0.5) ? 0.1 : 0.0;
}

void sampleGpuCnn(Draw &draw, JobConfiguration &job)
{
    job.batchSize = draw.pick({8, 16, 32, 64, 128, 256});
    job.inputChannels = 3;
    job.resolution = draw.pick({64, 96, 128, 160, 192, 224});
    job.downsampling = draw.pick<const char *>({"stride", "pool"});
    job.blocks = draw.between(3, 5);
    job.baseChannels = draw.pick({32, 64});
    job.kernelSize = draw.pick({3, 3, 5});
    job.batchNorm = draw.chance(0.7);
    job.headHidden = draw.pick({0, 0, 256, 512});
    job.classes = draw.pick({10, 100, 1000});
}

void sampleGpuTransformer(Draw &draw, JobConfiguration &job)
{
    job.dModel = draw.pick({256, 384, 512, 768, 1024});
    job.heads = job.dModel / 64;
    job.layers = draw.between(2, 8);
    job.feedForward = job.dModel * 4;
    job.sequenceLength = draw.pick({128, 256, 512, 1024});
    job.batchSize = draw.pick({8, 16, 32, 64, 128, 256});
    job.vocabulary = draw.pick({8000, 16000, 32000});
    job.causal = draw.chance(0.7);
    job.activation = draw.pick<const char *>({"relu", "gelu"});
    job.dropout = draw.chance(0.5) ? 0.1 : 0.0;
}

// Every shipped architecture with what its recipes may take.
std::vector<JobSampler::LanguageModel> shippedLanguageModels()
{
    std::vector<JobSampler::LanguageModel> models;
    for (const auto &name : architectures::architectureNames()) {
        const architectures::ArchitectureConfig config = architectures::resolveArchitecture(name);
        JobSampler::LanguageModel model;
        JobConfiguration &shape = model.shape;
        shape.family = JobFamily::Llm;
        shape.architecture = config.name;
        shape.parameters = architectures::parameterCount(config);
        shape.hiddenSize = static_cast<int>(config.hiddenSize);
        shape.layers = static_cast<int>(config.layers);
        shape.heads = static_cast<int>(config.attentionHeads);
        shape.keyValueHeads = static_cast<int>(config.keyValueHeads);
        // A mixture's experts are what its MLP is made of: each expert's width stands for it.
        shape.intermediateSize =
            static_cast<int>(config.experts > 0 ? config.expertIntermediateSize : config.intermediateSize);
        shape.vocabulary = static_cast<int>(config.vocabulary);
        shape.experts = static_cast<int>(config.experts);
        model.maxPositions = static_cast<int>(config.maxPositions);
        model.generates = config.family != architectures::Family::Bert;
        if (config.family == architectures::Family::Llama)
            for (std::int64_t degree : {2, 4})
                if (config.attentionHeads % degree == 0 && config.keyValueHeads % degree == 0)
                    model.tensorParallelDegrees.push_back(static_cast<int>(degree));
        for (const auto &target : architectures::defaultLoraTargets(config.family))
            model.defaultLoraTargets += (model.defaultLoraTargets.empty() ? "" : "+") + target;
        models.push_back(std::move(model));
    }
    if (models.empty())
        throw io::InputError(io::parameter("family") +
                             " llm: no shipped architectures found (resources/architectures)");
    return models;
}

// The recipe of an llm job on model: what `gpumem estimate --config` is asked.
void sampleRecipe(Draw &draw, const JobSampler::LanguageModel &model, JobConfiguration &job)
{
    // 128 tokens up to 8,192 or the model's positions, log-uniform, in multiples of 64.
    const int longest = std::min(8192, model.maxPositions);
    job.sequenceLength = std::max(128, draw.logBetween(128, longest) / 64 * 64);
    job.batchSize = draw.logBetween(1, 32);
    switch (draw.pick({0, 0, 1, 2, 3})) {
    case 0: job.dtype = "bfloat16"; break;
    case 1: job.dtype = "float16"; break;
    case 2: job.dtype = "float32"; break;
    default:
        job.dtype = "float32";
        job.autocast = "bfloat16";
        break;
    }
    const bool inference = draw.chance(0.15);
    job.mode = inference ? "inference" : "training";
    if (inference) {
        // The prompt and the generated tokens together stay within the model's positions.
        std::vector<int> lengths;
        for (int generated : {0, 32, 128, 512})
            if (job.sequenceLength + generated <= model.maxPositions)
                lengths.push_back(generated);
        job.generated = lengths[static_cast<std::size_t>(draw.between(0, static_cast<int>(lengths.size()) - 1))];
        // Drawn for every model alike, so that one model's rule leaves the others' draws as they are.
        if (!model.generates)
            job.generated = 0;
        // Inference spreads a model over GPUs by tensor parallelism alone.
        std::vector<int> degrees = {1};
        degrees.insert(degrees.end(), model.tensorParallelDegrees.begin(), model.tensorParallelDegrees.end());
        job.tensorParallel = degrees[static_cast<std::size_t>(draw.between(0, static_cast<int>(degrees.size()) - 1))];
        job.gpus = job.tensorParallel;
        return;
    }
    const int recipe = draw.pick({0, 0, 1, 1, 2}); // full fine-tune, LoRA, QLoRA
    if (recipe > 0) {
        job.loraRank = draw.pick({4, 8, 16, 32, 64});
        job.loraTargets = draw.chance(0.5) ? model.defaultLoraTargets : std::string("all-linear");
    }
    if (recipe == 2) {
        job.qlora = true;
        // QLoRA computes in half precision (bnb_4bit_compute_dtype) on half-precision weights.
        if (job.dtype == "float32")
            job.dtype = job.autocast == "bfloat16" || draw.chance(0.5) ? "bfloat16" : "float16";
        job.autocast = "none";
    }
    job.checkpointing = draw.chance(0.5);
    job.optimizer = draw.pick<const char *>({"adamw", "adamw", "adam", "sgd", "adamw_8bit", "adafactor"});
    job.gpus = draw.pick({1, 2, 4, 8});
    if (job.gpus > 1) {
        job.sharding = draw.pick<const char *>({"ddp", "zero1", "zero2", "zero3", "fsdp"});
        // DeepSpeed's ZeRO keeps its own float32 optimizer state: Adam(W) or SGD.
        if (job.sharding.rfind("zero", 0) == 0 && (job.optimizer == "adamw_8bit" || job.optimizer == "adafactor"))
            job.optimizer = draw.pick<const char *>({"adamw", "adam", "sgd"});
        std::vector<int> degrees = {1, 1};
        for (int degree : model.tensorParallelDegrees)
            if (degree <= job.gpus)
                degrees.push_back(degree);
        job.tensorParallel = degrees[static_cast<std::size_t>(draw.between(0, static_cast<int>(degrees.size()) - 1))];
    }
}

constexpr io::NamedValues<JobSizes, 2> kJobSizes{{{"cpu", JobSizes::Cpu}, {"gpu", JobSizes::Gpu}}};

} // namespace

std::string_view jobSizesName(JobSizes sizes)
{
    return io::nameOf(kJobSizes, sizes);
}

JobSizes parseJobSizes(std::string_view name)
{
    return io::parseNamedOr(kJobSizes, name, [](const std::string &quoted) {
        return io::parameter("sizes") + " takes cpu or gpu, not " + quoted;
    });
}

JobSampler::JobSampler(JobFamily family, std::string device, std::uint64_t seed, int steps, JobSizes sizes)
    : mFamily(family)
    , mDevice(std::move(device))
    , mSeed(seed)
    , mSteps(steps)
    , mSizes(sizes)
{
    if (mFamily == JobFamily::Llm)
        mLanguageModels = shippedLanguageModels();
}

JobConfiguration JobSampler::sampleLanguageModel(std::uint64_t index) const
{
    // Device, steps and sizes do not shape a language-model job: (seed, index) alone draws it.
    Draw draw(mix(mix(mSeed) ^ mix(static_cast<std::uint64_t>(mFamily) + 1) ^ index));
    const auto chosen = static_cast<std::size_t>(draw.between(0, static_cast<int>(mLanguageModels.size()) - 1));
    const LanguageModel &model = mLanguageModels[chosen];
    JobConfiguration job = model.shape;
    job.steps = 0;
    job.optimizer = "adamw";
    sampleRecipe(draw, model, job);
    return job;
}

JobConfiguration JobSampler::sample(std::uint64_t index) const
{
    if (mFamily == JobFamily::Llm)
        return sampleLanguageModel(index);
    // The CPU sizes keep the draws of the files made before the GPU sizes existed.
    const std::uint64_t sizesSalt = mSizes == JobSizes::Gpu ? mix(0x6770755f73697a65ULL) : 0;
    Draw draw(mix(mix(mSeed) ^ mix(static_cast<std::uint64_t>(mFamily) + 1) ^ index) ^ sizesSalt);
    JobConfiguration job;
    job.family = mFamily;
    job.steps = mSteps;
    const bool gpu = mSizes == JobSizes::Gpu;
    switch (mFamily) {
    case JobFamily::Mlp: sampleMlp(draw, job); break; // MLPs people train are this size already
    case JobFamily::Cnn: gpu ? sampleGpuCnn(draw, job) : sampleCnn(draw, job); break;
    case JobFamily::Transformer: gpu ? sampleGpuTransformer(draw, job) : sampleTransformer(draw, job); break;
    case JobFamily::Llm: break; // drawn above
    }
    job.optimizer = draw.pick<const char *>({"sgd", "sgd_momentum", "adam", "adamw"});
    job.dtype = drawDtype(draw, mDevice);
    return job;
}

} // namespace gpumem::probe
