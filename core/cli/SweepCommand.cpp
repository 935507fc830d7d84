// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/SweepCommand.h"

#include "cli/CommandParser.h"
#include "cli/DataOptions.h"
#include "cli/MetricsFormat.h"
#include "cli/ModelOptions.h"
#include "cli/ShardOptions.h"
#include "cli/TrainingReporter.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/OutputPaths.h"
#include "io/OutputPlan.h"
#include "runs/SweepRecords.h"
#include "workflows/SweepWorkflow.h"

#include <algorithm>
#include <optional>
#include <unistd.h>

namespace gpumem::cli {

namespace {

const char *const kSummary =
    "Trains one run per trial of a hyperparameter sweep and writes one JSON Lines record per run\n"
    "(hyperparameters, per-batch and per-epoch curves, train and validation metrics, duration,\n"
    "seed, stop reason) to RUNS.jsonl, after a first line naming the sweep. RUNS.jsonl is replaced\n"
    "(atomically) only when the first run has finished; each later run is appended as one whole line.\n"
    "A grid tries every\n"
    "combination of the --param values, the first --param varying slowest; --random N tries N distinct\n"
    "combinations drawn with --seed. Each run holds out --test-fraction of the rows (seeded, as\n"
    "`gpumem train` does) and reports its validation metrics on them.\n"
    "\n"
    "On a cluster, --shard I/N runs the trials whose number leaves remainder I when divided by N;\n"
    "`gpumem sweep --merge PART… --out ALL.jsonl` joins the parts into the file one run of the\n"
    "whole sweep writes (ordered by trial), refusing parts of other sweeps, overlaps and gaps.\n"
    "See packaging/slurm/sweep.sbatch.";

// The --param values as typed: a comma separates values, so a piece without "="
// continues the parameter before it ("--param epochs=5,10" gives epochs 5 and 10).
std::vector<runs::SweepParameter> sweepParameters(const std::vector<std::string> &pieces)
{
    std::vector<runs::SweepParameter> parameters;
    for (const auto &piece : nonEmptyItems(pieces)) {
        if (piece.find('=') != std::string::npos)
            parameters.push_back(runs::parseSweepParameter(piece));
        else if (parameters.empty())
            throw io::InputError("--param takes NAME=V1,V2,…, not " + io::quoteForMessage(piece));
        else
            parameters.back().values.push_back(piece);
    }
    return parameters;
}

int runMerge(const std::vector<std::string> &arguments, const std::vector<std::string> &files, std::ostream &out)
{
    CommandParser parser("gpumem sweep", "gpumem sweep --merge PART.jsonl… --out ALL.jsonl",
                         "Joins the JSON Lines files of a sweep's shards into the file one run of the whole sweep "
                         "writes.");
    std::optional<std::string> outPath;
    parser.app().add_option("--out", outPath, "the merged file (replaced atomically)")->type_name("ALL.jsonl");
    if (!parser.parse(arguments, out))
        return 0;
    if (!outPath)
        throw io::InputError("missing --out ALL.jsonl (see 'gpumem sweep --help')");
    io::OutputPlan outputs;
    for (const auto &file : files)
        outputs.addInput(file, "--merge");
    outputs.addOutputFile(*outPath, "--out");
    outputs.check();
    const std::string merged = runs::mergeSweepFiles(files);
    io::writeFileAtomically(*outPath, merged);
    // Every line but the first, which names the sweep, is a run.
    const auto runs = static_cast<std::size_t>(std::count(merged.begin(), merged.end(), '\n')) - 1;
    out << "merged " << runs << " runs from " << files.size() << " files into " << *outPath << '\n';
    return 0;
}

// Shows each trial's progress bar on a terminal (logs get one line per finished
// trial only).
class TrialReporter : public workflows::SweepObserver
{
  public:
    TrialReporter(std::ostream &out, std::ostream &err, std::size_t trials)
        : mOut(out)
        , mErr(err)
        , mTerminal(::isatty(2) != 0)
        , mTrials(trials)
    {
    }

    training::TrainingObserver *trialStarting(const runs::SweepTrial & /*trial*/) override
    {
        if (!mTerminal)
            return nullptr;
        mProgress.emplace(TrainingReporter::Style::ProgressBar, mOut, mErr);
        return &*mProgress;
    }

    void trialFinished(const runs::SweepTrial &trial, workflows::TrainResult &run) override
    {
        if (mProgress)
            mProgress->finish();
        const runs::RunRecord &record = run.record;
        const auto &metrics = record.validationMetrics ? record.validationMetrics : record.trainMetrics;
        mErr << "trial " << trial.index << " (" << ++mFinished << "/" << mTrials << ") " << runs::assignmentsText(trial)
             << ": "
             << (metrics ? (record.validationMetrics ? "validation " : "train ") + describeMetrics(*metrics)
                         : record.message)
             << '\n';
    }

  private:
    std::ostream &mOut;
    std::ostream &mErr;
    bool mTerminal;
    std::size_t mTrials;
    std::size_t mFinished = 0;
    std::optional<TrainingReporter> mProgress;
};

} // namespace

int runSweep(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    std::vector<std::string> remaining = arguments;
    const std::vector<std::string> mergeFiles = takeMergeFiles(remaining);
    if (!mergeFiles.empty())
        return runMerge(remaining, mergeFiles, out);

    CommandParser parser("gpumem sweep",
                         "gpumem sweep DATA.csv --target COLUMN --param NAME=V1,V2,… --out RUNS.jsonl [options]",
                         kSummary);
    CLI::App &app = parser.app();
    TrainingInputs inputs;
    addTrainingInputs(app, inputs);
    std::vector<std::string> parameterPieces;
    addListOption(app, "--param", parameterPieces, "NAME=V1,V2,…",
                  "a hyperparameter and the values to try (repeatable)");
    std::optional<std::uint64_t> randomTrials;
    app.add_option("--random", randomTrials,
                   "try N distinct random combinations (drawn with --seed) instead of the grid")
        ->type_name("N")
        ->transform(wholeNumber(1));
    double testFraction = 0.2;
    addTestFractionOption(app, testFraction, "hold out this share of rows (seeded) to score each run on (default 0.2)");
    std::optional<std::string> shardText;
    app.add_option("--shard", shardText,
                   "run only slice I of N (0-based), e.g. $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT")
        ->type_name("I/N");
    std::optional<std::string> outOption;
    app.add_option("--out", outOption, "the JSON Lines file of the runs")->type_name("RUNS.jsonl");
    std::vector<std::string> mergeForHelp; // the files were taken out above; declared for --help
    app.add_option("--merge", mergeForHelp, "join the files of a sweep's shards into --out instead of training")
        ->type_name("PART.jsonl…");
    bool reproducible = false;
    app.add_flag("--reproducible", reproducible,
                 "write 0 as each run's duration, so that the file depends only on the data, values and seeds");
    if (!parser.parse(remaining, out))
        return 0;
    if (!outOption)
        throw io::InputError("missing --out RUNS.jsonl (see 'gpumem sweep --help')");
    requireTarget(inputs.data);
    if (parameterPieces.empty())
        throw io::InputError("missing --param NAME=V1,V2,… (see 'gpumem describe-model' for the names)");
    const models::Hyperparameters base = hyperparametersFor(inputs.modelName, inputs.model);
    const models::ComputeSettings compute = computeSettingsFrom(inputs.compute);
    const Shard shard = shardText ? parseShard(*shardText) : Shard{};

    workflows::SweepConfiguration configuration;
    configuration.model = inputs.modelName;
    configuration.plan.parameters = sweepParameters(parameterPieces);
    configuration.plan.seed = compute.seed;
    if (randomTrials) {
        configuration.plan.mode = runs::SweepMode::Random;
        configuration.plan.randomTrials = *randomTrials;
    }
    configuration.base = base;
    configuration.shard = shard.index;
    configuration.shards = shard.count;
    configuration.compute = compute;
    configuration.holdOutFraction = testFraction;
    configuration.outputFile = *outOption;
    configuration.reproducible = reproducible;
    // Every trial's values are checked before the data is read and the first trial trains, which can take minutes.
    const std::size_t trials = workflows::sweepTrials(configuration).trials.size();

    const std::string outPath = *outOption;
    io::OutputPlan outputs;
    outputs.addInput(inputs.path, "DATA.csv");
    if (inputs.model.config)
        outputs.addInput(*inputs.model.config, "--config");
    outputs.addOutputFile(outPath, "--out");
    outputs.check();

    const workflows::DataSelection loaded = workflows::selectData(dataRequest(inputs.path, inputs.data));
    const data::Dataset &dataset = *loaded.dataset;
    for (const auto &warning : loaded.warnings)
        err << "warning: " << warning << '\n';

    // Nothing of an earlier file at --out is replaced until the first run is written with the header.
    TrialReporter reporter(out, err, trials);
    const workflows::SweepResult swept = workflows::sweep(dataset, configuration, reporter);
    out << "wrote " << swept.runs.size() << " of " << swept.planned << " runs to " << outPath;
    if (shard.count > 1)
        out << " (shard " << shard.index << "/" << shard.count << ")";
    out << '\n';
    if (swept.best) {
        const runs::RunRecord &best = swept.runs[*swept.best];
        out << "lowest " << (best.validationMetrics ? "validation" : "train") << " RMSE: " << best.name << '\n';
    }
    return 0;
}

} // namespace gpumem::cli
