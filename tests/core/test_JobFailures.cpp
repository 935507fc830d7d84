// SPDX-License-Identifier: GPL-3.0-or-later
// How a job that fails is recorded, the same for a measured and a simulated job.
#include "io/InputError.h"
#include "probe/JobMeasurer.h"
#include "probe/TrackingAllocator.h"

#include <QTest>

#include <torch/torch.h>

#include <new>
#include <stdexcept>

using gpumem::probe::JobMeasurement;
using gpumem::probe::JobStatus;

Q_DECLARE_METATYPE(JobStatus)

namespace {

// A measurement that records a peak, a trace and a simulation, then throws `error`.
template <typename Error> JobMeasurement failingWith(const Error &error)
{
    return gpumem::probe::measureReportingFailure([&error](JobMeasurement &measurement) {
        measurement.peakAllocatedBytes = 1024;
        measurement.peakReservedBytes = 2048;
        measurement.simulatedReservedBytes = 2048;
        measurement.simulatedDeviceMib = 3.0;
        measurement.trace.push_back({});
        throw error;
    });
}

void checkFailure(const JobMeasurement &measurement, JobStatus status, const std::string &message)
{
    QCOMPARE(measurement.status, status);
    QCOMPARE(measurement.message, message);
    // A failed job has no peaks; what was recorded before it failed stays.
    QCOMPARE(measurement.peakAllocatedBytes, std::uint64_t{0});
    QVERIFY(!measurement.peakReservedBytes);
    QVERIFY(!measurement.simulatedReservedBytes);
    QVERIFY(!measurement.simulatedDeviceMib);
    QCOMPARE(measurement.trace.size(), std::size_t{1});
}

} // namespace

class TestJobFailures : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void aJobThatRunsKeepsWhatItMeasured()
    {
        const auto measurement =
            gpumem::probe::measureReportingFailure([](JobMeasurement &m) { m.peakAllocatedBytes = 7; });
        QCOMPARE(measurement.status, JobStatus::Ok);
        QCOMPARE(measurement.peakAllocatedBytes, std::uint64_t{7});
        QVERIFY(measurement.message.empty());
    }

    void errorsSayWhetherMemoryRanOut()
    {
        checkFailure(failingWith(gpumem::probe::MemoryLimitExceeded("over the 1 MiB limit")), JobStatus::OutOfMemory,
                     "over the 1 MiB limit");
        checkFailure(failingWith(std::bad_alloc()), JobStatus::OutOfMemory, "out of memory");
        checkFailure(failingWith(gpumem::io::InputError("kernel size 9 does not fit 4 pixels")), JobStatus::Invalid,
                     "kernel size 9 does not fit 4 pixels");
        // Regression: the measurer used to record LibTorch's CPU allocator failure as
        // invalid while the simulator called it out of memory; both say out of memory now.
        checkFailure(failingWith(std::runtime_error("DefaultCPUAllocator: can't allocate memory: you tried to "
                                                    "allocate 4398046511104 bytes.\nmore detail")),
                     JobStatus::OutOfMemory,
                     "DefaultCPUAllocator: can't allocate memory: you tried to allocate 4398046511104 bytes.");
        checkFailure(failingWith(std::runtime_error("CUDA out of memory. Tried to allocate 2.00 GiB\nstack")),
                     JobStatus::OutOfMemory, "CUDA out of memory. Tried to allocate 2.00 GiB");
        checkFailure(failingWith(std::runtime_error("shapes cannot be multiplied")), JobStatus::Invalid,
                     "shapes cannot be multiplied");
    }

    void libTorchErrorsLeaveTheirBacktraceOut()
    {
        try {
            (void)torch::mm(torch::ones({2, 3}), torch::ones({2, 3}));
            QFAIL("the product of 2×3 by 2×3 should fail");
        } catch (const c10::Error &error) {
            const auto measurement = failingWith(error);
            QCOMPARE(measurement.status, JobStatus::Invalid);
            QVERIFY(!measurement.message.empty());
            QVERIFY(measurement.message.find('\n') == std::string::npos);
            QCOMPARE(measurement.message, std::string(error.what_without_backtrace())
                                              .substr(0, std::string(error.what_without_backtrace()).find('\n')));
        }
    }
};

QTEST_APPLESS_MAIN(TestJobFailures)
#include "test_JobFailures.moc"
