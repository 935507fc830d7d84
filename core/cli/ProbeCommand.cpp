// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/ProbeCommand.h"

#include "cli/CommandParser.h"
#include "cli/ShardOptions.h"
#include "cli/TrainingReporter.h"
#include "estimate/GpuProfile.h"
#include "io/InputError.h"
#include "io/OutputPlan.h"
#include "probe/ProbeRunner.h"
#include "workflows/ProbeWorkflow.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <unistd.h>

namespace gpumem::cli {

namespace {

const char *const kDescription =
    "Generates random but realistic training jobs, builds each with LibTorch, runs a few training\n"
    "steps (forward, cross-entropy loss, backward, optimizer step) and records the peak memory, one CSV\n"
    "row per job. The file is a dataset for `gpumem train` and `gpumem compare`.\n"
    "\n"
    "Families and what is drawn:\n"
    "  mlp          input features, depth, width and pattern (uniform, pyramid, bottleneck),\n"
    "               activation, batch norm, dropout, classes\n"
    "  cnn          input channels and resolution, conv blocks, base channels (doubling per block),\n"
    "               kernel size, downsampling (stride-2 conv or max pooling), batch norm, classifier head\n"
    "  transformer  layers, d_model, heads, feed-forward size, sequence length, vocabulary,\n"
    "               causal mask or not, activation, dropout\n"
    "  all three    batch size, optimizer (sgd, sgd_momentum, adam, adamw), dtype (cpu: float32 or\n"
    "               float64; cuda: float32, float16 or bfloat16)\n"
    "  llm          a shipped language model (every name `gpumem estimate --config` takes) under a\n"
    "               recipe: sequence length (128 to 8192 or the model's positions, multiples of 64),\n"
    "               batch per GPU 1-32, bfloat16, float16, float32 or float32 under bfloat16 autocast,\n"
    "               full fine-tune, LoRA (rank 4-64 on peft's default targets or all-linear) or QLoRA,\n"
    "               gradient checkpointing, optimizer (adamw, adam, sgd, adamw_8bit, adafactor), some\n"
    "               inference with generated tokens, 1-8 GPUs sharded by ddp, zero1-3 or fsdp and, for\n"
    "               the Llama family, tensor parallel 2 or 4. Needs --gpu: each job is the estimate\n"
    "               of `gpumem estimate --config` on one GPU of the profile, with its breakdown and\n"
    "               fits; a recipe the estimate refuses is an invalid row saying why\n"
    "\n"
    "Measurement: on the CPU, a tracking allocator counts the bytes of live tensors (exact; LibTorch\n"
    "runs on one thread, so the same seed gives the same rows). On CUDA (builds against a CUDA\n"
    "LibTorch), the caching allocator's peak allocated and reserved bytes, reset between jobs, and the\n"
    "CUDA context overhead measured once. Peaks cover the training steps: network, gradients,\n"
    "optimizer state, batch and activations.\n"
    "\n"
    "--gpu PROFILE traces each job instead, as `gpumem estimate` traces a model: two small batches on the\n"
    "CPU, extrapolated to the job's batch and replayed through the CUDA caching-allocator model, so the\n"
    "cost does not grow with the batch. peak_allocated_mib is then the traced peak of live tensors, and\n"
    "the rows gain simulated_gpu, simulated_reserved_mib (the caching allocator's peak) and\n"
    "simulated_device_mib (that plus the profile's CUDA context and workspace: what nvidia-smi would\n"
    "show). --sizes gpu draws jobs of the sizes people train on GPUs (CNNs at 64-224 px with 32-512\n"
    "channels, Transformers with d_model 256-1024 over 128-1024 tokens, batches 8-256); on the CPU it\n"
    "needs --gpu.\n"
    "\n"
    "Each row: the configuration, layer_sequence (GPUMemNet format [(type, activations, parameters)]),\n"
    "total_parameters, total_activations, device, libtorch, peak_allocated_mib, peak_reserved_mib and\n"
    "cuda_context_mib (CUDA only), status (ok, out_of_memory, invalid) and message. Failed jobs are\n"
    "recorded with empty peaks, never dropped. Rows are written whole and flushed to FILE.csv.partial,\n"
    "which replaces FILE.csv when the run finishes; --resume continues an interrupted or shorter run\n"
    "(a half-written last line is dropped) and skips configurations already measured. See docs/probe.md.";

void showProgress(std::ostream &err, bool terminal, const probe::ProbeProgress &progress,
                  std::chrono::steady_clock::time_point &lastShown)
{
    const auto now = std::chrono::steady_clock::now();
    const bool last = progress.done == progress.total;
    const double sinceShown = std::chrono::duration<double>(now - lastShown).count();
    if (!last && sinceShown < (terminal ? 0.1 : 10.0))
        return;
    lastShown = now;
    const double done = progress.total == 0 ? 1.0 : static_cast<double>(progress.done) / progress.total;
    const double rate = progress.seconds > 0.0 ? static_cast<double>(progress.done) / progress.seconds : 0.0;
    const double remaining = rate > 0.0 ? static_cast<double>(progress.total - progress.done) / rate : 0.0;
    char line[200];
    if (terminal) {
        constexpr int width = 28;
        const int filled = static_cast<int>(done * width);
        std::string bar(static_cast<std::size_t>(filled), '=');
        bar += filled < width ? ">" : "";
        bar.resize(width, ' ');
        std::snprintf(line, sizeof line, "\r[%s] %3.0f%%  %llu/%llu jobs  %.2f jobs/s  ETA %s   ", bar.c_str(),
                      100.0 * done, static_cast<unsigned long long>(progress.done),
                      static_cast<unsigned long long>(progress.total), rate, formatDuration(remaining).c_str());
        err << line << (last ? "\n" : "") << std::flush;
    } else {
        std::snprintf(line, sizeof line, "%llu/%llu jobs  %.2f jobs/s  ETA %s\n",
                      static_cast<unsigned long long>(progress.done), static_cast<unsigned long long>(progress.total),
                      rate, formatDuration(remaining).c_str());
        err << line << std::flush;
    }
}

// Shows the run's progress on stderr (see showProgress).
class ProbeReporter : public probe::ProbeObserver
{
  public:
    ProbeReporter(std::ostream &err, bool terminal)
        : mErr(err)
        , mTerminal(terminal)
        , mLastShown(std::chrono::steady_clock::now() - std::chrono::hours(1))
    {
    }

    void jobFinished(const probe::ProbeProgress &progress) override
    {
        showProgress(mErr, mTerminal, progress, mLastShown);
    }

  private:
    std::ostream &mErr;
    bool mTerminal;
    std::chrono::steady_clock::time_point mLastShown;
};

// The options of `gpumem probe` as the command line gives them.
struct ProbeCommandOptions
{
    workflows::ProbeConfiguration configuration;
    std::optional<std::string> family;
    std::optional<std::uint64_t> count;
    std::optional<std::string> outPath;
    std::uint64_t steps = 3;
    std::optional<std::uint64_t> memoryLimit;
    std::string sizes = "cpu";
    std::optional<std::string> shard;
    std::vector<std::string> mergeForHelp; // the files are taken out before parsing; declared for --help
};

void addProbeOptions(CLI::App &app, ProbeCommandOptions &command)
{
    probe::ProbeOptions &options = command.configuration.options;
    app.add_option("--family", command.family, "mlp, cnn, transformer or llm")->type_name("F");
    app.add_option("--count", command.count, "configurations to draw, at most 1000000 (duplicates are measured once)")
        ->type_name("N")
        ->transform(wholeNumber(1));
    app.add_option("--out", command.outPath, "the dataset to write")->type_name("FILE.csv");
    options.device = "cpu";
    app.add_option("--device", options.device, "cpu (default) or cuda")
        ->type_name("D")
        ->check(textCheckedBy([](const std::string &text) {
            if (text != "cpu" && text != "cuda")
                throw io::InputError("--device takes cpu or cuda, not " + io::quoteForMessage(text));
        }));
    options.seed = 42;
    app.add_option("--seed", options.seed, "seed of the configuration draws (default 42): same seed, same rows")
        ->type_name("S")
        ->transform(wholeNumber());
    // The ranges go without a description: CLI11 would append it to the value name in the help.
    app.add_option("--steps", command.steps, "training steps per job (default 3)")
        ->type_name("N")
        ->transform(wholeNumber(1))
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1000}).description(""));
    // At most 2^40 MiB, so that the limit in bytes still fits 64 bits.
    app.add_option("--memory-limit", command.memoryLimit,
                   "cpu: record jobs needing more than MIB MiB as out_of_memory (default: none)")
        ->type_name("MIB")
        ->transform(wholeNumber(1))
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40).description(""));
    app.add_option("--gpu", command.configuration.gpu,
                   "trace and extrapolate every job and simulate it on this GPU profile (see below)")
        ->type_name("NAME|FILE");
    app.add_option("--sizes", command.sizes, "cpu (default: jobs a CPU runs in well under a second) or gpu (see below)")
        ->type_name("S");
    app.add_flag("--resume", options.resume,
                 "keep the rows already in FILE.csv (or FILE.csv.partial) and measure only the rest");
    app.add_option("--shard", command.shard,
                   "measure only slice I of N (0-based) of the job list, e.g. on a cluster's job array")
        ->type_name("I/N");
    app.add_option("--merge", command.mergeForHelp,
                   "join the files of the shards into --out, as one whole run writes it (give the run's other options)")
        ->type_name("PART.csv…");
}

// Refuses an output that would replace the profile, or that a run cannot resume
// and rename into place (a device or a pipe), before the first job.
void checkOutput(probe::ProbeOptions &options, const std::optional<std::string> &gpu, bool merging)
{
    io::OutputPlan outputs;
    if (gpu)
        if (const std::string profileFile = estimate::gpuProfileFile(*gpu); !profileFile.empty())
            outputs.addInput(profileFile, "--gpu");
    outputs.addOutputFile(options.outPath, "--out");
    outputs.check();
    const std::string written = workflows::resumableOutputPath(options.outPath);
    if (!merging)
        options.outPath = written; // a symlink's target, which the summary names
}

// Completes command.configuration from the options given as text; throws io::InputError for what is missing.
void completeConfiguration(ProbeCommandOptions &command, bool merging)
{
    if (!command.family)
        throw io::InputError("missing --family mlp|cnn|transformer|llm (see 'gpumem probe --help')");
    if (!command.count)
        throw io::InputError("missing --count N (see 'gpumem probe --help')");
    if (!command.outPath)
        throw io::InputError("missing --out FILE.csv (see 'gpumem probe --help')");
    probe::ProbeOptions &options = command.configuration.options;
    options.family = probe::parseJobFamily(*command.family);
    options.count = *command.count;
    probe::checkProbeCount(options.count);
    options.outPath = *command.outPath;
    checkOutput(options, command.configuration.gpu, merging);
    options.steps = static_cast<int>(command.steps);
    if (command.memoryLimit)
        options.memoryLimitBytes = *command.memoryLimit << 20;
    options.sizes = probe::parseJobSizes(command.sizes);
    if (command.shard) {
        const Shard slice = parseShard(*command.shard);
        options.shardIndex = slice.index;
        options.shardCount = slice.count;
    }
}

} // namespace

int runProbe(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    std::vector<std::string> remaining = arguments;
    // Taken out before parsing: the files after --merge run up to the next option.
    const std::vector<std::string> mergeFiles = takeMergeFiles(remaining);
    CommandParser parser("gpumem probe",
                         "gpumem probe --family mlp|cnn|transformer|llm --count N --out FILE.csv [options]",
                         kDescription);
    ProbeCommandOptions command;
    addProbeOptions(parser.app(), command);
    if (!parser.parse(remaining, out))
        return 0;
    completeConfiguration(command, !mergeFiles.empty());
    const workflows::ProbeConfiguration &configuration = command.configuration;
    const std::string &outPath = configuration.options.outPath;
    if (!mergeFiles.empty()) {
        io::OutputPlan outputs;
        for (const auto &file : mergeFiles)
            outputs.addInput(file, "--merge");
        if (configuration.gpu)
            if (const std::string profileFile = estimate::gpuProfileFile(*configuration.gpu); !profileFile.empty())
                outputs.addInput(profileFile, "--gpu");
        outputs.addOutputFile(outPath, "--out");
        outputs.check();
        workflows::mergeProbeShards(configuration, mergeFiles);
        out << "merged " << mergeFiles.size() << " files into " << outPath << '\n';
        return 0;
    }

    ProbeReporter reporter(err, ::isatty(2) != 0);
    const probe::ProbeSummary summary = workflows::probeJobs(configuration, &reporter);
    out << "measured " << summary.measured << " jobs in " << formatDuration(summary.seconds) << " (ok " << summary.ok
        << ", out_of_memory " << summary.outOfMemory << ", invalid " << summary.invalid << ")";
    if (summary.skipped > 0)
        out << ", skipped " << summary.skipped << " already measured";
    out << '\n';
    if (summary.repairedTail)
        out << "dropped a half-written last line of the earlier run\n";
    out << "wrote " << outPath << '\n';
    return 0;
}

} // namespace gpumem::cli
