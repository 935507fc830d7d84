// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 50: language models estimated from their config.json. The native models'
// layouts against the analytic parameter counts, each modelled effect on a small
// configuration against bytes computed by hand, and the command line's contract.
#include "CommandLineRun.h"
#include "DataTables.h"
#include "EstimateFits.h"

#include "architectures/ArchitectureConfig.h"
#include "architectures/ArchitectureLibrary.h"
#include "architectures/LanguageModel.h"
#include "architectures/ParameterCount.h"
#include "estimate/ArchitectureTracer.h"
#include "estimate/MemoryEstimator.h"
#include "io/InputError.h"
#include "workflows/LanguageModelEstimates.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <torch/torch.h>

#include <algorithm>
#include <cstdint>

using gpumem::architectures::ArchitectureConfig, gpumem::architectures::BuildOptions, gpumem::estimate::Category,
    gpumem::estimate::EstimateConfiguration, gpumem::estimate::Phase, gpumem::estimate::TaggedTrace;

namespace {

std::int64_t numelOf(const std::vector<torch::Tensor> &tensors)
{
    std::int64_t total = 0;
    for (const auto &tensor : tensors)
        total += tensor.numel();
    return total;
}

// Whether the trace allocates a block of exactly bytes in phase.
bool allocates(const TaggedTrace &trace, std::uint64_t bytes, Phase phase)
{
    return std::any_of(trace.events.begin(), trace.events.end(), [&](const auto &event) {
        return !event.isRelease() && event.bytes == bytes && event.phase == phase;
    });
}

// Writes json to folder/name as a user's config.json would be, and returns its path.
std::string writeConfig(const QString &folder, const QString &name, const char *json)
{
    const QString path = folder + "/" + name;
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(json);
    return path.toStdString();
}

// A Llama-family model small enough to count by hand: 2 layers, hidden 64, 4 query
// heads and 2 key/value heads of 16, MLP 128, vocabulary 1000, untied.
const char *const tinyLlama = R"({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2,
    "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 1000,
    "max_position_embeddings": 4096, "tie_word_embeddings": false, "hidden_act": "silu", "rms_norm_eps": 1e-5})";

// The trace of the tiny model under configuration's recipe, read from its file like any user's.
TaggedTrace traceTiny(EstimateConfiguration configuration, std::int64_t batch, const QString &folder)
{
    configuration.architecture = writeConfig(folder, "tiny.json", tinyLlama);
    const gpumem::estimate::ArchitectureTracer tracer(configuration);
    return tracer.trace(batch);
}

// The recipe most of these tests trace: bfloat16 weights, sequence tokens, and LoRA of
// loraRank on loraTargets where loraRank is above 0.
EstimateConfiguration bfloat16Recipe(std::int64_t sequence, std::int64_t loraRank = 0,
                                     std::vector<std::string> loraTargets = {})
{
    EstimateConfiguration configuration;
    configuration.dtype = "bfloat16";
    configuration.sequenceLength = sequence;
    configuration.loraRank = loraRank;
    configuration.loraTargets = std::move(loraTargets);
    return configuration;
}

std::uint64_t peakRequested(const TaggedTrace &trace)
{
    return gpumem::estimate::peakRequestedBytes(trace);
}

} // namespace

class TestLanguageModelEstimate : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void nativeModelsHoldTheCountedParameters_data()
    {
        QTest::addColumn<QString>("name");
        for (const auto &name : gpumem::architectures::architectureNames())
            QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }

    // The module layout built natively and the closed formula are written apart; both
    // must give the published totals (test_ParameterCount pins the formula to them).
    void nativeModelsHoldTheCountedParameters()
    {
        QFETCH(QString, name);
        const ArchitectureConfig config = gpumem::architectures::resolveArchitecture(name.toStdString());
        BuildOptions options;
        options.weights = "bfloat16";
        const gpumem::architectures::LanguageModel model(config, options);
        QCOMPARE(numelOf(model->parameters()), gpumem::architectures::parameterCount(config));

        options.lora.rank = 8;
        options.lora.targets = gpumem::architectures::loraTargetNames(config);
        const gpumem::architectures::LanguageModel adapted(config, options);
        QCOMPARE(numelOf(adapted->trainableParameters()),
                 gpumem::architectures::trainableParameterCount(config, options.lora));
    }

    void rmsNormAndTheLossComputeInFloat32()
    {
        QTemporaryDir folder;
        const TaggedTrace trace = traceTiny(bfloat16Recipe(32), 2, folder.path());
        // LlamaRMSNorm's float32 copy of [2, 32, 64] hidden states.
        QVERIFY(allocates(trace, 2 * 32 * 64 * 4, Phase::Forward));
        // The bfloat16 logits [2, 32, 1000], their float32 upcast, and the labels padded
        // to 33 positions then shifted back to 32 (int64).
        QVERIFY(allocates(trace, 2 * 32 * 1000 * 2, Phase::Forward));
        QVERIFY(allocates(trace, 2 * 32 * 1000 * 4, Phase::Forward));
        QVERIFY(allocates(trace, 2 * 33 * 8, Phase::Forward));
        // Flash attention keeps a float32 log-sum-exp of [2, 4 heads, 32 queries]; its
        // backward pads softmax_d to 128 queries.
        QVERIFY(allocates(trace, 2 * 4 * 32 * 4, Phase::Forward));
        QVERIFY(allocates(trace, 2 * 4 * 128 * 4, Phase::Backward));
    }

    void loraCastsItsInputToFloat32AndTrainsOnlyTheAdapters()
    {
        QTemporaryDir folder;
        EstimateConfiguration configuration = bfloat16Recipe(32, 4, {"q_proj"});
        configuration.optimizer = "adamw";
        const TaggedTrace trace = traceTiny(configuration, 2, folder.path());
        // peft casts q_proj's input [2, 32, 64] to float32, the adapters' dtype.
        QVERIFY(allocates(trace, 2 * 32 * 64 * 4, Phase::Forward));
        // Gradients and Adam's two moments exist for the adapters only: per layer
        // A [4, 64] and B [64, 4] in float32.
        std::uint64_t gradients = 0;
        std::uint64_t moments = 0;
        for (const auto &event : trace.events) {
            if (event.isRelease())
                continue;
            if (event.category == Category::Gradients)
                gradients += event.bytes;
            if (event.category == Category::OptimizerState)
                moments += event.bytes;
        }
        const std::uint64_t adapters = 2 * (4 * 64 + 64 * 4) * 4;
        QCOMPARE(moments, 2 * adapters);
        QCOMPARE(gradients, 2 * adapters); // each step's, set to none before the next
    }

    void qloraStoresTheBaseInNf4()
    {
        QTemporaryDir folder;
        EstimateConfiguration configuration = bfloat16Recipe(16, 4, {"q_proj", "v_proj"});
        configuration.qlora = true;
        const TaggedTrace trace = traceTiny(configuration, 1, folder.path());
        // q_proj [64, 64]: 4,096 weights in 2,048 bytes, 64 blocks of 64 with a byte of
        // absmax each; gate_proj [128, 64]: 4,096 bytes.
        const auto setupHas = [&](std::uint64_t bytes) {
            return std::any_of(trace.events.begin(), trace.events.end(),
                               [&](const auto &event) { return event.phase == Phase::Setup && event.bytes == bytes; });
        };
        QVERIFY(setupHas(2048));
        QVERIFY(setupHas(64));
        QVERIFY(setupHas(4096));
        // Each call dequantises its weight to bfloat16 for the product: q_proj's 8,192 bytes.
        QVERIFY(allocates(trace, 64 * 64 * 2, Phase::Forward));
        QVERIFY(allocates(trace, 64 * 64 * 2, Phase::Backward));
    }

    void checkpointingKeepsOnlyEachLayersInput()
    {
        QTemporaryDir folder;
        EstimateConfiguration configuration;
        configuration.sequenceLength = 256;
        configuration.optimizer = "sgd";
        const TaggedTrace plain = traceTiny(configuration, 2, folder.path());
        configuration.gradientCheckpointing = true;
        const TaggedTrace checkpointed = traceTiny(configuration, 2, folder.path());
        // At the end of the forward pass, what stays live of the layers is their saved
        // activations; with checkpointing, only each layer's input [2, 256, 64] float32.
        const auto liveAtBackward = [](const TaggedTrace &trace) {
            std::vector<bool> live(trace.events.size(), false);
            std::uint64_t bytes = 0;
            for (std::size_t i = 0; i < trace.events.size(); ++i) {
                const auto &event = trace.events[i];
                if (event.phase == Phase::Backward)
                    break;
                if (event.isRelease()) {
                    if (live[static_cast<std::size_t>(event.allocation)] && event.category == Category::Activations)
                        bytes -= event.bytes;
                    live[static_cast<std::size_t>(event.allocation)] = false;
                } else {
                    live[i] = true;
                    if (event.category == Category::Activations)
                        bytes += event.bytes;
                }
            }
            return bytes;
        };
        QVERIFY(liveAtBackward(checkpointed) < liveAtBackward(plain) / 3);
        QVERIFY(peakRequested(checkpointed) < peakRequested(plain));
    }

    void generationGrowsTheKeyValueCache()
    {
        QTemporaryDir folder;
        EstimateConfiguration configuration = bfloat16Recipe(100);
        configuration.mode = "inference";
        configuration.generatedTokens = 5;
        const TaggedTrace trace = traceTiny(configuration, 3, folder.path());
        // After four generated tokens' steps the cache holds 104 positions: keys of
        // [3, 2 key/value heads, 104, 16] in bfloat16, concatenated anew each step.
        QVERIFY(allocates(trace, 3 * 2 * 104 * 16 * 2, Phase::Forward));
        QVERIFY(!allocates(trace, 3 * 2 * 105 * 16 * 2, Phase::Forward));
        for (const auto &event : trace.events)
            QVERIFY(event.phase == Phase::Setup || event.phase == Phase::Forward);
    }

    // A mixture of experts: each of 4 experts takes an equal share of the 2 × 32 tokens ×
    // 2 experts per token, so 32 rows of [32, 64] are gathered for each, their output
    // added back in place; backward scatters each expert's input gradient into zeros of
    // all 64 rows, as indexing's backward does.
    void expertsTakeTheirShareOfTheRoutedTokens()
    {
        QTemporaryDir folder;
        const std::string path = writeConfig(
            folder.path(), "moe.json",
            R"({"model_type": "mixtral", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
            "num_key_value_heads": 2, "intermediate_size": 96, "vocab_size": 1000, "max_position_embeddings": 4096,
            "num_local_experts": 4, "num_experts_per_tok": 2})");
        EstimateConfiguration configuration = bfloat16Recipe(32);
        configuration.architecture = path;
        const gpumem::estimate::ArchitectureTracer tracer(configuration);
        const TaggedTrace trace = tracer.trace(2);
        const auto count = [&](std::uint64_t bytes, Phase phase) {
            return std::count_if(trace.events.begin(), trace.events.end(), [&](const auto &event) {
                return !event.isRelease() && event.bytes == bytes && event.phase == phase;
            });
        };
        // Per step and layer: 4 experts' gathered inputs [32, 64] bfloat16 (among other
        // blocks of that size), and in backward 4 scatters into zeros of [64, 64].
        QVERIFY(count(32 * 64 * 2, Phase::Forward) >= 2 * 2 * 4);
        QCOMPARE(count(64 * 64 * 2, Phase::Backward) >= 2 * 2 * 4, true);
        // The experts' weights: 2 layers × 4 experts × 3 × 64 × 96, and the routers.
        QCOMPARE(tracer.summary().parameterCount, gpumem::architectures::parameterCount(tracer.architecture()));
    }

    // Every batch asked for is extrapolated from small ones; on the meta device a direct
    // trace costs as little, so the two are compared at a batch of 16.
    void theBatchExtrapolationIsTheDirectTrace()
    {
        QTemporaryDir folder;
        EstimateConfiguration configuration = bfloat16Recipe(96, 8, {"all-linear"});
        configuration.gradientCheckpointing = true;
        configuration.architecture = writeConfig(folder.path(), "tiny.json", tinyLlama);
        const gpumem::estimate::ArchitectureTracer tracer(configuration);
        const gpumem::estimate::GpuProfile profile = gpumem::estimate::findGpuProfile("l4");
        gpumem::estimate::EstimateRequest request;
        request.batchSizes = {16};
        const auto result = gpumem::estimate::MemoryEstimator::estimate(tracer, profile, request);
        QVERIFY(result.extrapolated);
        QVERIFY(!result.estimates.front().measuredDirectly);
        const auto direct = gpumem::estimate::MemoryEstimator::estimateOf(tracer.trace(16), profile);
        QCOMPARE(result.estimates.front().peakReservedBytes, direct.peakReservedBytes);
        QCOMPARE(result.estimates.front().peakAllocatedBytes, direct.peakAllocatedBytes);
    }

    void recipesThatDoNotGoTogetherAreRefused_data()
    {
        addColumns<QString>("field");
        addRow("autocast over bfloat16", "autocast");
        addRow("qlora without lora", "qlora");
        addRow("generate in training", "generate");
        addRow("unknown target", "target");
        addRow("too long", "length");
    }

    void recipesThatDoNotGoTogetherAreRefused()
    {
        QFETCH(QString, field);
        QTemporaryDir folder;
        EstimateConfiguration configuration;
        configuration.sequenceLength = 16;
        if (field == "autocast")
            configuration.dtype = "bfloat16", configuration.autocast = "bfloat16";
        if (field == "qlora")
            configuration.dtype = "bfloat16", configuration.qlora = true;
        if (field == "generate")
            configuration.generatedTokens = 3;
        if (field == "target")
            configuration.loraRank = 4, configuration.loraTargets = {"c_attn"};
        if (field == "length")
            configuration.sequenceLength = 5000;
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, traceTiny(configuration, 1, folder.path()));
    }

    void anEncoderGeneratesNothing()
    {
        EstimateConfiguration configuration;
        configuration.architecture = "bert-base";
        configuration.sequenceLength = 128;
        configuration.mode = "inference";
        configuration.generatedTokens = 32;
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::estimate::ArchitectureTracer{configuration});
        configuration.generatedTokens = 0;
        QVERIFY(gpumem::estimate::ArchitectureTracer(configuration).trace(1).events.size() > 0);
    }

    // The contract bench scripts call.
    void contractCountsOfLlama32ThreeB()
    {
        const auto run = gpumem::tests::runGpumem(
            {"estimate", "--config", "llama-3.2-3b", "--seq-len", "768", "--batch-size", "4", "--dtype", "bfloat16",
             "--optimizer", "adamw", "--lora", "32", "--lora-targets", "q_proj,v_proj", "--gpu", "l40s", "--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject document = QJsonDocument::fromJson(QByteArray::fromStdString(run.out)).object();
        QCOMPARE(document.value("parameter_count").toDouble(), 3212749824.0);
        QCOMPARE(document.value("trainable_parameter_count").toDouble(), 9175040.0);
        QCOMPARE(document.value("seq_len").toInt(), 768);
        QCOMPARE(document.value("recipe").toObject().value("lora").toObject().value("rank").toInt(), 32);
        const QJsonObject estimate = document.value("estimates").toArray().at(0).toObject();
        for (const char *key : {"peak_allocated_mib", "peak_reserved_mib", "workspace_mib", "context_mib",
                                "device_total_mib", "fits", "breakdown"})
            QVERIFY2(estimate.contains(key), key);
        // The frozen base in bfloat16 and the adapters in float32, and no gradient of the base.
        const QJsonObject breakdown = estimate.value("breakdown").toObject();
        const double parameterMib = (3212749824.0 * 2 + 9175040.0 * 4) / 1048576;
        QVERIFY(std::abs(breakdown.value("parameters_mib").toDouble() - parameterMib) < 1.0);
        QVERIFY(breakdown.value("gradients_mib").toDouble() < 40.0);
    }

    void theLongestSequenceFitsAndOneMoreDoesNot()
    {
        gpumem::workflows::EstimateSettings settings;
        settings.model.architecture = "gpt2";
        settings.model.optimizer = "adamw";
        settings.gpu = "t4";
        const auto longest = gpumem::workflows::maxSequenceLength(settings, 16);
        QVERIFY(longest.has_value());
        QVERIFY(*longest > 1 && *longest < 1024);
        const auto fitsAt = [&](std::int64_t length) {
            gpumem::workflows::EstimateSettings one = settings;
            one.model.sequenceLength = length;
            return gpumem::tests::fitsAtBatch(one, 16);
        };
        QVERIFY(fitsAt(*longest));
        QVERIFY(!fitsAt(*longest + 1));
    }

    // A config at the reader's limits with the longest sequence and largest batch: the
    // logits would take 2^72 bytes, past the 2^63 a size can hold; one line, exit 1.
    void absurdSizesFailWithOneLine()
    {
        QTemporaryDir folder;
        const std::string path = writeConfig(
            folder.path(), "huge.json",
            R"({"model_type": "llama", "hidden_size": 65536, "num_hidden_layers": 2, "num_attention_heads": 512,
            "intermediate_size": 262144, "vocab_size": 4194304, "max_position_embeddings": 16777216,
            "hidden_act": "silu"})");
        const auto run = gpumem::tests::runGpumem(
            {"estimate", "--config", path, "--seq-len", "16777216", "--batch-size", "16777216"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.find("4 EiB") != std::string::npos, run.err.c_str());
        QCOMPARE(std::count(run.err.begin(), run.err.end(), '\n'), 1);
    }

    void languageModelOptionsNeedAConfig()
    {
        const auto run = gpumem::tests::runGpumem({"estimate", "m.pt", "--input-shape", "3", "--lora", "8"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.err.find("--lora needs --config") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestLanguageModelEstimate)
#include "test_LanguageModelEstimate.moc"
