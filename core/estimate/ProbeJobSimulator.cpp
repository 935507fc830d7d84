// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/ProbeJobSimulator.h"

#include "estimate/MemoryEstimator.h"
#include "estimate/ProbeJobTracer.h"
#include "io/InputError.h"
#include "probe/TrackingAllocator.h"

#include <new>

namespace gpumem::estimate {

namespace {

bool mentionsOutOfMemory(const std::string &text)
{
    return text.find("out of memory") != std::string::npos || text.find("can't allocate memory") != std::string::npos;
}

} // namespace

ProbeJobSimulator::ProbeJobSimulator(GpuProfile profile, std::string profileName, std::uint64_t memoryLimitBytes)
    : mProfile(std::move(profile))
    , mProfileName(std::move(profileName))
    , mMemoryLimitBytes(memoryLimitBytes)
{
}

probe::JobMeasurement ProbeJobSimulator::measure(const probe::JobConfiguration &job) const
{
    probe::JobMeasurement measurement;
    const auto fail = [&measurement](probe::JobStatus status, const std::string &message) {
        measurement.status = status;
        measurement.message = message.substr(0, message.find('\n'));
    };
    try {
        const ProbeJobTracer tracer(job, mMemoryLimitBytes);
        EstimateRequest request;
        request.batchSizes = {job.batchSize};
        const EstimateResult result = MemoryEstimator::estimate(tracer, mProfile, request);
        const BatchEstimate &estimate = result.estimates.front();
        measurement.peakAllocatedBytes = estimate.peakRequestedBytes;
        measurement.simulatedReservedBytes = estimate.peakReservedBytes;
        measurement.simulatedDeviceMib = estimate.deviceTotalMib();
        if (!result.extrapolated)
            measurement.message = "traced at its own batch: the small traces do not align";
    } catch (const probe::MemoryLimitExceeded &error) {
        fail(probe::JobStatus::OutOfMemory, error.what());
    } catch (const std::bad_alloc &) {
        fail(probe::JobStatus::OutOfMemory, "out of memory");
    } catch (const io::InputError &error) {
        fail(mentionsOutOfMemory(error.message()) ? probe::JobStatus::OutOfMemory : probe::JobStatus::Invalid,
             error.message());
    } catch (const std::exception &error) {
        fail(mentionsOutOfMemory(error.what()) ? probe::JobStatus::OutOfMemory : probe::JobStatus::Invalid,
             error.what());
    }
    return measurement;
}

} // namespace gpumem::estimate
