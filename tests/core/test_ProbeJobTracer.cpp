// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "ProbeJobs.h"
#include "TraceTransients.h"
#include "estimate/GpuProfile.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/ProbeJobTracer.h"
#include "estimate/TraceExtrapolation.h"
#include "estimate/TraceReplay.h"
#include "io/InputError.h"
#include "probe/JobMeasurer.h"

#include <QTest>

#include <algorithm>
#include <cstdlib>

using gpumem::estimate::ProbeJobTracer, gpumem::estimate::TaggedTrace, gpumem::probe::JobConfiguration;

Q_DECLARE_METATYPE(JobConfiguration)

namespace {

// The most bytes live at once in trace, leaving out the blocks released as soon as they
// are allocated: the workspaces that only a GPU allocates.
std::uint64_t peakWithoutWorkspaces(TaggedTrace trace)
{
    for (const std::size_t i : gpumem::tests::transientAllocations(trace))
        trace.events[i].bytes = trace.events[i + 1].bytes = 0; // the workspace and its release
    return gpumem::estimate::peakRequestedBytes(trace);
}

JobConfiguration withTraining(JobConfiguration job, int batch, const char *optimizer)
{
    job.batchSize = batch;
    job.optimizer = optimizer;
    job.steps = 2;
    return job;
}

void addFamilies()
{
    addColumns<JobConfiguration>("job");
    JobConfiguration mlp = gpumem::tests::mlpJob(32, 2, 64, "pyramid", 10);
    mlp.batchNorm = true;
    mlp.dropout = 0.1;
    addRow("mlp", mlp);
    addRow("cnn", gpumem::tests::pooledCnnJob(3, 16, 2, 8, 5));
    addRow("transformer", gpumem::tests::transformerJob(2, 32, 4, 16, 64));
}

} // namespace

class TestProbeJobTracer : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void tracesWhatTheProbeMeasures_data() { addFamilies(); }
    void tracesWhatTheProbeMeasures()
    {
        // With plain SGD (an in-place update, no state) LibTorch's optimizer and the
        // traced foreach step allocate alike, so the trace's peak of live bytes is
        // what `gpumem probe` measures for the same job, byte for byte; but for what
        // runs otherwise on a GPU. A CNN's trace leaves out the scratch that the CPU's
        // convolution kernels allocate and free within a call and adds cuDNN's
        // workspaces: without those, its peak is lower. The MLP's dropout keeps a mask
        // of one byte per element, not its noise, but not at this job's peak.
        QFETCH(JobConfiguration, job);
        const JobConfiguration trained = withTraining(job, 6, "sgd");
        const auto measured = gpumem::probe::JobMeasurer::measure(trained, {});
        QCOMPARE(measured.status, gpumem::probe::JobStatus::Ok);
        const ProbeJobTracer tracer(trained);
        const TaggedTrace trace = tracer.trace(6);
        const std::uint64_t traced = job.family == gpumem::probe::JobFamily::Cnn
                                         ? peakWithoutWorkspaces(trace)
                                         : gpumem::estimate::peakRequestedBytes(trace);
        if (job.family == gpumem::probe::JobFamily::Cnn)
            QVERIFY2(traced < measured.peakAllocatedBytes,
                     qPrintable(QString("%1 traced, %2 measured").arg(traced).arg(measured.peakAllocatedBytes)));
        else
            QCOMPARE(traced, measured.peakAllocatedBytes);
    }

    void extrapolatesToTheDirectTrace_data() { addFamilies(); }
    void extrapolatesToTheDirectTrace()
    {
        QFETCH(JobConfiguration, job);
        // Batches 2 and 4: batch norm refuses a batch of one sample when training.
        const ProbeJobTracer tracer(withTraining(job, 2, "adam"));
        std::string why;
        const auto affine = gpumem::estimate::AffineTrace::fit(tracer.trace(2), tracer.trace(4), why);
        QVERIFY2(affine, why.c_str());
        const TaggedTrace direct = tracer.trace(24);
        const TaggedTrace extrapolated = affine->at(24);
        QCOMPARE(extrapolated.events.size(), direct.events.size());
        const auto directReplay = gpumem::estimate::replayTrace(direct);
        const auto extrapolatedReplay = gpumem::estimate::replayTrace(extrapolated);
        const auto within1Percent = [](std::uint64_t a, std::uint64_t b) {
            return std::abs(static_cast<double>(a) - static_cast<double>(b)) <= 0.01 * static_cast<double>(b);
        };
        QVERIFY(within1Percent(extrapolatedReplay.peakAllocatedBytes, directReplay.peakAllocatedBytes));
        QVERIFY(within1Percent(extrapolatedReplay.peakReservedBytes, directReplay.peakReservedBytes));
        QVERIFY(within1Percent(gpumem::estimate::peakRequestedBytes(extrapolated),
                               gpumem::estimate::peakRequestedBytes(direct)));
    }

    void estimatesAJobTooLargeToRun()
    {
        // Batch 2^20 of this MLP would need about 1.5 GiB of activations; the
        // estimate traces batches 1 and 2, checks the line at 3, and counts the parameters once.
        const ProbeJobTracer tracer(withTraining(gpumem::tests::mlpJob(128, 1, 256, "uniform", 10), 1, "adam"));
        QCOMPARE(tracer.summary().parameterCount, std::int64_t{(128 + 1) * 256 + (256 + 1) * 10});
        gpumem::estimate::EstimateRequest request;
        request.batchSizes = {std::int64_t{1} << 20};
        const auto result =
            gpumem::estimate::MemoryEstimator::estimate(tracer, gpumem::estimate::findGpuProfile("a100-80"), request);
        QVERIFY(result.extrapolated);
        QCOMPARE(result.tracedBatches, (std::vector<std::int64_t>{1, 2, 3}));
        QVERIFY(result.estimates.front().peakAllocatedBytes > std::uint64_t{1} << 30);
        QVERIFY(!result.estimates.front().measuredDirectly);
    }

    void refusesAJobLibTorchCannotBuild()
    {
        JobConfiguration job = gpumem::tests::transformerJob(1, 30, 4, 8, 50); // 30 is not divisible into 4 heads
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, ProbeJobTracer{job});
    }
};

QTEST_GUILESS_MAIN(TestProbeJobTracer)
#include "test_ProbeJobTracer.moc"
