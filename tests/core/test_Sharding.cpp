// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 53: the memory of one GPU of several. Each scheme's blocks on a hand-made step
// against bytes computed by hand for 1, 2, 8 and 64 GPUs, one GPU against the
// single-GPU estimate, the tensor-parallel share of a config, the fewest-GPUs search
// against direct estimates on each side of its answer, and the command line's contract.
#include "CommandLineRun.h"
#include "DataTables.h"
#include "EstimateFits.h"

#include "architectures/ArchitectureLibrary.h"
#include "architectures/TensorParallel.h"
#include "estimate/ArchitectureTracer.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/Sharding.h"
#include "io/InputError.h"
#include "workflows/LanguageModelEstimates.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <array>
#include <cstdint>
#include <stdexcept>

using gpumem::estimate::Category, gpumem::estimate::CategoryBytes, gpumem::estimate::Phase,
    gpumem::estimate::ShardedModelSizes, gpumem::estimate::ShardingPlan, gpumem::estimate::ShardingScheme,
    gpumem::estimate::TaggedEvent, gpumem::estimate::TaggedTrace;

namespace {

// One training step of a model of 1,000 float32 parameters (4,000 bytes) in two blocks:
// a 3,000-byte layer and a 1,000-byte root embedding; an activation in forward, the
// gradients left by backward, Adam's two moments and a temporary in the step.
TaggedTrace handMadeStep()
{
    TaggedTrace trace;
    trace.batchSize = 1;
    auto &events = trace.events;
    events.push_back({3000, -1, Phase::Setup, Category::Parameters});         // 0
    events.push_back({1000, -1, Phase::Setup, Category::Parameters});         // 1
    events.push_back({500, -1, Phase::Forward, Category::Activations});       // 2
    events.push_back({500, 2, Phase::Backward, Category::Activations});       // 3
    events.push_back({3000, -1, Phase::Backward, Category::Gradients});       // 4
    events.push_back({1000, -1, Phase::Backward, Category::Gradients});       // 5
    events.push_back({4000, -1, Phase::Optimizer, Category::OptimizerState}); // 6
    events.push_back({4000, -1, Phase::Optimizer, Category::OptimizerState}); // 7
    events.push_back({4000, -1, Phase::Optimizer, Category::Activations});    // 8
    events.push_back({4000, 8, Phase::Optimizer, Category::Activations});     // 9
    return trace;
}

// The hand-made step's model, in the struct's order: 4,000 bytes of 1,000 parameters,
// the largest layer 3,000 bytes, the root 1,000 bytes (the embedding alone), the layer's
// trainable 3,000 bytes, and every parameter trainable (4,000 bytes, 1,000 elements).
ShardedModelSizes handMadeSizes()
{
    return {4000, 1000, 3000, 1000, 1000, 3000, 4000, 1000};
}

// The bytes live per category after the trace, and the most live per category at any
// point of phase.
struct LiveBytes
{
    CategoryBytes atEnd{};
    CategoryBytes mostIn{};
};

LiveBytes liveBytes(const TaggedTrace &trace, Phase phase)
{
    LiveBytes live;
    for (const TaggedEvent &event : trace.events) {
        auto &bytes = live.atEnd[static_cast<std::size_t>(event.category)];
        if (event.isRelease()) {
            // A release gives back what its allocation took.
            if (event.bytes != trace.events[static_cast<std::size_t>(event.allocation)].bytes)
                throw std::logic_error("a release of other bytes than its allocation's");
            bytes -= event.bytes;
        } else {
            bytes += event.bytes;
        }
        if (event.phase == phase)
            for (std::size_t c = 0; c < live.atEnd.size(); ++c)
                live.mostIn[c] = std::max(live.mostIn[c], live.atEnd[c]);
    }
    return live;
}

ShardingPlan planOf(ShardingScheme scheme, std::int64_t gpus, std::int64_t tensorParallel = 1)
{
    ShardingPlan plan;
    plan.scheme = scheme;
    plan.gpus = gpus;
    plan.tensorParallel = tensorParallel;
    return plan;
}

gpumem::estimate::EstimateConfiguration smallLlama()
{
    gpumem::estimate::EstimateConfiguration configuration;
    configuration.architecture = "qwen2.5-0.5b";
    configuration.sequenceLength = 256;
    configuration.dtype = "bfloat16";
    configuration.optimizer = "adamw";
    return configuration;
}

std::uint64_t at(const CategoryBytes &bytes, Category category)
{
    return bytes[static_cast<std::size_t>(category)];
}

std::uint64_t ceilShare(std::uint64_t bytes, std::uint64_t parts)
{
    return (bytes + parts - 1) / parts;
}

} // namespace

class TestSharding : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void modelStatesPerGpuForEachScheme_data()
    {
        addColumns<int, qint64>("scheme", "gpus");
        for (const ShardingScheme scheme : {ShardingScheme::Ddp, ShardingScheme::Zero1, ShardingScheme::Zero2,
                                            ShardingScheme::Zero3, ShardingScheme::Fsdp})
            for (const qint64 gpus : {1, 2, 8, 64})
                QTest::addRow("%s on %lld", gpumem::estimate::shardingName(scheme).c_str(), gpus)
                    << static_cast<int>(scheme) << gpus;
    }

    void modelStatesPerGpuForEachScheme()
    {
        const auto [scheme, gpus] = fetchColumns<int, qint64>("scheme", "gpus");
        const auto which = static_cast<ShardingScheme>(scheme);
        const TaggedTrace sharded =
            gpumem::estimate::shardedTrace(handMadeStep(), planOf(which, gpus), handMadeSizes());
        const LiveBytes end = liveBytes(sharded, Phase::Backward);
        const auto n = static_cast<std::uint64_t>(gpus);
        if (gpus == 1) {
            // One GPU is the single-GPU step, event for event.
            QCOMPARE(sharded.events.size(), handMadeStep().events.size());
            QCOMPARE(at(end.atEnd, Category::Parameters), std::uint64_t{4000});
            QCOMPARE(at(end.atEnd, Category::OptimizerState), std::uint64_t{8000});
            return;
        }
        const bool deepSpeed =
            which == ShardingScheme::Zero1 || which == ShardingScheme::Zero2 || which == ShardingScheme::Zero3;
        // Parameters: whole but under ZeRO-3 and FSDP, which keep each block's share.
        const std::uint64_t parameters = which == ShardingScheme::Zero3 || which == ShardingScheme::Fsdp
                                             ? ceilShare(3000, n) + ceilShare(1000, n)
                                             : 4000;
        QCOMPARE(at(end.atEnd, Category::Parameters), parameters);
        // Gradients: partitioned from ZeRO-2 on and by FSDP.
        const std::uint64_t gradients = which == ShardingScheme::Ddp || which == ShardingScheme::Zero1
                                            ? 4000
                                            : ceilShare(3000, n) + ceilShare(1000, n);
        QCOMPARE(at(end.atEnd, Category::Gradients), gradients);
        // Optimizer state: Adam's moments partitioned (all but DDP), with DeepSpeed's float32
        // master partition beside them.
        const std::uint64_t optimizer = which == ShardingScheme::Ddp ? 8000
                                        : deepSpeed                  ? 2 * ceilShare(4000, n) + 4 * ceilShare(1000, n)
                                                                     : 2 * ceilShare(4000, n);
        QCOMPARE(at(end.atEnd, Category::OptimizerState), optimizer);
        // DDP's buckets: 1 MiB first, so all 4,000 bytes of gradients in one.
        QCOMPARE(at(end.atEnd, Category::CommunicationBuffers),
                 std::uint64_t{which == ShardingScheme::Ddp ? 4000u : 0u});
        // While backward runs: DeepSpeed's reduce bucket (all 1,000 elements of 4 bytes),
        // FSDP's unsharded layer gradients and the reduce-scatter's shard.
        const std::uint64_t backwardBuffers = which == ShardingScheme::Ddp ? 4000
                                              : deepSpeed                  ? 4000
                                                                           : 3000 + ceilShare(3000, n);
        QCOMPARE(at(end.mostIn, Category::CommunicationBuffers), backwardBuffers);
        // Gathered while forward and backward run: ZeRO-3 the largest module and its
        // prefetch (capped at the module), FSDP the root and two layers.
        const std::uint64_t gathered = which == ShardingScheme::Zero3  ? 3000 + 3000
                                       : which == ShardingScheme::Fsdp ? 1000 + 2 * 3000
                                                                       : 0;
        QCOMPARE(at(end.mostIn, Category::GatheredParameters), gathered);
        QCOMPARE(at(end.atEnd, Category::GatheredParameters), std::uint64_t{0});
        // The step's temporary follows the partition, except under DeepSpeed's fused Adam.
        const LiveBytes step = liveBytes(sharded, Phase::Optimizer);
        const std::uint64_t temporary = which == ShardingScheme::Ddp ? 4000 : deepSpeed ? 0 : ceilShare(4000, n);
        QCOMPARE(at(step.mostIn, Category::Activations), temporary);
    }

    void deepSpeedWidensHalfPrecisionState()
    {
        // bfloat16 weights: 1,000 elements in 2,000 bytes; Adam's state in float32 then.
        TaggedTrace step = handMadeStep();
        for (TaggedEvent &event : step.events)
            if (event.category != Category::Activations)
                event.bytes /= 2;
        ShardedModelSizes sizes = handMadeSizes();
        sizes.trainableBytes = 2000;
        sizes.parameterBytes = 2000;
        const TaggedTrace sharded = gpumem::estimate::shardedTrace(step, planOf(ShardingScheme::Zero1, 8), sizes);
        const LiveBytes live = liveBytes(sharded, Phase::Optimizer);
        // Two float32 moments and the float32 master weights, each 4,000 bytes over 8 GPUs.
        QCOMPARE(at(live.atEnd, Category::OptimizerState), std::uint64_t{3 * 500});
        // The float32 gradient partition while the step runs, beside the bfloat16 gradients.
        QCOMPARE(at(live.mostIn, Category::Gradients), std::uint64_t{2000 + 500});
        // The reduce bucket holds every gradient in bfloat16.
        QCOMPARE(at(liveBytes(sharded, Phase::Backward).mostIn, Category::CommunicationBuffers), std::uint64_t{2000});
    }

    void planChecksItsNumbers()
    {
        QCOMPARE(planOf(ShardingScheme::Fsdp, 16, 4).dataParallel(), std::int64_t{4});
        QCOMPARE(planOf(ShardingScheme::Fsdp, 16, 4).communicators(), 2);
        QCOMPARE(planOf(ShardingScheme::None, 4, 4).communicators(), 1);
        QCOMPARE(planOf(ShardingScheme::Ddp, 1).communicators(), 0);
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, planOf(ShardingScheme::Fsdp, 8, 3).validate());
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, planOf(ShardingScheme::None, 8, 2).validate());
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, planOf(ShardingScheme::Fsdp, 0).validate());
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::estimate::parseSharding("zero4"));
        for (const auto &name : gpumem::estimate::shardingNames())
            QCOMPARE(gpumem::estimate::shardingName(gpumem::estimate::parseSharding(name)), name);
    }

    void tensorParallelShareOfLlama()
    {
        using gpumem::architectures::tensorParallelShare;
        const auto llama = gpumem::architectures::resolveArchitecture("llama-3.1-8b");
        const auto share = tensorParallelShare(llama, 8);
        QCOMPARE(share.attentionHeads, std::int64_t{4});      // 32 / 8
        QCOMPARE(share.keyValueHeads, std::int64_t{1});       // 8 / 8
        QCOMPARE(share.intermediateSize, std::int64_t{1792}); // 14336 / 8
        // 128,256 padded to a multiple of 128 × 8 = 1,024: 129,024, of which 16,128 each.
        QCOMPARE(share.vocabulary, std::int64_t{16128});
        QCOMPARE(share.hiddenSize, llama.hiddenSize);
        QCOMPARE(share.headDim, llama.headDim);
        // 16 GPUs replicate the 8 key/value heads, one on each.
        QCOMPARE(tensorParallelShare(llama, 16).keyValueHeads, std::int64_t{1});
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, tensorParallelShare(llama, 3));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError,
                                 tensorParallelShare(gpumem::architectures::resolveArchitecture("gpt2"), 2));
    }

    void oneGpuEqualsTheSingleGpuEstimate()
    {
        gpumem::estimate::EstimateConfiguration single = smallLlama();
        gpumem::estimate::EstimateConfiguration one = single;
        one.sharding = "fsdp";
        const auto profile = gpumem::estimate::findGpuProfile("a100-80");
        using gpumem::estimate::MemoryEstimator;
        const auto a = MemoryEstimator::estimateOf(gpumem::estimate::ArchitectureTracer(single).trace(2), profile);
        const auto b = MemoryEstimator::estimateOf(gpumem::estimate::ArchitectureTracer(one).trace(2), profile);
        QCOMPARE(b.peakReservedBytes, a.peakReservedBytes);
        QCOMPARE(b.deviceTotalMib(), a.deviceTotalMib());
    }

    void tensorParallelSplitsTheModelStates()
    {
        gpumem::estimate::EstimateConfiguration whole = smallLlama();
        gpumem::estimate::EstimateConfiguration split = whole;
        split.gpus = 2;
        split.tensorParallel = 2;
        const gpumem::estimate::ArchitectureTracer wholeTracer(whole);
        const gpumem::estimate::ArchitectureTracer splitTracer(split);
        // qwen2.5-0.5b: 14 heads, 2 key/value heads, 4,864 intermediate columns, 151,936 tokens.
        const auto config = gpumem::architectures::resolveArchitecture("qwen2.5-0.5b");
        const std::int64_t h = config.hiddenSize, d = config.headDim, layers = config.layers;
        // Half the query heads (with biases), one key and one value head (with biases), the
        // output projection's half, half the MLP's columns, and both norms whole.
        const std::int64_t perLayer =
            (h * 7 * d + 7 * d) + 2 * (h * d + d) + 7 * d * h + 3 * h * (config.intermediateSize / 2) + 2 * h;
        const std::int64_t vocabulary = (151936 + 255) / 256 * 256 / 2;
        const std::int64_t expected =
            layers * perLayer + vocabulary * h + h + (config.tiedEmbeddings ? 0 : vocabulary * h);
        QCOMPARE(static_cast<std::int64_t>(splitTracer.summary().parameterBytes), 2 * expected);
        QVERIFY(splitTracer.summary().parameterBytes < wholeTracer.summary().parameterBytes);
    }

    void fewestGpusIsTheLeastThatFits()
    {
        gpumem::workflows::EstimateSettings settings;
        settings.model = gpumem::estimate::EstimateConfiguration{};
        settings.model.architecture = "llama-3.2-3b";
        settings.model.sequenceLength = 1024;
        settings.model.dtype = "bfloat16";
        settings.model.optimizer = "adamw";
        settings.model.gradientCheckpointing = true;
        settings.model.sharding = "fsdp";
        settings.gpu = "rtx-3060";
        const auto fewest = gpumem::workflows::minGpuCount(settings, 1);
        QVERIFY(fewest);
        QVERIFY(*fewest > 1);
        const auto fitsOn = [&](std::int64_t gpus) {
            gpumem::workflows::EstimateSettings direct = settings;
            direct.model.gpus = gpus;
            return gpumem::tests::fitsAtBatch(direct, 1);
        };
        QVERIFY(fitsOn(*fewest));
        QVERIFY(!fitsOn(*fewest - 1));
        // DDP never shares the model states: what does not fit one GPU fits none.
        settings.model.sharding = "ddp";
        QVERIFY(!gpumem::workflows::minGpuCount(settings, 1));
    }

    void commandLinePrintsEachGpusFigures()
    {
        const auto run = gpumem::tests::runGpumem({"estimate", "--config", "qwen2.5-0.5b", "--seq-len", "256",
                                                   "--batch-size", "2", "--dtype", "bfloat16", "--gpus", "8",
                                                   "--sharding", "zero3", "--gpu", "a100-80", "--json"});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject document = QJsonDocument::fromJson(QByteArray::fromStdString(run.out)).object();
        QCOMPARE(document.value("gpus").toInt(), 8);
        QCOMPARE(document.value("sharding").toString(), QStringLiteral("zero3"));
        QCOMPARE(document.value("tensor_parallel").toInt(), 1);
        const QJsonObject estimate = document.value("estimates").toArray().at(0).toObject();
        QCOMPARE(estimate.value("nccl_mib").toDouble(), gpumem::estimate::GpuProfile::defaultNcclMib);
        const QJsonObject breakdown = estimate.value("breakdown").toObject();
        QVERIFY(breakdown.value("gathered_parameters_mib").toDouble() > 0.0);
        QVERIFY(breakdown.value("communication_buffers_mib").toDouble() > 0.0);
        const double total = estimate.value("peak_reserved_mib").toDouble() +
                             estimate.value("workspace_mib").toDouble() + estimate.value("context_mib").toDouble() +
                             estimate.value("nccl_mib").toDouble();
        QVERIFY(std::abs(estimate.value("device_total_mib").toDouble() - total) < 0.01);

        const auto refused = gpumem::tests::runGpumem(
            {"estimate", "--config", "gpt2", "--batch-size", "1", "--gpus", "2", "--tensor-parallel", "2"});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY(refused.err.find("tensor_parallel") != std::string::npos);
    }
};

QTEST_MAIN(TestSharding)
#include "test_Sharding.moc"
