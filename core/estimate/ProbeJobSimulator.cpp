// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ProbeJobSimulator.h"

#include "estimate/MemoryEstimator.h"
#include "estimate/ProbeJobTracer.h"
#include "estimate/ShapeExtrapolatingTracer.h"
#include "probe/JobMeasurer.h"

namespace gpumem::estimate {

ProbeJobSimulator::ProbeJobSimulator(GpuProfile profile, std::string profileName, std::uint64_t memoryLimitBytes)
    : mProfile(std::move(profile))
    , mProfileName(std::move(profileName))
    , mMemoryLimitBytes(memoryLimitBytes)
{
}

probe::JobMeasurement ProbeJobSimulator::measure(const probe::JobConfiguration &job) const
{
    return probe::measureReportingFailure([&](probe::JobMeasurement &measurement) {
        EstimateRequest request;
        request.batchSizes = {job.batchSize};
        const auto estimateWith = [&](const StepTracer &tracer) {
            const EstimateResult result = MemoryEstimator::estimate(tracer, mProfile, request);
            const BatchEstimate &estimate = result.estimates.front();
            measurement.peakAllocatedBytes = estimate.peakRequestedBytes;
            measurement.simulatedReservedBytes = estimate.peakReservedBytes;
            measurement.simulatedDeviceMib = estimate.deviceTotalMib();
            if (!result.extrapolated)
                measurement.message = "traced at its own batch: the small traces do not align";
        };
        if (!ShapeExtrapolatingTracer::applies(job)) {
            estimateWith(ProbeJobTracer(job, mMemoryLimitBytes));
            return;
        }
        const ShapeExtrapolatingTracer tracer(job, mMemoryLimitBytes);
        estimateWith(tracer);
        if (!tracer.extrapolated())
            measurement.message += std::string(measurement.message.empty() ? "" : "; ") + "traced at its own " +
                                   tracer.axis() + " at " + tracer.why();
    });
}

} // namespace gpumem::estimate
