// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProbeJobs.h"
#include "estimate/GpuProfile.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/ProbeJobTracer.h"
#include "estimate/SequenceExtrapolatingTracer.h"
#include "estimate/TraceExtrapolation.h"

#include <QTest>

using gpumem::estimate::Category;
using gpumem::estimate::Phase;
using gpumem::estimate::ProbeJobTracer;
using gpumem::estimate::QuadraticTrace;
using gpumem::estimate::SequenceExtrapolatingTracer;
using gpumem::estimate::TaggedEvent;
using gpumem::estimate::TaggedTrace;
using gpumem::probe::JobConfiguration;

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

JobConfiguration trainedTransformer(bool causal, double dropout, const char *optimizer)
{
    JobConfiguration job = gpumem::tests::transformerJob(2, 32, 4, 70, 50);
    job.causal = causal;
    job.dropout = dropout;
    job.optimizer = optimizer;
    job.steps = 2;
    job.batchSize = 3;
    return job;
}

} // namespace

class TestSequenceExtrapolation : public QObject
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
        QTest::newRow("causal, adam") << trainedTransformer(true, 0.0, "adam");
        QTest::newRow("dropout, sgd with momentum") << trainedTransformer(false, 0.1, "sgd_momentum");
    }
    void extrapolatesTheDirectTrace()
    {
        // Every event of the trace at length 70 comes out of lengths 6, 10 and 14 byte
        // for byte, so the replays agree exactly, not only within the 1% asked of them.
        QFETCH(JobConfiguration, job);
        QVERIFY(SequenceExtrapolatingTracer::applies(job));
        const SequenceExtrapolatingTracer extrapolating(job);
        const ProbeJobTracer direct(job);
        QCOMPARE(extrapolating.shortLengths(), (std::array<std::int64_t, 4>{6, 10, 14, 18}));
        QCOMPARE(extrapolating.summary().parameterCount, direct.summary().parameterCount);
        for (const std::int64_t batch : {1, 3}) {
            const TaggedTrace fitted = extrapolating.trace(batch);
            const TaggedTrace traced = direct.trace(batch);
            QCOMPARE(fitted.events.size(), traced.events.size());
            for (std::size_t i = 0; i < traced.events.size(); ++i) {
                QCOMPARE(fitted.events[i].bytes, traced.events[i].bytes);
                QCOMPARE(fitted.events[i].allocation, traced.events[i].allocation);
            }
        }
        QVERIFY2(extrapolating.extrapolated(), extrapolating.why().c_str());
        const auto profile = gpumem::estimate::findGpuProfile("a100-80");
        gpumem::estimate::EstimateRequest request;
        request.batchSizes = {64};
        const auto viaShort = gpumem::estimate::MemoryEstimator::estimate(extrapolating, profile, request);
        const auto viaLong = gpumem::estimate::MemoryEstimator::estimate(direct, profile, request);
        QCOMPARE(viaShort.estimates.front().peakReservedBytes, viaLong.estimates.front().peakReservedBytes);
        QCOMPARE(viaShort.estimates.front().peakAllocatedBytes, viaLong.estimates.front().peakAllocatedBytes);
    }

    void leavesShortSequencesAndOtherFamiliesAlone()
    {
        QVERIFY(!SequenceExtrapolatingTracer::applies(gpumem::tests::transformerJob(1, 16, 2, 18, 10)));
        QVERIFY(SequenceExtrapolatingTracer::applies(gpumem::tests::transformerJob(1, 16, 2, 20, 10)));
        QVERIFY(!SequenceExtrapolatingTracer::applies(gpumem::tests::pooledCnnJob(3, 16, 2, 8, 5)));
    }
};

QTEST_GUILESS_MAIN(TestSequenceExtrapolation)
#include "test_SequenceExtrapolation.moc"
