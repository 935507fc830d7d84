// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "EstimateFixtures.h"
#include "TestSupport.h"
#include "TraceTransients.h"

#include "estimate/GpuProfile.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/ModelTracer.h"
#include "estimate/TraceExtrapolation.h"
#include "estimate/TraceReplay.h"
#include "io/InputError.h"
#include "probe/CachingAllocatorSimulator.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>

using namespace gpumem;
using estimate::Category;
using estimate::Phase;
using estimate::TaggedEvent;
using estimate::TaggedTrace;

namespace {

estimate::EstimateConfiguration configurationFor(const std::string &path, std::vector<std::int64_t> shape,
                                                 const std::string &optimizer = "adam")
{
    estimate::EstimateConfiguration configuration;
    configuration.modelPath = path;
    configuration.inputShapes = {std::move(shape)};
    configuration.optimizer = optimizer;
    return configuration;
}

// Requested bytes of the blocks still live at the end of a trace, per category.
estimate::CategoryBytes liveAtEnd(const TaggedTrace &trace)
{
    std::vector<bool> released(trace.events.size(), false);
    for (const auto &event : trace.events)
        if (event.isRelease())
            released[static_cast<std::size_t>(event.allocation)] = true;
    estimate::CategoryBytes live{};
    for (std::size_t i = 0; i < trace.events.size(); ++i)
        if (!trace.events[i].isRelease() && !released[i])
            live[static_cast<std::size_t>(trace.events[i].category)] += trace.events[i].bytes;
    return live;
}

std::uint64_t of(const estimate::CategoryBytes &bytes, Category category)
{
    return bytes[static_cast<std::size_t>(category)];
}

std::string errorOf(const std::function<void()> &action)
{
    try {
        action();
    } catch (const io::InputError &error) {
        return error.what();
    }
    return {};
}

estimate::GpuProfile testProfile(double capacityMib)
{
    return {"test", capacityMib, 300.0, 8.0, "test"};
}

// A model whose only activation grows with the square of the batch (as an attention
// over the batch would): 1 MiB × batch² beside 4 MiB of parameters.
class SquareInTheBatchTracer : public estimate::StepTracer
{
  public:
    const estimate::ModelSummary &summary() const override { return mSummary; }

    estimate::TaggedTrace trace(std::int64_t batchSize) const override
    {
        ++mTraces;
        const auto square = static_cast<std::uint64_t>(batchSize * batchSize) << 20;
        return {batchSize,
                {{std::uint64_t{4} << 20, -1, estimate::Phase::Setup, estimate::Category::Parameters},
                 {square, -1, estimate::Phase::Forward, estimate::Category::Activations},
                 {square, 1, estimate::Phase::Backward, estimate::Category::Activations}}};
    }

    int traces() const { return mTraces; }

  private:
    estimate::ModelSummary mSummary{std::uint64_t{4} << 20, 0, 1 << 20};
    mutable int mTraces = 0;
};

} // namespace

class TestEstimate : public QObject
{
    Q_OBJECT

  private:
    std::unique_ptr<tests::EstimateFixtures> mFixtures;

    // The tracer of the current row's fixture model (column "model") on the
    // sample shape of column "shape".
    estimate::ModelTracer rowTracer(const std::string &optimizer = "adam") const
    {
        QFETCH(QString, model);
        QFETCH(QString, shape);
        return estimate::ModelTracer(configurationFor(mFixtures->path((model.toStdString() + ".pt").c_str()),
                                                      estimate::parseSampleShape(shape.toStdString(), "--input-shape"),
                                                      optimizer));
    }

  private Q_SLOTS:
    void initTestCase() { mFixtures = std::make_unique<tests::EstimateFixtures>(); }

    void parameterBytesAreNumelTimesElementSize_data()
    {
        addColumns<QString, QString>("model", "shape");
        addRow("mlp", "mlp", "20");
        addRow("cnn", "cnn", "3,16,16");
    }
    void parameterBytesAreNumelTimesElementSize()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        QFETCH(QString, model);
        const std::string name = model.toStdString();
        const estimate::ModelTracer tracer = rowTracer();
        QCOMPARE(static_cast<qint64>(tracer.summary().parameterBytes),
                 mFixtures->size(name.c_str(), "parameter_bytes"));
        QCOMPARE(static_cast<qint64>(tracer.summary().bufferBytes), mFixtures->size(name.c_str(), "buffer_bytes"));
        QCOMPARE(static_cast<qint64>(tracer.summary().parameterCount),
                 mFixtures->size(name.c_str(), "parameter_count"));
    }

    void categoriesHoldGradientsAndOptimizerState_data()
    {
        addColumns<QString, QString, QString, int>("model", "shape", "optimizer", "stateCopies");
        addRow("mlp adam", "mlp", "20", "adam", 2);
        addRow("mlp adamw", "mlp", "20", "adamw", 2);
        addRow("mlp sgd_momentum", "mlp", "20", "sgd_momentum", 1);
        addRow("mlp sgd", "mlp", "20", "sgd", 0);
        addRow("cnn adam", "cnn", "3,16,16", "adam", 2);
    }
    void categoriesHoldGradientsAndOptimizerState()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        QFETCH(QString, model);
        QFETCH(QString, optimizer);
        QFETCH(int, stateCopies);
        const std::string name = model.toStdString();
        const estimate::ModelTracer tracer = rowTracer(optimizer.toStdString());
        const TaggedTrace trace = tracer.trace(4);
        const estimate::CategoryBytes live = liveAtEnd(trace);
        const auto parameterBytes = static_cast<std::uint64_t>(mFixtures->size(name.c_str(), "parameter_bytes"));
        const auto bufferBytes = static_cast<std::uint64_t>(mFixtures->size(name.c_str(), "buffer_bytes"));
        // After the last step: one gradient per parameter, the optimizer's
        // state (Adam: exp_avg and exp_avg_sq; momentum: one buffer).
        QCOMPARE(of(live, Category::Parameters), parameterBytes + bufferBytes);
        QCOMPARE(of(live, Category::Gradients), parameterBytes);
        QCOMPARE(of(live, Category::OptimizerState), parameterBytes * static_cast<std::uint64_t>(stateCopies));
        // The phases come in training order. SGD updates in place, and with momentum
        // allocates its buffer only in the first step; Adam's denominators are new
        // at every step.
        QCOMPARE(trace.events.front().phase, Phase::Setup);
        QCOMPARE(trace.events.back().phase, optimizer.startsWith("adam") ? Phase::Optimizer : Phase::Backward);
        // The same batch gives the same trace.
        const TaggedTrace again = tracer.trace(4);
        QCOMPARE(again.events.size(), trace.events.size());
    }

    void extrapolationAgreesWithDirectTrace_data()
    {
        addColumns<QString, QString, int>("model", "shape", "smallBatch");
        addRow("mlp from 1 and 2", "mlp", "20", 1);
        addRow("mlp from 2 and 4", "mlp", "20", 2);
        // On the CPU the CNN allocates differently at batch 1 (events do not align), so its traces start at 2.
        addRow("cnn from 2 and 4", "cnn", "3,16,16", 2);
    }
    void extrapolationAgreesWithDirectTrace()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        const estimate::ModelTracer tracer = rowTracer();
        std::string why;
        QFETCH(int, smallBatch);
        const auto affine = estimate::AffineTrace::fit(tracer.trace(smallBatch), tracer.trace(2 * smallBatch), why);
        QVERIFY2(affine.has_value(), why.c_str());
        constexpr std::int64_t batch = 48;
        const estimate::ReplayResult extrapolated = estimate::replayTrace(affine->at(batch));
        const estimate::ReplayResult direct = estimate::replayTrace(tracer.trace(batch));
        const auto within = [](std::uint64_t a, std::uint64_t b) {
            return std::abs(static_cast<double>(a) - static_cast<double>(b)) <= 0.01 * static_cast<double>(b);
        };
        QVERIFY2(within(extrapolated.peakAllocatedBytes, direct.peakAllocatedBytes),
                 qPrintable(QString("%1 vs %2").arg(extrapolated.peakAllocatedBytes).arg(direct.peakAllocatedBytes)));
        QVERIFY2(within(extrapolated.peakReservedBytes, direct.peakReservedBytes),
                 qPrintable(QString("%1 vs %2").arg(extrapolated.peakReservedBytes).arg(direct.peakReservedBytes)));
    }

    void estimatesSearchTheLargestFittingBatch()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        const estimate::ModelTracer tracer(configurationFor(mFixtures->path("cnn.pt"), {3, 16, 16}));
        estimate::EstimateRequest request;
        request.batchSizes = {8, 4096};
        request.maxBatch = true;
        // Room for a few MiB of tensors beside context and workspace.
        const estimate::GpuProfile profile = testProfile(300.0 + 8.0 + 40.0);
        const estimate::EstimateResult result = estimate::MemoryEstimator::estimate(tracer, profile, request);
        QVERIFY(result.extrapolated);
        QCOMPARE(result.estimates.size(), std::size_t{2});
        QVERIFY(result.maxBatch.has_value());
        const std::int64_t largest = *result.maxBatch;
        QVERIFY(largest > 8 && largest < 4096);
        std::string why;
        const auto affine = estimate::AffineTrace::fit(tracer.trace(2), tracer.trace(4), why);
        QVERIFY(estimate::MemoryEstimator::estimateOf(affine->at(largest), profile).deviceTotalMib() <=
                profile.capacityMib);
        QVERIFY(estimate::MemoryEstimator::estimateOf(affine->at(largest + 1), profile).deviceTotalMib() >
                profile.capacityMib);
        // The device total adds context and workspace to the peak reserved bytes.
        const estimate::BatchEstimate &first = result.estimates.front();
        QCOMPARE(first.deviceTotalMib(), static_cast<double>(first.peakReservedBytes) / (1024.0 * 1024.0) + 308.0);
    }

    void searchesTheLargestBatchOfOtherProfilesWithoutTracingAgain()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        const estimate::ModelTracer tracer(configurationFor(mFixtures->path("cnn.pt"), {3, 16, 16}));
        estimate::EstimateRequest request;
        request.batchSizes = {8};
        request.maxBatch = true;
        const estimate::GpuProfile chosen = testProfile(300.0 + 8.0 + 40.0);
        estimate::GpuProfile larger = testProfile(300.0 + 8.0 + 120.0);
        larger.name = "larger";
        estimate::GpuProfile tiny = testProfile(100.0); // below its own context
        tiny.name = "tiny";
        request.maxBatchAlsoFor = {larger, chosen, tiny};
        const estimate::EstimateResult result = estimate::MemoryEstimator::estimate(tracer, chosen, request);
        QCOMPARE(result.maxBatchByProfile.size(), std::size_t{3});
        // Each equals the search of an estimate made for that profile alone.
        for (std::size_t index = 0; index < 2; ++index) {
            const estimate::GpuProfile &profile = request.maxBatchAlsoFor[index];
            estimate::EstimateRequest alone;
            alone.batchSizes = {8};
            alone.maxBatch = true;
            const auto own = estimate::MemoryEstimator::estimate(tracer, profile, alone);
            QCOMPARE(result.maxBatchByProfile[index].first, profile.name);
            QCOMPARE(result.maxBatchByProfile[index].second, *own.maxBatch);
            QCOMPARE(result.tracedBatches, own.tracedBatches); // the same traces, none more
        }
        QVERIFY(result.maxBatchByProfile[0].second > result.maxBatchByProfile[1].second);
        QCOMPARE(result.maxBatchByProfile[1].second, *result.maxBatch);
        QCOMPARE(result.maxBatchByProfile[2], (std::pair<std::string, std::int64_t>{"tiny", 0}));
    }

    void modelRefusingBatchOneIsExtrapolatedFromTwoAndFour()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        const estimate::ModelTracer tracer(configurationFor(mFixtures->path("pairs_only.pt"), {20}));
        const std::string refusal = errorOf([&] { tracer.trace(1); });
        QVERIFY2(refusal.find("needs at least 2 samples per batch") != std::string::npos, refusal.c_str());
        QVERIFY2(refusal.find('\n') == std::string::npos, refusal.c_str());
        estimate::EstimateRequest request;
        request.batchSizes = {4, 40};
        const estimate::EstimateResult result =
            estimate::MemoryEstimator::estimate(tracer, testProfile(80.0 * 1024.0), request);
        QVERIFY(result.extrapolated);
        QVERIFY(result.estimates[0].measuredDirectly);  // batch 4 was traced
        QVERIFY(!result.estimates[1].measuredDirectly); // batch 40 was extrapolated
        QCOMPARE(result.estimates[1].peakReservedBytes, estimate::replayTrace(tracer.trace(40)).peakReservedBytes);
    }

    // Issue 24: a line through batches 1 and 2 put this model at 5 MiB, "fitting" at batch 65,536.
    void aThirdBatchTellsALineFromACurve()
    {
        const SquareInTheBatchTracer tracer;
        estimate::EstimateRequest request;
        request.batchSizes = {64};
        request.maxBatch = true;
        const estimate::EstimateResult result =
            estimate::MemoryEstimator::estimate(tracer, testProfile(80.0 * 1024.0), request);
        QVERIFY(!result.extrapolated);
        QCOMPARE(result.tracedBatches, (std::vector<std::int64_t>{1, 2, 3, 64}));
        QVERIFY(result.estimates.front().measuredDirectly);
        // 64² MiB of activations, traced at 64 itself: 4 GiB, not a line's 190 MiB.
        QCOMPARE(result.estimates.front().peakAllocatedBytes,
                 (std::uint64_t{64 * 64} << 20) + (std::uint64_t{4} << 20));
        const std::string notes = std::accumulate(result.notes.begin(), result.notes.end(), std::string());
        QVERIFY2(notes.find("batch 1, 2 and 3: allocation 1 at batch 3 is 9437184 bytes") != std::string::npos,
                 notes.c_str());
        QVERIFY2(notes.find("--max-batch needs traces that extrapolate") != std::string::npos, notes.c_str());
        QCOMPARE(tracer.traces(), 4);
    }

    void rejectedInputShapeGivesTheModelsMessageOnOneLine()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        const estimate::ModelTracer tracer(configurationFor(mFixtures->path("mlp.pt"), {7}));
        const std::string message = errorOf([&] { tracer.trace(2); });
        QVERIFY2(!message.empty(), "a 7-feature input to a 20-feature model must be refused");
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
        QVERIFY2(message.find("mlp.pt") != std::string::npos, message.c_str());
        QVERIFY2(message.find("shapes cannot be multiplied") != std::string::npos, message.c_str());
    }

    void notTorchScriptIsOneLine()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        QTemporaryDir folder;
        const QString garbage = folder.filePath("garbage.pt");
        QVERIFY(writeText(garbage, std::string("not a model at all\n\x01\x02", 21)));
        for (const std::string &path :
             {garbage.toStdString(), mFixtures->path("weights.pt"), folder.filePath("missing.pt").toStdString()}) {
            const std::string message = errorOf([&] { estimate::ModelTracer tracer(configurationFor(path, {20})); });
            QVERIFY2(!message.empty(), path.c_str());
            QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
            QVERIFY2(message.rfind(path, 0) == 0, message.c_str());
        }
    }

    void newerFileFormatNamesBothVersions()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        // The same model with its archive's version record raised past what LibTorch reads.
        QTemporaryDir folder;
        const QString newer = folder.filePath("newer.pt");
        QProcess python;
        python.start("/usr/bin/python3",
                     {"-c",
                      "import sys, zipfile\n"
                      "source = zipfile.ZipFile(sys.argv[1])\n"
                      "with zipfile.ZipFile(sys.argv[2], 'w') as target:\n"
                      "    for item in source.infolist():\n"
                      "        data = source.read(item.filename)\n"
                      "        target.writestr(item, b'99\\n' if item.filename.endswith('/version') else data)\n",
                      QString::fromStdString(mFixtures->path("mlp.pt")), newer});
        QVERIFY(python.waitForFinished(60000) && python.exitCode() == 0);
        const std::string message =
            errorOf([&] { estimate::ModelTracer tracer(configurationFor(newer.toStdString(), {20})); });
        QVERIFY2(message.find("newer PyTorch") != std::string::npos, message.c_str());
        QVERIFY2(message.find("file format version 99") != std::string::npos, message.c_str());
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
    }

    void affineFitExtrapolatesAndRefusesMisalignedTraces()
    {
        // Hand-made traces: a parameter of 4096 bytes, an activation of
        // 100 + 40 × batch bytes that is released.
        const auto traceAt = [](std::int64_t batch) {
            TaggedTrace trace;
            trace.batchSize = batch;
            trace.events = {{4096, -1, Phase::Setup, Category::Parameters},
                            {static_cast<std::uint64_t>(100 + 40 * batch), -1, Phase::Forward, Category::Activations},
                            {static_cast<std::uint64_t>(100 + 40 * batch), 1, Phase::Backward, Category::Activations}};
            return trace;
        };
        std::string why;
        const auto affine = estimate::AffineTrace::fit(traceAt(2), traceAt(4), why);
        QVERIFY(affine.has_value());
        const TaggedTrace at1000 = affine->at(1000);
        QCOMPARE(at1000.events[0].bytes, std::uint64_t{4096});
        QCOMPARE(at1000.events[1].bytes, std::uint64_t{40100});
        QCOMPARE(at1000.events[2].bytes, std::uint64_t{40100});

        TaggedTrace shorter = traceAt(4);
        shorter.events.pop_back();
        QVERIFY(!estimate::AffineTrace::fit(traceAt(2), shorter, why));
        QVERIFY(why.find("events") != std::string::npos);
        TaggedTrace otherPhase = traceAt(4);
        otherPhase.events[1].phase = Phase::Backward;
        QVERIFY(!estimate::AffineTrace::fit(traceAt(2), otherPhase, why));
        TaggedTrace notAffine = traceAt(4);
        notAffine.events[1].bytes += 1; // 81 bytes more over 2 samples
        QVERIFY(!estimate::AffineTrace::fit(traceAt(2), notAffine, why));
        QVERIFY(why.find("affine") != std::string::npos);
    }

    void affineFitPicksTheLesserAlgorithmAtEveryBatch()
    {
        // A workspace of the lesser of 1,000 × batch bytes (one filter per sample) and
        // 5,000 + 100 × batch (copies): the first at batches 2 and 4 (2,000 and 4,000
        // against 5,200 and 5,400), the second at 8 (8,000 against 5,800), where a line
        // through the two smaller sizes would give 8,000.
        const auto traceAt = [](std::int64_t batch) {
            const estimate::AlgorithmBytes algorithms = {static_cast<std::uint64_t>(1000 * batch),
                                                         static_cast<std::uint64_t>(5000 + 100 * batch)};
            TaggedTrace trace;
            trace.batchSize = batch;
            const std::uint64_t bytes = std::min(algorithms[0], algorithms[1]);
            trace.events = {{bytes, -1, Phase::Backward, Category::Activations, algorithms},
                            {bytes, 0, Phase::Backward, Category::Activations}};
            return trace;
        };
        std::string why;
        const auto affine = estimate::AffineTrace::fit(traceAt(2), traceAt(4), why);
        QVERIFY2(affine.has_value(), why.c_str());
        const TaggedTrace at8 = affine->at(8);
        QCOMPARE(at8.events[0].bytes, std::uint64_t{5800});
        QCOMPARE(at8.events[1].bytes, std::uint64_t{5800}); // its release
        QCOMPARE(*at8.events[0].algorithms, (estimate::AlgorithmBytes{8000, 5800}));
        QVERIFY2(affine->predicts(traceAt(8), why), why.c_str());
        // A trace whose block is of one algorithm at one batch and two at the other does not align.
        TaggedTrace single = traceAt(4);
        single.events[0].algorithms.reset();
        QVERIFY(!estimate::AffineTrace::fit(traceAt(2), single, why));
    }

    void torchScriptConvolutionsHoldTheirWorkspaces()
    {
        // Two 3×3 convolutions of 8 channels over [2, 8, 16, 16]: input and output 16 KiB
        // of float32 each, the filter 2,304 bytes. Forward and the input's gradient take
        // all three (35,072 bytes), the filter's gradient 14 filters more (67,328); the
        // first convolution's input (the batch) needs no gradient.
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        estimate::EstimateConfiguration configuration =
            configurationFor(mFixtures->path("convolutions.pt"), {8, 16, 16});
        configuration.loss = "sum";
        const TaggedTrace trace = estimate::ModelTracer(configuration).trace(2);
        std::map<std::pair<Phase, std::uint64_t>, int> workspaces; // by phase and size
        for (const std::size_t i : tests::transientAllocations(trace))
            ++workspaces[{trace.events[i].phase, trace.events[i].bytes}];
        // Two steps.
        QCOMPARE((workspaces[{Phase::Forward, 35072}]), 4);
        QCOMPARE((workspaces[{Phase::Backward, 35072}]), 2);
        QCOMPARE((workspaces[{Phase::Backward, 67328}]), 4);
        QVERIFY(!trace.runsMatrixProducts);
        QVERIFY(estimate::ModelTracer(configurationFor(mFixtures->path("mlp.pt"), {20})).trace(2).runsMatrixProducts);
        // Without matrix products the estimate counts no cuBLAS workspace, and says so.
        estimate::EstimateRequest request;
        request.batchSizes = {4};
        const estimate::EstimateResult result =
            estimate::MemoryEstimator::estimate(estimate::ModelTracer(configuration), testProfile(80000), request);
        QCOMPARE(result.estimates.front().workspaceMib, 0.0);
        QCOMPARE(result.notes.size(), std::size_t{1});
        QVERIFY(result.notes.front().find("no cuBLAS handle") != std::string::npos);
    }

    void attentionRunsAsTheFusedKernelUnlessMath()
    {
        // Batch 4, 2 heads, 12 tokens: the probabilities are [8, 12, 12] float32 (4,608
        // bytes), the scores before them the same; the fused kernel keeps neither.
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        estimate::EstimateConfiguration configuration = configurationFor(mFixtures->path("attention.pt"), {12, 16});
        const auto squareBlocks = [](const TaggedTrace &trace) {
            return std::count_if(trace.events.begin(), trace.events.end(), [](const TaggedEvent &event) {
                return !event.isRelease() && event.phase == Phase::Forward && event.bytes == 8 * 12 * 12 * 4;
            });
        };
        configuration.attention = "math";
        const TaggedTrace math = estimate::ModelTracer(configuration).trace(4);
        configuration.attention = "efficient";
        const TaggedTrace fused = estimate::ModelTracer(configuration).trace(4);
        QCOMPARE(squareBlocks(math), 4); // scores and probabilities, two steps
        QCOMPARE(squareBlocks(fused), 0);
        QVERIFY(estimate::peakRequestedBytes(fused) < estimate::peakRequestedBytes(math));
    }

    void replayCountsCategoriesAtThePeak()
    {
        TaggedTrace trace;
        trace.events = {{1000, -1, Phase::Setup, Category::Parameters},
                        {3u << 20, -1, Phase::Forward, Category::Activations},
                        {1000, -1, Phase::Backward, Category::Gradients},
                        {3u << 20, 1, Phase::Backward, Category::Activations}};
        const estimate::ReplayResult replay = estimate::replayTrace(trace, true);
        // 1000 bytes round to 1024; 3 MiB is a large-pool request in a 20 MiB segment.
        QCOMPARE(replay.peakAllocatedBytes, std::uint64_t{1024 + (3u << 20) + 1024});
        QCOMPARE(replay.peakReservedBytes, std::uint64_t{(2u << 20) + (20u << 20)});
        QCOMPARE(of(replay.bytesAtPeak, Category::Parameters), std::uint64_t{1024});
        QCOMPARE(of(replay.bytesAtPeak, Category::Activations), std::uint64_t{3u << 20});
        QCOMPARE(of(replay.bytesAtPeak, Category::Gradients), std::uint64_t{1024});
        QCOMPARE(replay.timeline.size(), std::size_t{4});
        QCOMPARE(replay.timeline.back().allocatedBytes, std::uint64_t{2048});
    }

    void installedProfilesAreRead()
    {
        const std::vector<std::string> names = estimate::gpuProfileNames();
        for (const char *expected :
             {"t4",       "v100-16",  "v100-32",  "a10",      "l4",        "rtx-3060",     "rtx-3090",
              "rtx-4080", "rtx-4090", "rtx-5090", "a40",      "rtx-a6000", "rtx-6000-ada", "l40s",
              "a100-40",  "a100-80",  "h100-80",  "h100-nvl", "h200",      "b200"})
            QVERIFY2(std::find(names.begin(), names.end(), expected) != names.end(), expected);
        for (const auto &name : names) {
            const estimate::GpuProfile profile = estimate::findGpuProfile(name);
            QVERIFY(profile.capacityMib > profile.contextMib + profile.workspaceMib);
            QVERIFY(!profile.source.empty());
        }
        QCOMPARE(estimate::findGpuProfile("A100-80").capacityMib, 80.0 * 1024.0);
        QVERIFY(!errorOf([] { estimate::findGpuProfile("a100-81"); }).empty());
    }

    void profilesHoldTwoCublasWorkspaces()
    {
        // One workspace per cuBLAS handle: the training loop's thread and autograd's device
        // thread. PyTorch's default :4096:2:16:8 is 2 x 4 MiB + 8 x 16 KiB = 8.125 MiB per
        // handle, whole MiB in the profiles; :4096:8, which Hopper gets (and Blackwell from
        // PyTorch 2.12), is 32 MiB.
        for (const auto &name : estimate::gpuProfileNames()) {
            const bool large =
                name == "h100-80" || name == "h100-nvl" || name == "h200" || name == "b200" || name == "rtx-5090";
            QCOMPARE(estimate::findGpuProfile(name).workspaceMib, large ? 2 * 32.0 : 2 * 8.0);
        }
    }

    void hostileProfilesAreRefusedOnOneLine_data()
    {
        addColumns<QString>("content");
        addRow("not json", "{\"name\": ");
        addRow("array", "[1, 2]");
        addRow("missing capacity", R"({"name":"x","context_mib":1,"workspace_mib":1,"source":"s"})");
        addRow("capacity text", R"({"name":"x","capacity_mib":"80","context_mib":1,"workspace_mib":1,"source":"s"})");
        addRow("negative context", R"({"name":"x","capacity_mib":80,"context_mib":-1,"workspace_mib":1,"source":"s"})");
        addRow("huge capacity", R"({"name":"x","capacity_mib":1e300,"context_mib":1,"workspace_mib":1,"source":"s"})");
        addRow("context above capacity",
               R"({"name":"x","capacity_mib":80,"context_mib":100,"workspace_mib":1,"source":"s"})");
        addRow("unknown key",
               R"({"name":"x","capacity_mib":80,"context_mib":1,"workspace_mib":1,"source":"s","extra":1})");
        addRow("empty name", R"({"name":"","capacity_mib":80,"context_mib":1,"workspace_mib":1,"source":"s"})");
        // Issue 24: the profile had its own lenient reader, which kept the last of two names.
        addRow("duplicate key",
               R"({"name":"x","name":"y","capacity_mib":80,"context_mib":1,"workspace_mib":1,"source":"s"})");
    }
    void hostileProfilesAreRefusedOnOneLine()
    {
        QFETCH(QString, content);
        QTemporaryDir folder;
        const QString path = folder.filePath("profile.json");
        QVERIFY(writeText(path, content.toStdString()));
        const std::string message = errorOf([&] { estimate::readGpuProfile(path.toStdString()); });
        QVERIFY2(!message.empty(), qPrintable(content));
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
        QVERIFY2(message.rfind(path.toStdString(), 0) == 0, message.c_str());
    }

    void oversizedProfileIsRefusedBeforeReading()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("big.json");
        QVERIFY(writeText(path, "{\"name\":\"" + std::string(100000, 'x') + "\"}"));
        QVERIFY(!errorOf([&] { estimate::readGpuProfile(path.toStdString()); }).empty());
    }

    void sampleShapesAreChecked()
    {
        QCOMPARE(estimate::parseSampleShape("3,224,224", "--input-shape"), (std::vector<std::int64_t>{3, 224, 224}));
        for (const char *bad : {"", "3,,4", "0", "-1", "3,x", "3,224,", "99999999999"})
            QVERIFY2(!errorOf([&] { estimate::parseSampleShape(bad, "--input-shape"); }).empty(), bad);
    }
};

QTEST_GUILESS_MAIN(TestEstimate)
#include "test_Estimate.moc"
