// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/JobMeasurer.h"

#include "io/InputError.h"
#include "io/NamedValues.h"
#include "probe/CudaMemoryStats.h"
#include "probe/JobBuilder.h"
#include "probe/TrackingAllocator.h"

#include <mutex>
#include <new>

namespace gpumem::probe {

namespace {

constexpr io::NamedValues<bool, 2> kMeasuringDevices{{{"cpu", false}, {"cuda", true}}};

void runSteps(const JobConfiguration &job, TrainingJob &training, torch::optim::Optimizer &optimizer)
{
    const auto parameters = training.network->parameters();
    for (int step = 0; step < job.steps; ++step) {
        for (auto parameter : parameters)
            parameter.mutable_grad().reset();
        torch::Tensor loss = training.loss(); // []
        loss.backward();
        optimizer.step();
    }
}

std::string firstLine(const std::string &text)
{
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
}

JobStatus statusOfError(const std::string &message)
{
    return isOutOfMemoryMessage(message) ? JobStatus::OutOfMemory : JobStatus::Invalid;
}

void measureOnCpu(const JobConfiguration &job, const MeasureOptions &options, JobMeasurement &measurement)
{
    TrackingAllocator allocator(options.recordTrace, options.memoryLimitBytes);
    const int threads = torch::get_num_threads();
    torch::set_num_threads(1);
    allocator.install();
    try {
        {
            TrainingJob training = JobBuilder::build(job, torch::Device(torch::kCPU));
            auto optimizer = JobBuilder::optimizer(job, *training.network);
            allocator.resetPeak();
            runSteps(job, training, *optimizer);
            measurement.peakAllocatedBytes = allocator.peakBytes();
        }
    } catch (...) {
        allocator.uninstall();
        torch::set_num_threads(threads);
        measurement.trace = allocator.trace();
        throw;
    }
    allocator.uninstall();
    torch::set_num_threads(threads);
    measurement.trace = allocator.trace();
}

void measureOnCuda(const JobConfiguration &job, JobMeasurement &measurement)
{
    if (!CudaMemoryStats::available())
        throw io::InputError("CUDA is not available (no device, or a LibTorch without CUDA); use " +
                             io::parameter("device") + " cpu");
    constexpr int device = 0;
    measurement.contextBytes = CudaMemoryStats::contextOverhead(device);
    // The previous job's cached blocks go back to the driver, so each job starts from an empty cache.
    CudaMemoryStats::emptyCache(device);
    {
        TrainingJob training = JobBuilder::build(job, torch::Device(torch::kCUDA, device));
        auto optimizer = JobBuilder::optimizer(job, *training.network);
        // Peaks start at what the built job holds, as on the CPU.
        CudaMemoryStats::resetPeaks(device);
        runSteps(job, training, *optimizer);
        const CudaPeaks peaks = CudaMemoryStats::peaks(device);
        measurement.peakAllocatedBytes = peaks.allocated;
        measurement.peakReservedBytes = peaks.reserved;
    }
}

} // namespace

const std::vector<std::string> &languageModelBreakdownColumns()
{
    static const std::vector<std::string> names = {"parameters_mib",          "gradients_mib",
                                                   "optimizer_state_mib",     "activations_mib",
                                                   "gathered_parameters_mib", "communication_buffers_mib",
                                                   "allocator_overhead_mib",  "nccl_mib"};
    return names;
}

std::string_view jobStatusName(JobStatus status)
{
    constexpr io::NamedValues<JobStatus, 3> names{
        {{"ok", JobStatus::Ok}, {"out_of_memory", JobStatus::OutOfMemory}, {"invalid", JobStatus::Invalid}}};
    return io::nameOf(names, status);
}

bool measuresOnCuda(const std::string &device)
{
    return io::parseNamed(kMeasuringDevices, device, "device");
}

JobMeasurement measureReportingFailure(const std::function<void(JobMeasurement &)> &measure)
{
    JobMeasurement measurement;
    const auto fail = [&measurement](JobStatus status, const std::string &message) {
        measurement.status = status;
        measurement.message = firstLine(message);
        measurement.peakAllocatedBytes = 0;
        measurement.peakReservedBytes.reset();
        measurement.simulatedReservedBytes.reset();
        measurement.simulatedDeviceMib.reset();
    };
    try {
        measure(measurement);
    } catch (const MemoryLimitExceeded &error) {
        fail(JobStatus::OutOfMemory, error.what());
    } catch (const std::bad_alloc &) {
        fail(JobStatus::OutOfMemory, "out of memory");
    } catch (const io::InputError &error) {
        fail(statusOfError(error.message()), error.message());
    } catch (const c10::Error &error) {
        fail(statusOfError(error.what_without_backtrace()), error.what_without_backtrace());
    } catch (const std::exception &error) {
        fail(statusOfError(error.what()), error.what());
    }
    return measurement;
}

JobMeasurement JobMeasurer::measure(const JobConfiguration &job, const MeasureOptions &options)
{
    // One measurement at a time in the process: each replaces the CPU allocator.
    static std::mutex measuring;
    std::lock_guard<std::mutex> lock(measuring);
    torch::AutoGradMode gradients(true);
    torch::manual_seed(0);
    return measureReportingFailure([&](JobMeasurement &measurement) {
        if (measuresOnCuda(options.device))
            measureOnCuda(job, measurement);
        else
            measureOnCpu(job, options, measurement);
    });
}

} // namespace gpumem::probe
