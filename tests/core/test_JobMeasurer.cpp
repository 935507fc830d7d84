// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProbeJobs.h"
#include "probe/JobMeasurer.h"

#include <QTest>

using gpumem::probe::JobConfiguration, gpumem::probe::JobMeasurer, gpumem::probe::JobStatus,
    gpumem::probe::MeasureOptions;

namespace {

// An MLP of depth 0: a single Linear(inputs, classes) layer.
JobConfiguration singleLinear(int inputs, int classes, int batch, const std::string &optimizer)
{
    JobConfiguration job = gpumem::tests::mlpJob(inputs, 0, 16, "uniform", classes);
    job.batchSize = batch;
    job.optimizer = optimizer;
    job.dtype = "float32";
    job.steps = 3;
    return job;
}

} // namespace

class TestJobMeasurer : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void singleLinearLayerWithSgdIsExact()
    {
        // One training step of y = x W^T + b, cross-entropy, plain SGD, with
        // in = 64, out = 32, batch B = 8, float32 (4 bytes), int64 labels (8 bytes).
        // Live for the whole step: W (out×in), b (out), x (B×in), labels (B) and
        // the loss scalar; during backward also the seed gradient (a ones scalar
        // that the autograd engine holds until backward() returns).
        // The peak is in the backward of the linear layer, after log_softmax's
        // node has run and freed its saved output and incoming gradient (and the
        // nll node its total-weight scalar). Then live are the gradient of the
        // logits (B×out), the new weight gradient (out×in) and the new bias
        // gradient (out). Earlier moments hold less: forward holds logits +
        // log_softmax output (2·B·out) and two scalars; log_softmax backward
        // 3·B·out. Plain SGD updates in place, and gradients are set to none
        // between steps, so every step peaks the same.
        constexpr double in = 64, out = 32, batch = 8;
        const double parameters = 4 * (out * in + out);
        const double batchBytes = 4 * batch * in + 8 * batch;
        const double backward = 4 * (batch * out + out * in + out);
        const double scalars = 4 + 4; // loss, seed gradient
        const double expected = parameters + batchBytes + backward + scalars;
        QCOMPARE(expected, 19784.0);

        const auto measurement = JobMeasurer::measure(singleLinear(64, 32, 8, "sgd"), {});
        QCOMPARE(measurement.status, JobStatus::Ok);
        QCOMPARE(static_cast<double>(measurement.peakAllocatedBytes), expected);
    }

    void adamAddsTwoStatesPerParameter()
    {
        // Adam's exp_avg and exp_avg_sq are allocated in the first step and live
        // through the later steps, so the peak grows by at least 2 × parameter bytes.
        const auto sgd = JobMeasurer::measure(singleLinear(256, 128, 4, "sgd"), {});
        const auto adam = JobMeasurer::measure(singleLinear(256, 128, 4, "adam"), {});
        QCOMPARE(adam.status, JobStatus::Ok);
        const double parameterBytes = 4.0 * (256 * 128 + 128);
        QVERIFY(static_cast<double>(adam.peakAllocatedBytes) >= sgd.peakAllocatedBytes + 2 * parameterBytes);
    }

    void measurementIsReproducible()
    {
        JobConfiguration job = singleLinear(100, 10, 16, "adamw");
        job.depth = 3;
        job.width = 64;
        job.batchNorm = true;
        job.dropout = 0.25;
        job.activation = "gelu";
        const auto first = JobMeasurer::measure(job, {});
        const auto second = JobMeasurer::measure(job, {});
        QCOMPARE(first.status, JobStatus::Ok);
        QCOMPARE(first.peakAllocatedBytes, second.peakAllocatedBytes);
    }

    void impossibleConfigurationIsInvalidNotACrash()
    {
        // Five 2×2 poolings of an 8-pixel image leave no pixel.
        JobConfiguration job = gpumem::tests::pooledCnnJob(3, 8, 5, 4, 3);
        job.batchSize = 2;
        const auto pooled = JobMeasurer::measure(job, {});
        QCOMPARE(pooled.status, JobStatus::Invalid);
        QVERIFY(!pooled.message.empty());

        // LibTorch's own check: 30 is not divisible into 4 heads.
        JobConfiguration transformer = gpumem::tests::transformerJob(1, 30, 4, 8, 50);
        transformer.batchSize = 2;
        const auto heads = JobMeasurer::measure(transformer, {});
        QCOMPARE(heads.status, JobStatus::Invalid);
    }

    void memoryLimitGivesOutOfMemory()
    {
        MeasureOptions options;
        options.memoryLimitBytes = 10000; // below the 19784 bytes the job needs
        const auto measurement = JobMeasurer::measure(singleLinear(64, 32, 8, "sgd"), options);
        QCOMPARE(measurement.status, JobStatus::OutOfMemory);
        QCOMPARE(measurement.peakAllocatedBytes, std::uint64_t{0});
    }

    void traceBalancesAllocationsAndReleases()
    {
        MeasureOptions options;
        options.recordTrace = true;
        const auto measurement = JobMeasurer::measure(singleLinear(64, 32, 8, "sgd"), options);
        QVERIFY(!measurement.trace.empty());
        double live = 0.0;
        double peak = 0.0;
        for (const auto &event : measurement.trace) {
            live += event.release ? -static_cast<double>(event.bytes) : static_cast<double>(event.bytes);
            peak = std::max(peak, live);
        }
        // Everything built for the job is freed when it ends.
        QCOMPARE(live, 0.0);
        QVERIFY(peak >= measurement.peakAllocatedBytes);
    }
};

QTEST_GUILESS_MAIN(TestJobMeasurer)
#include "test_JobMeasurer.moc"
