// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProbeJobs.h"
#include "estimate/GpuProfile.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/ProbeJobTracer.h"
#include "estimate/ShapeExtrapolatingTracer.h"
#include "estimate/TraceExtrapolation.h"

#include <QTest>

using gpumem::estimate::Category, gpumem::estimate::Phase, gpumem::estimate::ProbeJobTracer,
    gpumem::estimate::QuadraticTrace, gpumem::estimate::ShapeExtrapolatingTracer, gpumem::estimate::TaggedEvent,
    gpumem::estimate::TaggedTrace, gpumem::probe::JobConfiguration;

using SmallSizes = std::array<std::int64_t, 4>;

Q_DECLARE_METATYPE(JobConfiguration)

namespace {

// A hand-made trace at sequence length L: a parameter table of 64·L bytes, attention
// scores of 4·L² + 12·L + 100 bytes, then their release; cubic adds an L³ term.
TaggedTrace handTrace(std::int64_t length, bool cubic = false)
{
    TaggedTrace trace;
    trace.batchSize = 2;
    const auto bytes =
        static_cast<std::uint64_t>(4 * length * length + 12 * length + 100 + (cubic ? length * length * length : 0));
    trace.events = {{static_cast<std::uint64_t>(64 * length), -1, Phase::Setup, Category::Parameters},
                    {bytes, -1, Phase::Forward, Category::Activations},
                    {bytes, 1, Phase::Forward, Category::Activations}};
    return trace;
}

// job trained two steps at batch 3 with optimizer, as every case here is.
JobConfiguration trained(JobConfiguration job, const char *optimizer)
{
    job.optimizer = optimizer;
    job.steps = 2;
    job.batchSize = 3;
    return job;
}

// A small CNN of two blocks at 40 pixels: its small images are 4 pixels apart.
JobConfiguration trainedCnn(const char *downsampling, const char *dtype, bool batchNorm, const char *optimizer)
{
    JobConfiguration job = gpumem::tests::pooledCnnJob(3, 40, 2, 8, 10);
    job.downsampling = downsampling;
    job.dtype = dtype;
    job.batchNorm = batchNorm;
    return trained(job, optimizer);
}

// Whether two traces are the same, event for event and byte for byte.
bool sameTrace(const TaggedTrace &a, const TaggedTrace &b)
{
    if (a.events.size() != b.events.size())
        return false;
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const TaggedEvent &x = a.events[i];
        const TaggedEvent &y = b.events[i];
        if (x.bytes != y.bytes || x.allocation != y.allocation || x.phase != y.phase || x.category != y.category)
            return false;
    }
    return true;
}

// job with another resolution (a CNN) or sequence length (a Transformer).
JobConfiguration atSize(JobConfiguration job, int size)
{
    (job.family == gpumem::probe::JobFamily::Cnn ? job.resolution : job.sequenceLength) = size;
    return job;
}

JobConfiguration trainedTransformer(bool causal, double dropout, const char *optimizer)
{
    JobConfiguration job = gpumem::tests::transformerJob(2, 32, 4, 70, 50);
    job.causal = causal;
    job.dropout = dropout;
    return trained(job, optimizer);
}

} // namespace

class TestShapeExtrapolation : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void fitsAParabolaExactly()
    {
        std::string why;
        const auto fitted = QuadraticTrace::fit({handTrace(6), handTrace(10), handTrace(14)}, {6, 10, 14}, why);
        QVERIFY2(fitted, why.c_str());
        QVERIFY(fitted->reaches(1022));
        QVERIFY(!fitted->reaches(1024)); // not 6 plus whole steps of 4
        const TaggedTrace at = fitted->at(1022);
        QCOMPARE(at.batchSize, std::int64_t{2});
        QCOMPARE(at.events[0].bytes, std::uint64_t{64 * 1022});
        QCOMPARE(at.events[1].bytes, std::uint64_t{4 * 1022 * 1022 + 12 * 1022 + 100});
        QCOMPARE(at.events[2].bytes, at.events[1].bytes); // a release gives back its allocation
        QVERIFY2(fitted->predicts(handTrace(18), 18, why), why.c_str());
    }

    void picksTheLesserAlgorithmAtEverySize()
    {
        // A workspace of the lesser of 1,000 bytes (a filter's, whatever the map) and
        // 2·L² + 100 (copies of a map of side L): the second at L = 6, 10, 14 (172, 300,
        // 492), the first at 30 (1,900 against 1,000), where the parabola through the
        // smaller sizes would give 1,900.
        const auto traceAt = [](std::int64_t side) {
            const gpumem::estimate::AlgorithmBytes algorithms = {1000,
                                                                 static_cast<std::uint64_t>(2 * side * side + 100)};
            TaggedTrace trace;
            trace.batchSize = 2;
            trace.events = {
                {std::min(algorithms[0], algorithms[1]), -1, Phase::Forward, Category::Activations, algorithms}};
            return trace;
        };
        std::string why;
        const auto fitted = QuadraticTrace::fit({traceAt(6), traceAt(10), traceAt(14)}, {6, 10, 14}, why);
        QVERIFY2(fitted, why.c_str());
        QCOMPARE(fitted->at(30).events[0].bytes, std::uint64_t{1000});
        QCOMPARE(fitted->at(18).events[0].bytes, std::uint64_t{748});
        QVERIFY2(fitted->predicts(traceAt(30), 30, why), why.c_str());
    }

    void refusesWhatIsNotAParabola()
    {
        std::string why;
        const auto cubic =
            QuadraticTrace::fit({handTrace(6, true), handTrace(10, true), handTrace(14, true)}, {6, 10, 14}, why);
        QVERIFY(cubic); // three points always fit
        QVERIFY(!cubic->predicts(handTrace(18, true), 18, why));
        QVERIFY2(why.find("allocation 1 at length 18") != std::string::npos, why.c_str());

        TaggedTrace fewer = handTrace(10);
        fewer.events.pop_back();
        QVERIFY(!QuadraticTrace::fit({handTrace(6), fewer, handTrace(14)}, {6, 10, 14}, why));
        QVERIFY2(why.find("events") != std::string::npos, why.c_str());
        QVERIFY(!QuadraticTrace::fit({handTrace(6), handTrace(10), handTrace(15)}, {6, 10, 15}, why));
        QVERIFY(why.find("equally spaced") != std::string::npos);
    }

    void extrapolatesTheDirectTrace_data()
    {
        QTest::addColumn<JobConfiguration>("job");
        QTest::addColumn<SmallSizes>("smallSizes");
        QTest::addColumn<QString>("axis");
        // Lengths 2 apart, congruent to 70 modulo 2.
        QTest::newRow("causal, adam") << trainedTransformer(true, 0.0, "adam") << SmallSizes{2, 4, 6, 8}
                                      << "sequence length";
        QTest::newRow("dropout, sgd with momentum")
            << trainedTransformer(false, 0.1, "sgd_momentum") << SmallSizes{2, 4, 6, 8} << "sequence length";
        // Pooling halves the map after each convolution: from one step of 2² pixels.
        QTest::newRow("pooling, float64, sgd with momentum")
            << trainedCnn("pool", "float64", false, "sgd_momentum") << SmallSizes{4, 8, 12, 16} << "resolution";
        // A strided convolution's own output must stay 2×2 or more: from two steps.
        QTest::newRow("strides, batch norm, adam")
            << trainedCnn("stride", "float32", true, "adam") << SmallSizes{8, 12, 16, 20} << "resolution";
    }
    void extrapolatesTheDirectTrace()
    {
        // Every event of the trace at the job's size comes out of the small sizes byte
        // for byte, so the replays agree exactly, not only within the 1% asked of them.
        QFETCH(JobConfiguration, job);
        QFETCH(SmallSizes, smallSizes);
        QFETCH(QString, axis);
        QVERIFY(ShapeExtrapolatingTracer::applies(job));
        const ShapeExtrapolatingTracer extrapolating(job);
        const ProbeJobTracer direct(job);
        QCOMPARE(extrapolating.smallSizes(), smallSizes);
        QCOMPARE(QString(extrapolating.axis()), axis);
        QCOMPARE(extrapolating.summary().parameterCount, direct.summary().parameterCount);
        for (const std::int64_t batch : {1, 2, 3})
            QVERIFY2(sameTrace(extrapolating.trace(batch), direct.trace(batch)),
                     ("batch " + std::to_string(batch)).c_str());
        QVERIFY2(extrapolating.extrapolated(), extrapolating.why().c_str());
        const auto profile = gpumem::estimate::findGpuProfile("a100-80");
        gpumem::estimate::EstimateRequest request;
        request.batchSizes = {64};
        const auto viaSmall = gpumem::estimate::MemoryEstimator::estimate(extrapolating, profile, request);
        const auto viaLarge = gpumem::estimate::MemoryEstimator::estimate(direct, profile, request);
        QCOMPARE(viaSmall.estimates.front().peakReservedBytes, viaLarge.estimates.front().peakReservedBytes);
        QCOMPARE(viaSmall.estimates.front().peakAllocatedBytes, viaLarge.estimates.front().peakAllocatedBytes);
    }

    void takesAThirdBatchFromTheLineInAnyOrder()
    {
        // The batches asked in another order than MemoryEstimator's (larger first, then
        // one between): the third still comes out as the direct trace.
        const JobConfiguration job = trainedTransformer(true, 0.0, "adam");
        const ShapeExtrapolatingTracer extrapolating(job);
        const ProbeJobTracer direct(job);
        for (const std::int64_t batch : {4, 2, 6, 3})
            QVERIFY2(sameTrace(extrapolating.trace(batch), direct.trace(batch)),
                     ("batch " + std::to_string(batch)).c_str());
        QVERIFY2(extrapolating.extrapolated(), extrapolating.why().c_str());
    }

    void stepsOneNetworkAtEverySize_data()
    {
        QTest::addColumn<JobConfiguration>("job");
        QTest::addColumn<int>("otherSize");
        QTest::newRow("causal transformer, adam") << trainedTransformer(true, 0.1, "adam") << 12;
        QTest::newRow("strided cnn, batch norm, adam") << trainedCnn("stride", "float32", true, "adam") << 24;
    }
    void stepsOneNetworkAtEverySize()
    {
        // A tracer builds its job's network once and steps it at every batch and size
        // asked: after traces at other sizes, the position table and causal mask
        // remade and the gradients and optimizer state of earlier steps gone, its trace
        // is that of a network built for the size alone, event for event.
        QFETCH(JobConfiguration, job);
        QFETCH(int, otherSize);
        const JobConfiguration other = atSize(job, otherSize);
        const ProbeJobTracer reused(job);
        const TaggedTrace first = reused.trace(other, 2);
        reused.trace(3);
        const TaggedTrace again = reused.trace(other, 2);
        QVERIFY(sameTrace(again, first));
        QVERIFY(sameTrace(again, ProbeJobTracer(other).trace(2)));
        QVERIFY(sameTrace(reused.trace(3), ProbeJobTracer(job).trace(3)));
        QVERIFY(!sameTrace(again, reused.trace(2))); // the sizes do differ
    }

    void tracesACnnsFirstBatchAtItsOwnResolution()
    {
        // With 64 channels the second convolution's input passes LibTorch's one-sample
        // threshold at 40 pixels but not at 16, the fourth small image.
        JobConfiguration job = trainedCnn("pool", "float32", false, "sgd");
        job.baseChannels = 64;
        const ShapeExtrapolatingTracer extrapolating(job);
        const ProbeJobTracer direct(job);
        QVERIFY(sameTrace(extrapolating.trace(1), direct.trace(1)));
        QVERIFY(sameTrace(extrapolating.trace(2), direct.trace(2)));
        QVERIFY2(extrapolating.extrapolated(), extrapolating.why().c_str());
    }

    void leavesSmallInputsAndOtherFamiliesAlone()
    {
        QVERIFY(!ShapeExtrapolatingTracer::applies(gpumem::tests::transformerJob(1, 16, 2, 8, 10)));
        QVERIFY(ShapeExtrapolatingTracer::applies(gpumem::tests::transformerJob(1, 16, 2, 10, 10)));
        // Five blocks step by 32 pixels: 32, 64 and 96 cost more than one trace at 128.
        QVERIFY(!ShapeExtrapolatingTracer::applies(gpumem::tests::pooledCnnJob(3, 128, 5, 8, 5)));
        QVERIFY(ShapeExtrapolatingTracer::applies(gpumem::tests::pooledCnnJob(3, 224, 5, 8, 5)));
        QVERIFY(!ShapeExtrapolatingTracer::applies(gpumem::tests::pooledCnnJob(3, 16, 2, 8, 5)));
        QVERIFY(!ShapeExtrapolatingTracer::applies(gpumem::tests::pooledCnnJob(3, -224, 2, 8, 5)));
        QVERIFY(!ShapeExtrapolatingTracer::applies(gpumem::tests::pooledCnnJob(3, 224, 40, 8, 5)));
        QVERIFY(!ShapeExtrapolatingTracer::applies(gpumem::tests::mlpJob(8, 2, 16, "uniform", 4)));
    }
};

QTEST_GUILESS_MAIN(TestShapeExtrapolation)
#include "test_ShapeExtrapolation.moc"
