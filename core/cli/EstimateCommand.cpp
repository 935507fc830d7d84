// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/EstimateCommand.h"

#include "cli/CommandParser.h"
#include "cli/EstimateCalibration.h"
#include "cli/LanguageModelOptions.h"
#include "cli/TextTable.h"
#include "estimate/EstimateJson.h"
#include "estimate/GpuProfile.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/MemoryUnits.h"
#include "estimate/TimelineFile.h"
#include "io/InputError.h"
#include "io/OutputPlan.h"
#include "workflows/EstimateWorkflow.h"

#include <algorithm>
#include <optional>

namespace gpumem::cli {

namespace {

const char *const kDescription =
    "Estimates the GPU memory of training your own PyTorch model, without a GPU. MODEL.pt is a\n"
    "TorchScript file (torch.jit.trace(model.train(), example).save(\"m.pt\") or torch.jit.script).\n"
    "A TorchScript file is a program: estimate runs the model's code, as torch.load would, so\n"
    "only estimate files you trust.\n"
    "\n"
    "Method: real training steps (forward, loss, backward, optimizer step) run on the CPU with every\n"
    "allocation recorded and tagged by phase and category. Two small batches are traced; when their\n"
    "allocations align, each size is extrapolated affinely in the batch and the trace is replayed at\n"
    "the batch asked for through a model of PyTorch's CUDA caching allocator (peak allocated and\n"
    "reserved), so the cost does not grow with the batch. Otherwise each batch is traced directly,\n"
    "and the output says so. The GPU profile adds the CUDA context and library workspaces.\n"
    "\n"
    "Output per batch size (MiB): peak allocated, peak reserved, workspace, context, device total\n"
    "(what nvidia-smi would show), whether it fits, and the breakdown at the peak: parameters,\n"
    "gradients, optimizer state, activations and temporaries, cuDNN's convolution workspaces,\n"
    "allocator overhead (reserved less requested). See docs/estimate.md for what the CPU replay\n"
    "accounts for and what it does not.";

std::string listText(const std::vector<std::string> &names)
{
    std::string text;
    for (const auto &name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

CLI::Validator oneOf(const std::string &option, const std::vector<std::string> &names)
{
    return textCheckedBy([option, names](const std::string &text) {
        if (std::find(names.begin(), names.end(), text) == names.end())
            throw io::InputError(option + " takes " + listText(names) + ", not " + io::quoteForMessage(text));
    });
}

std::uint64_t categoryBytes(const estimate::BatchEstimate &estimate, estimate::Category category)
{
    return estimate.bytesAtPeak[static_cast<std::size_t>(category)];
}

void printText(std::ostream &out, const estimate::EstimateConfiguration &configuration,
               const estimate::EstimateResult &result, bool maxBatchAsked, const estimate::SearchAnswers &answers)
{
    using estimate::Category;
    if (!configuration.architecture.empty()) {
        const bool training = configuration.mode == "training";
        out << "Model: " << configuration.architecture << " (" << result.model.parameterCount << " parameters, "
            << (training ? std::to_string(result.model.trainableParameterCount) + " trained, " : std::string())
            << estimate::mibText(result.model.parameterBytes) << " MiB), " << recipeText(configuration)
            << (training ? ", optimizer " + configuration.optimizer : std::string()) << '\n';
    } else {
        out << "Model: " << configuration.modelPath << " (" << result.model.parameterCount << " parameters, "
            << estimate::mibText(result.model.parameterBytes) << " MiB), optimizer " << configuration.optimizer << " ("
            << configuration.optimizerImplementation << "), " << configuration.dtype << ", loss " << configuration.loss
            << '\n';
    }
    out << "GPU: " << result.profile.name << " (" << estimate::mibText(result.profile.capacityMib) << " MiB; context "
        << estimate::mibText(result.profile.contextMib) << " MiB, workspace "
        << estimate::mibText(result.profile.workspaceMib) << " MiB";
    if (const std::string gpus = gpusText(configuration); !gpus.empty())
        out << "; " << gpus << ", each GPU's figures below, NCCL "
            << estimate::mibText(result.profile.communicators * result.profile.ncclMib) << " MiB";
    out << ")\n";
    std::string traced;
    for (const std::int64_t batch : result.tracedBatches)
        traced += (traced.empty() ? "" : ", ") + std::to_string(batch);
    out << "Method: traced on " << result.model.tracedOn << " at batch " << traced
        << (result.extrapolated ? ", extrapolated in the batch" : "")
        << ", replayed through the CUDA caching-allocator model\n"
        << '\n';
    const auto numeric = TextTable::numeric;
    // The sharded job's own parts only where a job is spread: one GPU holds neither.
    const bool spread = configuration.gpus > 1;
    std::vector<TextTable::Column> columns = {numeric("batch"),
                                              numeric("allocated"),
                                              numeric("reserved"),
                                              numeric("device total"),
                                              "fits",
                                              numeric("parameters"),
                                              numeric("gradients"),
                                              numeric("optimizer"),
                                              numeric("activations"),
                                              numeric("cuDNN workspaces")};
    if (spread) {
        columns.push_back(numeric("gathered"));
        columns.push_back(numeric("comm buffers"));
    }
    columns.push_back(numeric("overhead"));
    TextTable table(columns);
    for (const auto &estimate : result.estimates) {
        std::vector<std::string> row = {
            std::to_string(estimate.batchSize), estimate::mibText(estimate.peakAllocatedBytes),
            estimate::mibText(estimate.peakReservedBytes), estimate::mibText(estimate.deviceTotalMib()),
            estimate.fitsOn(result.profile) ? "yes" : "no"};
        for (const Category category : {Category::Parameters, Category::Gradients, Category::OptimizerState,
                                        Category::Activations, Category::CudnnWorkspaces})
            row.push_back(estimate::mibText(categoryBytes(estimate, category)));
        if (spread)
            for (const Category category : {Category::GatheredParameters, Category::CommunicationBuffers})
                row.push_back(estimate::mibText(categoryBytes(estimate, category)));
        row.push_back(estimate::mibText(estimate.allocatorOverheadBytes()));
        table.addRow(std::move(row));
    }
    table.print(out);
    out << "(MiB; the breakdown is at the allocated peak, overhead is reserved less requested)\n";
    if (maxBatchAsked && result.maxBatch)
        out << "Largest batch that fits " << result.profile.name << ": " << *result.maxBatch << '\n';
    if (const auto &length = answers.maxSequenceLength)
        out << "Longest sequence that fits " << result.profile.name << " at batch "
            << result.estimates.front().batchSize << ": "
            << (*length ? std::to_string(**length) + " tokens" : std::string("none")) << '\n';
    if (const auto &gpus = answers.minGpus)
        out << "Fewest " << result.profile.name << " GPUs that hold it at batch " << result.estimates.front().batchSize
            << " each (" << configuration.sharding << ", tensor parallel " << configuration.tensorParallel
            << "): " << (*gpus ? std::to_string(**gpus) : "none up to " + std::to_string(estimate::largestGpuCount))
            << '\n';
    for (const auto &note : result.notes)
        out << "Note: " << note << '\n';
}

// The options of `gpumem estimate` as the command line gives them.
struct EstimateOptions
{
    workflows::EstimateSettings settings; // the model path, optimizer, dtype, loss, GPU and context directly
    std::vector<std::string> shapes;
    std::vector<std::string> batchTexts;
    std::string inputKind = "float";
    std::optional<std::uint64_t> vocabulary;
    std::optional<std::uint64_t> classes;
    std::uint64_t steps = 2;
    std::optional<std::string> timelinePath;
    bool json = false;
    std::optional<std::string> calibratePath;
    std::optional<std::string> outPath;
    LanguageModelOptions languageModel;
};

// Declares the options that describe the model and its traced training step.
void addModelOptions(CLI::App &app, EstimateOptions &options)
{
    estimate::EstimateConfiguration &configuration = options.settings.model;
    app.add_option("model", configuration.modelPath, "the TorchScript file (runs its code, like torch.load)")
        ->type_name("MODEL.pt");
    app.add_option("--input-shape", options.shapes, "one sample's shape, batch prepended; repeat for several inputs")
        ->type_name("C,H,W")
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app.add_option("--input-kind", options.inputKind, "float (default) or tokens (ids in [0, --vocabulary))")
        ->type_name("K")
        ->check(oneOf("--input-kind", {"float", "tokens"}));
    app.add_option("--vocabulary", options.vocabulary, "tokens: the number of token ids")
        ->type_name("N")
        ->transform(wholeNumber(1, std::uint64_t{1} << 31));
    addListOption(app, "--batch-size", options.batchTexts, "N[,N…]", "batch sizes to estimate (default 32)");
    app.add_flag("--max-batch", options.settings.request.maxBatch,
                 "also search the largest batch that fits the GPU (no extra CPU runs)");
    app.add_option("--optimizer", configuration.optimizer,
                   "sgd, sgd_momentum, adam (default), adamw, adamw_8bit (bitsandbytes) or adafactor")
        ->type_name("O")
        ->check(oneOf("--optimizer", estimate::optimizerNames()));
    app.add_option("--optimizer-implementation", configuration.optimizerImplementation,
                   "foreach (default, PyTorch 2's on CUDA), fused (fused=True) or for_loop (foreach=False)")
        ->type_name("I")
        ->check(oneOf("--optimizer-implementation", estimate::optimizerImplementationNames()));
    app.add_option("--attention", configuration.attention,
                   "efficient (default: PyTorch 2's fused scaled_dot_product_attention, as nn.MultiheadAttention "
                   "calls it) or math (attention written out with matmul and softmax)")
        ->type_name("A")
        ->check(oneOf("--attention", estimate::attentionNames()));
    app.add_option("--dtype", configuration.dtype, "float32 (default), float64, bfloat16 or float16 (the weights')")
        ->type_name("T")
        ->check(oneOf("--dtype", estimate::dtypeNames()));
    app.add_option("--loss", configuration.loss, "cross_entropy (default), mse or sum")
        ->type_name("L")
        ->check(oneOf("--loss", estimate::lossNames()));
    app.add_option("--classes", options.classes, "cross_entropy: target classes (default: the output's last dimension)")
        ->type_name("K")
        ->transform(wholeNumber(1, std::uint64_t{1} << 31));
    app.add_option("--steps", options.steps, "training steps traced (default 2, so the optimizer state exists)")
        ->transform(wholeNumber(1))
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{10}))
        ->type_name("N");
}

// Declares the GPU, output and calibration options.
void addGpuOptions(CommandParser &parser, EstimateOptions &options)
{
    CLI::App &app = parser.app();
    app.add_option("--gpu", options.settings.gpu, "a GPU profile's name (default a100-80) or a profile file")
        ->type_name("NAME|FILE");
    app.add_option("--context-mib", options.settings.contextMib, "the CUDA context in MiB instead of the profile's")
        ->type_name("M")
        ->transform(finiteNumberIn(0.0, estimate::largestMib));
    app.add_option("--timeline", options.timelinePath,
                   "write the first batch size's allocation timeline (.csv or .json)")
        ->type_name("FILE");
    app.add_flag("--json", options.json, "print the estimates as JSON");
    app.add_option("--calibrate", options.calibratePath,
                   "fit the --gpu profile's context and workspace to jobs measured on your card (see below)")
        ->type_name("MEASURED.csv");
    app.add_option("--out", options.outPath, "with --calibrate: write the calibrated profile (JSON, for --gpu FILE)")
        ->type_name("PROFILE.json");
    parser.addHelpFooter("\nGPU profiles: " + listText(estimate::gpuProfileNames()) +
                         " (resources/gpus; a profile file's keys: name, capacity_mib, context_mib, "
                         "workspace_mib, source; optional cublas_context_mib).\n");
    parser.addHelpFooter(estimateCalibrationHelp());
}

// Completes options.settings from the options given as text; throws io::InputError for what is missing or wrong.
void completeSettings(const CLI::App &app, EstimateOptions &options)
{
    estimate::EstimateConfiguration &configuration = options.settings.model;
    if (options.outPath)
        throw io::InputError("--out goes with --calibrate (the calibrated profile); estimates print to the output");
    completeLanguageModelSettings(app, options.languageModel, configuration);
    if (configuration.architecture.empty() && configuration.modelPath.empty())
        throw io::InputError("missing MODEL.pt or --config (see 'gpumem estimate --help')");
    if (configuration.architecture.empty() && options.shapes.empty())
        throw io::InputError(
            "missing --input-shape (one sample's shape, e.g. 3,224,224; see 'gpumem estimate --help')");
    for (const auto &shape : options.shapes)
        configuration.inputShapes.push_back(estimate::parseSampleShape(shape, "--input-shape"));
    configuration.inputKind = options.inputKind == "tokens" ? estimate::InputKind::Tokens : estimate::InputKind::Float;
    if (configuration.inputKind == estimate::InputKind::Tokens) {
        if (!options.vocabulary)
            throw io::InputError("--input-kind tokens needs --vocabulary N");
        configuration.vocabulary = static_cast<std::int64_t>(*options.vocabulary);
    }
    if (options.classes)
        configuration.classes = static_cast<std::int64_t>(*options.classes);
    options.settings.searchMaxSequenceLength = options.languageModel.maxSequenceLength;
    options.settings.searchMinGpus = options.languageModel.minGpus;
    configuration.steps = static_cast<int>(options.steps);
    estimate::EstimateRequest &request = options.settings.request;
    for (const auto &text : nonEmptyItems(options.batchTexts))
        request.batchSizes.push_back(estimate::parseBatchSize(text, "--batch-size values"));
    if (request.batchSizes.empty())
        request.batchSizes.push_back(32);
    if (options.timelinePath) {
        // Checked before the model runs: the timeline must not replace the model or the profile.
        estimate::checkTimelinePath(*options.timelinePath);
        io::OutputPlan outputs;
        if (!configuration.modelPath.empty())
            outputs.addInput(configuration.modelPath, "MODEL.pt");
        if (const std::string profileFile = estimate::gpuProfileFile(options.settings.gpu); !profileFile.empty())
            outputs.addInput(profileFile, "--gpu");
        outputs.addOutputFile(*options.timelinePath, "--timeline");
        outputs.check();
        request.timelineBatch = request.batchSizes.front();
    }
}

} // namespace

int runEstimate(const std::vector<std::string> &arguments, std::ostream &out, std::ostream & /*err*/)
{
    CommandParser parser("gpumem estimate",
                         "gpumem estimate MODEL.pt --input-shape C,H,W [--input-shape …] --batch-size N[,N…] "
                         "[--max-batch] [--gpu NAME|FILE] [options]\n"
                         "       gpumem estimate --config FILE|NAME --seq-len N --batch-size N[,N…] [--dtype T] "
                         "[--lora R --lora-targets L] [--qlora] [--gradient-checkpointing] [--mode inference "
                         "--generate N] [options]\n"
                         "       gpumem estimate --calibrate MEASURED.csv --gpu NAME|FILE [--out PROFILE.json]",
                         kDescription);
    CLI::App &app = parser.app();
    EstimateOptions options;
    addModelOptions(app, options);
    addLanguageModelOptions(app, options.settings.model, options.languageModel);
    addGpuOptions(parser, options);
    if (!parser.parse(arguments, out))
        return 0;
    const workflows::EstimateSettings &settings = options.settings;
    if (options.calibratePath) {
        // The measurement file names the models, inputs and batches itself.
        for (const char *option :
             {"model", "--input-shape", "--input-kind", "--vocabulary", "--batch-size", "--max-batch", "--optimizer",
              "--optimizer-implementation", "--attention", "--dtype", "--loss", "--classes", "--steps", "--timeline"})
            if (app.count(option) != 0)
                throw io::InputError(std::string(option == std::string("model") ? "MODEL.pt" : option) +
                                     " does not go with --calibrate: MEASURED.csv names each job's model, input, "
                                     "batch and optimizer");
        return runEstimateCalibration(
            {*options.calibratePath, settings.gpu, settings.contextMib, options.outPath, options.json}, out);
    }
    completeSettings(app, options);
    const workflows::EstimateOutcome outcome = workflows::estimateModel(settings);
    if (options.timelinePath)
        estimate::writeTimeline(*options.timelinePath, *settings.request.timelineBatch, outcome.result.timeline);
    if (options.json)
        out << estimate::estimateJson(settings.model, outcome.result, settings.request.maxBatch, outcome.answers)
                   .dump(2)
            << '\n';
    else
        printText(out, settings.model, outcome.result, settings.request.maxBatch, outcome.answers);
    return 0;
}

} // namespace gpumem::cli
