// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/ProbeCommand.h"

#include "cli/ArgumentParser.h"
#include "cli/ShardOptions.h"
#include "cli/TrainingReporter.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/OutputPaths.h"
#include "io/OutputPlan.h"
#include "probe/ProbeMerge.h"
#include "probe/ProbeRunner.h"

#include <chrono>
#include <cstdio>
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
    "  all          batch size, optimizer (sgd, sgd_momentum, adam, adamw), dtype (cpu: float32 or\n"
    "               float64; cuda: float32, float16 or bfloat16)\n"
    "\n"
    "Measurement: on the CPU, a tracking allocator counts the bytes of live tensors (exact; LibTorch\n"
    "runs on one thread, so the same seed gives the same rows). On CUDA (builds against a CUDA\n"
    "LibTorch), the caching allocator's peak allocated and reserved bytes, reset between jobs, and the\n"
    "CUDA context overhead measured once. Peaks cover the training steps: network, gradients,\n"
    "optimizer state, batch and activations.\n"
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

} // namespace

int runProbe(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    std::vector<std::string> remaining = arguments;
    const std::vector<std::string> mergeFiles = takeMergeFiles(remaining);
    ArgumentParser parser("gpumem probe --family mlp|cnn|transformer --count N --out FILE.csv [options]", kDescription);
    parser.option("family", "F", "mlp, cnn or transformer")
        .option("count", "N", "configurations to draw (duplicates are measured once)")
        .option("out", "FILE.csv", "the dataset to write")
        .option("device", "D", "cpu (default) or cuda")
        .option("seed", "S", "seed of the configuration draws (default 42): same seed, same rows")
        .option("steps", "N", "training steps per job (default 3)")
        .option("memory-limit", "MIB", "cpu: record jobs needing more than MIB MiB as out_of_memory (default: none)")
        .flag("resume", "keep the rows already in FILE.csv (or FILE.csv.partial) and measure only the rest")
        .option("shard", "I/N", "measure only slice I of N (0-based) of the job list, e.g. on a cluster's job array")
        .option("merge", "PART.csv…",
                "join the files of the shards into --out, as one whole run writes it (give the run's other options)");
    const ParsedArguments parsed = parser.parse(remaining);
    if (parsed.helpRequested()) {
        out << parser.helpText();
        return 0;
    }
    if (!parsed.has("family"))
        throw io::InputError("missing --family mlp|cnn|transformer (see 'gpumem probe --help')");
    if (!parsed.has("count"))
        throw io::InputError("missing --count N (see 'gpumem probe --help')");
    if (!parsed.has("out"))
        throw io::InputError("missing --out FILE.csv (see 'gpumem probe --help')");

    probe::ProbeOptions options;
    options.family = probe::parseJobFamily(parsed.value("family"));
    options.count = parseWholeNumber(parsed.value("count"), "--count", true);
    options.outPath = parsed.value("out");
    {
        // Checked before the first job: the folder must take the file, and the file must be one the
        // run can resume and rename into place (not a device or a pipe).
        io::OutputPlan outputs;
        outputs.addOutputFile(options.outPath, "--out");
        outputs.check();
        const io::FileDestination destination = io::resolveFileDestination(options.outPath);
        if (destination.method != io::FileDestination::Method::Replace)
            throw io::InputError(options.outPath, 0, 0,
                                 "is not a regular file; probe writes a dataset it can resume, so give a file path");
        if (mergeFiles.empty())
            options.outPath = destination.path; // a symlink's target: the link itself stays
    }
    options.device = parsed.value("device", "cpu");
    if (options.device != "cpu" && options.device != "cuda")
        throw io::InputError("--device takes cpu or cuda, not " + io::quoteForMessage(options.device));
    options.seed = parseWholeNumber(parsed.value("seed", "42"), "--seed");
    const std::uint64_t steps = parseWholeNumber(parsed.value("steps", "3"), "--steps", true);
    if (steps > 1000)
        throw io::InputError("--steps takes at most 1000");
    options.steps = static_cast<int>(steps);
    if (parsed.has("memory-limit")) {
        const std::uint64_t limit = parseWholeNumber(parsed.value("memory-limit"), "--memory-limit", true);
        if (limit > (std::uint64_t{1} << 40))
            throw io::InputError("--memory-limit is too large");
        options.memoryLimitBytes = limit << 20;
    }
    options.resume = parsed.has("resume");
    if (parsed.has("shard")) {
        const Shard shard = parseShard(parsed.value("shard"));
        options.shardIndex = shard.index;
        options.shardCount = shard.count;
    }
    if (!mergeFiles.empty()) {
        io::OutputPlan outputs;
        for (const auto &file : mergeFiles)
            outputs.addInput(file, "--merge");
        outputs.addOutputFile(options.outPath, "--out");
        outputs.check();
        io::writeFileAtomically(options.outPath, probe::mergeProbeFiles(mergeFiles, options));
        out << "merged " << mergeFiles.size() << " files into " << options.outPath << '\n';
        return 0;
    }

    const bool terminal = ::isatty(2) != 0;
    auto lastShown = std::chrono::steady_clock::now() - std::chrono::hours(1);
    probe::ProbeRunner runner(options);
    const probe::ProbeSummary summary =
        runner.run([&](const probe::ProbeProgress &progress) { showProgress(err, terminal, progress, lastShown); });

    out << "measured " << summary.measured << " jobs in " << formatDuration(summary.seconds) << " (ok " << summary.ok
        << ", out_of_memory " << summary.outOfMemory << ", invalid " << summary.invalid << ")";
    if (summary.skipped > 0)
        out << ", skipped " << summary.skipped << " already measured";
    out << '\n';
    if (summary.repairedTail)
        out << "dropped a half-written last line of the earlier run\n";
    out << "wrote " << options.outPath << '\n';
    return 0;
}

} // namespace gpumem::cli
