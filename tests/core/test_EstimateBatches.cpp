// SPDX-License-Identifier: GPL-3.0-or-later
// From traces to batches: the affine fit through two traced batches, the replay's
// peak, and the search for the largest batch that fits a card.
#include "EstimateFixtures.h"
#include "EstimateRequests.h"
#include "RaisedInputError.h"

#include "estimate/MemoryEstimator.h"
#include "estimate/ModelTracer.h"
#include "estimate/TraceExtrapolation.h"
#include "estimate/TraceReplay.h"

#include <QtTest>

#include <algorithm>
#include <numeric>

using namespace gpumem;
using estimate::Category, estimate::Phase, estimate::TaggedEvent, estimate::TaggedTrace, tests::configurationFor,
    tests::testProfile;

namespace {

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

class TestEstimateBatches : public QObject, private tests::UsesEstimateFixtures
{
    Q_OBJECT

  private Q_SLOTS:
    void estimatesSearchTheLargestFittingBatch()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const estimate::ModelTracer tracer(configurationFor(mFixtures.path("cnn.pt"), {3, 16, 16}));
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
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const estimate::ModelTracer tracer(configurationFor(mFixtures.path("cnn.pt"), {3, 16, 16}));
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
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        const estimate::ModelTracer tracer(configurationFor(mFixtures.path("pairs_only.pt"), {20}));
        const std::string refusal = tests::raisedMessage([&] { tracer.trace(1); });
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
        QCOMPARE(tests::bytesOf(replay.bytesAtPeak, Category::Parameters), std::uint64_t{1024});
        QCOMPARE(tests::bytesOf(replay.bytesAtPeak, Category::Activations), std::uint64_t{3u << 20});
        QCOMPARE(tests::bytesOf(replay.bytesAtPeak, Category::Gradients), std::uint64_t{1024});
        QCOMPARE(replay.timeline.size(), std::size_t{4});
        QCOMPARE(replay.timeline.back().allocatedBytes, std::uint64_t{2048});
    }
};

QTEST_GUILESS_MAIN(TestEstimateBatches)
#include "test_EstimateBatches.moc"
