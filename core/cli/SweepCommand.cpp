// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/SweepCommand.h"

#include "cli/ArgumentParser.h"
#include "cli/DataOptions.h"
#include "cli/MetricsFormat.h"
#include "cli/ModelOptions.h"
#include "cli/ShardOptions.h"
#include "cli/TrainingReporter.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/OutputPaths.h"
#include "io/OutputPlan.h"
#include "io/Sha256.h"
#include "models/RegressorRegistry.h"
#include "runs/RunTraining.h"
#include "runs/SweepRecords.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <unistd.h>

namespace gpumem::cli {

namespace {

const char *const kSummary =
    "Trains one run per trial of a hyperparameter sweep and writes one JSON Lines record per run\n"
    "(hyperparameters, per-batch and per-epoch curves, train and validation metrics, duration,\n"
    "seed, stop reason) to RUNS.jsonl, rewritten atomically as each run finishes. A grid tries every\n"
    "combination of the --param values, the first --param varying slowest; --random N tries N distinct\n"
    "combinations drawn with --seed. Each run holds out --test-fraction of the rows (seeded, as\n"
    "`gpumem train` does) and reports its validation metrics on them.\n"
    "\n"
    "On a cluster, --shard I/N runs the trials whose number leaves remainder I when divided by N;\n"
    "`gpumem sweep --merge PART… --out ALL.jsonl` joins the parts into the file one run of the\n"
    "whole sweep writes (ordered by trial), refusing parts of other sweeps, overlaps and gaps.\n"
    "See packaging/slurm/sweep.sbatch.";

// The --param values as typed: list() splits "epochs=5,10" at the comma, so a
// piece without "=" continues the parameter before it.
std::vector<runs::SweepParameter> sweepParameters(const ParsedArguments &parsed)
{
    std::vector<runs::SweepParameter> parameters;
    for (const auto &piece : parsed.list("param")) {
        if (piece.find('=') != std::string::npos)
            parameters.push_back(runs::parseSweepParameter(piece));
        else if (parameters.empty())
            throw io::InputError("--param takes NAME=V1,V2,…, not " + io::quoteForMessage(piece));
        else
            parameters.back().values.push_back(piece);
    }
    return parameters;
}

std::string fileDigest(const std::string &path)
{
    std::ifstream stream(path, std::ios::binary);
    if (!stream)
        throw io::InputError(path, 0, 0, std::string("cannot read: ") + std::strerror(errno));
    io::Sha256 digest;
    char buffer[1 << 16];
    while (stream.read(buffer, sizeof buffer) || stream.gcount() > 0)
        digest.update(buffer, static_cast<std::size_t>(stream.gcount()));
    return digest.hexDigest();
}

std::string assignmentsText(const runs::SweepTrial &trial)
{
    std::string text;
    for (const auto &[name, value] : trial.assignments)
        text += (text.empty() ? "" : " ") + name + "=" + value;
    return text;
}

int runMerge(std::vector<std::string> arguments, const std::vector<std::string> &files, std::ostream &out)
{
    ArgumentParser parser("gpumem sweep --merge PART.jsonl… --out ALL.jsonl",
                          "Joins the JSON Lines files of a sweep's shards into the file one run of the whole sweep "
                          "writes.");
    parser.option("out", "ALL.jsonl", "the merged file (replaced atomically)");
    const ParsedArguments parsed = parser.parse(arguments);
    if (parsed.helpRequested()) {
        out << parser.helpText();
        return 0;
    }
    if (!parsed.has("out"))
        throw io::InputError("missing --out ALL.jsonl (see 'gpumem sweep --help')");
    io::OutputPlan outputs;
    for (const auto &file : files)
        outputs.addInput(file, "--merge");
    outputs.addOutputFile(parsed.value("out"), "--out");
    outputs.check();
    const std::string merged = runs::mergeSweepFiles(files);
    io::writeFileAtomically(parsed.value("out"), merged);
    const auto lines = static_cast<std::size_t>(std::count(merged.begin(), merged.end(), '\n'));
    out << "merged " << lines << " runs from " << files.size() << " files into " << parsed.value("out") << '\n';
    return 0;
}

// Writes the finished runs as they come: a regular file is rewritten atomically
// with every record so far, so it always holds whole lines and a crash keeps the
// runs already done; a device or pipe (/dev/stdout) receives each line once.
class RunsOutput
{
  public:
    explicit RunsOutput(const std::string &path)
        : mPath(path)
    {
        if (io::resolveFileDestination(path).method == io::FileDestination::Method::WriteThrough)
            mThrough = std::make_unique<io::AtomicFileWriter>(path);
        else
            io::writeFileAtomically(mPath, mContent);
    }

    void add(const std::string &line)
    {
        mContent += line;
        if (mThrough) {
            mThrough->stream() << line << std::flush;
            if (!mThrough->stream())
                throw io::InputError(mPath, 0, 0, "cannot write");
        } else {
            io::writeFileAtomically(mPath, mContent);
        }
    }

    void finish()
    {
        if (mThrough)
            mThrough->commit();
    }

  private:
    std::string mPath;
    std::string mContent;
    std::unique_ptr<io::AtomicFileWriter> mThrough;
};

} // namespace

int runSweep(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    std::vector<std::string> remaining = arguments;
    const std::vector<std::string> mergeFiles = takeMergeFiles(remaining);
    if (!mergeFiles.empty())
        return runMerge(remaining, mergeFiles, out);

    ArgumentParser parser("gpumem sweep DATA.csv --target COLUMN --param NAME=V1,V2,… --out RUNS.jsonl [options]",
                          kSummary);
    parser.positional("DATA.csv", "the measurements, one job per row, with a header row");
    addDataOptions(parser);
    addModelOptions(parser);
    addComputeOptions(parser);
    parser.option("model", "NAME", "the model to train (default bigru_transformer; see gpumem compare --help)")
        .option("param", "NAME=V1,V2,…", "a hyperparameter and the values to try (repeatable)")
        .option("random", "N", "try N distinct random combinations (drawn with --seed) instead of the grid")
        .option("test-fraction", "F", "hold out this share of rows (seeded) to score each run on (default 0.2)")
        .option("shard", "I/N", "run only slice I of N (0-based), e.g. $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT")
        .option("out", "RUNS.jsonl", "the JSON Lines file of the runs")
        .option("merge", "PART.jsonl…", "join the files of a sweep's shards into --out instead of training")
        .flag("reproducible",
              "write 0 as each run's duration, so that the file depends only on the data, values and seeds");
    const ParsedArguments parsed = parser.parse(remaining);
    if (parsed.helpRequested()) {
        out << parser.helpText();
        return 0;
    }
    if (!parsed.has("out"))
        throw io::InputError("missing --out RUNS.jsonl (see 'gpumem sweep --help')");
    if (!parsed.has("target"))
        throw io::InputError("missing --target COLUMN (see 'gpumem inspect' for candidates)");
    if (!parsed.has("param"))
        throw io::InputError("missing --param NAME=V1,V2,… (see 'gpumem describe-model' for the names)");
    const std::string path = parsed.positionals().front();
    const std::string modelName = parsed.value("model", "bigru_transformer");
    const models::Hyperparameters base = hyperparametersFor(modelName, parsed);
    const models::ComputeSettings compute = computeSettingsFrom(parsed);
    const double testFraction = parseFraction(parsed.value("test-fraction", "0.2"), "--test-fraction");
    const Shard shard = parsed.has("shard") ? parseShard(parsed.value("shard")) : Shard{};

    runs::SweepPlan plan;
    plan.parameters = sweepParameters(parsed);
    plan.seed = compute.seed;
    if (parsed.has("random")) {
        plan.mode = runs::SweepMode::Random;
        plan.randomTrials = parseWholeNumber(parsed.value("random"), "--random", true);
    }
    const std::vector<runs::SweepTrial> trials = runs::expandSweep(plan);
    const std::vector<runs::SweepTrial> mine = runs::sweepShard(trials, shard.index, shard.count);

    // Every trial's values are checked before the first one trains, which can take minutes.
    std::vector<models::Hyperparameters> values;
    for (const auto &trial : mine) {
        models::Hyperparameters trialValues = base;
        try {
            for (const auto &[name, value] : trial.assignments)
                trialValues.setFromText(name, value);
            models::createRegressor(modelName, trialValues, compute);
        } catch (const io::InputError &error) {
            throw io::InputError("trial " + std::to_string(trial.index) + " (" + assignmentsText(trial) +
                                 "): " + error.message());
        }
        values.push_back(std::move(trialValues));
    }

    const std::string outPath = parsed.value("out");
    io::OutputPlan outputs;
    outputs.addInput(path, "DATA.csv");
    if (parsed.has("config"))
        outputs.addInput(parsed.value("config"), "--config");
    outputs.addOutputFile(outPath, "--out");
    outputs.check();

    const LoadedData loaded = loadData(path, parsed);
    const data::Dataset dataset = data::Dataset::fromTable(*loaded.table, loaded.roles, loaded.usableRows);
    for (const auto &warning : loaded.warnings)
        err << "warning: " << warning << '\n';

    // What every trial shares, so that a merge refuses the shards of another sweep:
    // the plan and model in words, the rest as a digest.
    std::string shared = fileDigest(path) + '\n' + dataset.targetName() + '\n';
    for (const auto &name : dataset.numericFeatureNames())
        shared += name + ',';
    shared += '\n' + dataset.sequenceName();
    for (const auto &spec : base.specs())
        shared += '\n' + base.text(spec.name);
    shared += "\n" + std::to_string(testFraction) + "\n" + std::to_string(compute.seed) +
              (parsed.has("reproducible") ? "\nreproducible" : "");
    const std::string identity =
        runs::sweepDescription(plan) + "; model " + modelName + "; settings " + io::sha256Hex(shared).substr(0, 16);

    RunsOutput output(outPath);
    const bool terminal = ::isatty(2) != 0;
    std::size_t done = 0;
    const runs::RunRecord *best = nullptr;
    double bestRmse = 0.0;
    std::vector<runs::RunRecord> finished;
    finished.reserve(mine.size());
    for (std::size_t position = 0; position < mine.size(); ++position) {
        const runs::SweepTrial &trial = mine[position];
        runs::RunSettings settings;
        settings.name = "trial " + std::to_string(trial.index);
        settings.model = modelName;
        settings.hyperparameters = values[position];
        settings.compute = compute;
        settings.validationFraction = testFraction;
        // A terminal shows the trial's progress bar; logs get one line per finished trial only.
        std::optional<TrainingReporter> reporter;
        if (terminal)
            reporter.emplace(TrainingReporter::Style::ProgressBar, out, err);
        runs::TrainedRun run = runs::trainRun(dataset, settings, reporter ? &*reporter : nullptr);
        if (reporter)
            reporter->finish();
        if (parsed.has("reproducible"))
            run.record.seconds = 0.0;
        output.add(runs::sweepLine(identity, trial, trials.size(), run.record));
        ++done;
        const auto &metrics = run.record.validationMetrics ? run.record.validationMetrics : run.record.trainMetrics;
        err << "trial " << trial.index << " (" << done << "/" << mine.size() << ") " << assignmentsText(trial) << ": "
            << (metrics ? (run.record.validationMetrics ? "validation " : "train ") + describeMetrics(*metrics)
                        : run.record.message)
            << '\n';
        finished.push_back(std::move(run.record));
    }
    output.finish();
    for (const auto &record : finished) {
        const auto &metrics = record.validationMetrics ? record.validationMetrics : record.trainMetrics;
        if (metrics && (!best || metrics->rmse < bestRmse)) {
            best = &record;
            bestRmse = metrics->rmse;
        }
    }
    out << "wrote " << finished.size() << " of " << trials.size() << " runs to " << outPath;
    if (shard.count > 1)
        out << " (shard " << shard.index << "/" << shard.count << ")";
    out << '\n';
    if (best)
        out << "lowest " << (testFraction > 0.0 ? "validation" : "train") << " RMSE: " << best->name << '\n';
    return 0;
}

} // namespace gpumem::cli
