// SPDX-License-Identifier: GPL-3.0-or-later
// Replays the CUDA caching allocator's own requests, recorded on a GPU by
// bench/record_cuda_allocations.py, through the allocator model, and beside them the
// trace that `gpumem estimate` makes of the same job on the CPU:
//   gpumem_replay_allocations REQUESTS.txt [MODEL.pt C,H,W BATCH OPTIMIZER [TRACE_OUT.txt]]
// Prints the measured peaks, the model's peaks for the GPU's requests and, with a model,
// for the estimate's trace, then the request sizes (rounded to 512 bytes, at least
// 1 MiB) that one of the two sequences makes more often than the other. The trace is
// extrapolated from batches 2 and 4, as the estimate does, where those align, else made at
// BATCH directly. TRACE_OUT.txt receives it in the format of REQUESTS.txt, to be compared
// or spliced with the GPU's.
#include "estimate/MemoryUnits.h"
#include "estimate/ModelTracer.h"
#include "estimate/TraceExtrapolation.h"
#include "estimate/TraceReplay.h"
#include "probe/CachingAllocatorSimulator.h"

#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>

using namespace gpumem;

namespace {

struct Recorded
{
    probe::AllocationTrace trace;
    double measuredAllocatedMib = 0.0;
    double measuredReservedMib = 0.0;
};

Recorded readEvents(const std::string &path)
{
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    Recorded recorded;
    std::unordered_map<std::string, probe::AllocationEvent> blocks; // live allocations by their name
    std::string line;
    std::uint64_t next = 0;
    while (std::getline(in, line)) {
        if (line.rfind("# ", 0) == 0) {
            unsigned long long allocated = 0, reserved = 0;
            if (std::sscanf(line.c_str(), "# max_memory_allocated=%llu max_memory_reserved=%llu", &allocated,
                            &reserved) == 2) {
                recorded.measuredAllocatedMib = estimate::mibOf(allocated);
                recorded.measuredReservedMib = estimate::mibOf(reserved);
            }
            continue;
        }
        std::istringstream fields(line);
        std::string action, id, bytes;
        std::getline(fields, action, ',');
        std::getline(fields, id, ',');
        std::getline(fields, bytes, ',');
        if (action == "alloc") {
            const probe::AllocationEvent allocation{next++, std::stoull(bytes), false};
            blocks[id] = allocation;
            recorded.trace.push_back(allocation);
        } else if (action == "free") {
            const auto found = blocks.find(id);
            if (found != blocks.end()) {
                recorded.trace.push_back({found->second.block, found->second.bytes, true});
                blocks.erase(found);
            }
        }
    }
    return recorded;
}

// Counts of request sizes, rounded as the allocator does, from 1 MiB up.
std::map<std::uint64_t, long> largeRequests(const probe::AllocationTrace &trace)
{
    std::map<std::uint64_t, long> counts;
    for (const auto &event : trace)
        if (!event.release && event.bytes >= (1u << 20))
            ++counts[probe::CachingAllocatorSimulator::roundedSize(event.bytes)];
    return counts;
}

probe::AllocationTrace plainTrace(const estimate::TaggedTrace &tagged)
{
    probe::AllocationTrace trace;
    for (std::size_t i = 0; i < tagged.events.size(); ++i) {
        const auto &event = tagged.events[i];
        if (event.isRelease())
            trace.push_back({static_cast<std::uint64_t>(event.allocation), event.bytes, true});
        else
            trace.push_back({i, event.bytes, false});
    }
    return trace;
}

// The estimate's trace at batch: the line through batches 2 and 4 where they align.
estimate::TaggedTrace traceOf(const estimate::ModelTracer &tracer, std::int64_t batch)
{
    std::string why;
    const auto affine = estimate::AffineTrace::fit(tracer.trace(2), tracer.trace(4), why);
    if (affine)
        return affine->at(batch);
    std::fprintf(stderr, "traced at %lld directly: %s\n", static_cast<long long>(batch), why.c_str());
    return tracer.trace(batch);
}

// Writes trace as bench/record_cuda_allocations.py writes the GPU's requests.
void writeRequests(const probe::AllocationTrace &trace, const std::string &path)
{
    std::ofstream out(path);
    for (const auto &event : trace)
        if (event.release)
            out << "free," << event.block << "\n";
        else
            out << "alloc," << event.block << "," << event.bytes << "\n";
    if (!out)
        throw std::runtime_error("cannot write " + path);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 6 && argc != 7) {
        std::fprintf(stderr, "usage: %s REQUESTS.txt [MODEL.pt C,H,W BATCH OPTIMIZER [TRACE_OUT.txt]]\n", argv[0]);
        return 1;
    }
    try {
        const Recorded recorded = readEvents(argv[1]);
        probe::CachingAllocatorSimulator gpuRequests;
        gpuRequests.replay(recorded.trace);
        std::printf("measured on the GPU:        allocated %9.1f MiB, reserved %9.1f MiB\n",
                    recorded.measuredAllocatedMib, recorded.measuredReservedMib);
        std::printf("model, the GPU's requests:  allocated %9.1f MiB, reserved %9.1f MiB\n",
                    estimate::mibOf(gpuRequests.peakAllocatedBytes()),
                    estimate::mibOf(gpuRequests.peakReservedBytes()));
        if (argc == 2)
            return 0;
        estimate::EstimateConfiguration configuration;
        configuration.modelPath = argv[2];
        configuration.inputShapes = {estimate::parseSampleShape(argv[3], "C,H,W")};
        configuration.optimizer = argv[5];
        const estimate::TaggedTrace traced =
            traceOf(estimate::ModelTracer(configuration), estimate::parseBatchSize(argv[4], "BATCH"));
        const estimate::ReplayResult replay = estimate::replayTrace(traced);
        std::printf("model, the estimate's trace: allocated %9.1f MiB, reserved %9.1f MiB\n",
                    estimate::mibOf(replay.peakAllocatedBytes), estimate::mibOf(replay.peakReservedBytes));
        const probe::AllocationTrace tracedRequests = plainTrace(traced);
        const auto gpu = largeRequests(recorded.trace);
        const auto cpu = largeRequests(tracedRequests);
        if (argc == 7)
            writeRequests(tracedRequests, argv[6]);
        std::map<std::uint64_t, long> sizes;
        for (const auto &[size, count] : gpu)
            sizes[size] += 0;
        for (const auto &[size, count] : cpu)
            sizes[size] += 0;
        std::printf("requests of 1 MiB or more that differ in number (size MiB: GPU, estimate)\n");
        for (const auto &[size, unused] : sizes) {
            const long onGpu = gpu.count(size) ? gpu.at(size) : 0;
            const long inTrace = cpu.count(size) ? cpu.at(size) : 0;
            if (onGpu != inTrace)
                std::printf("  %10.3f: %4ld %4ld\n", estimate::mibOf(size), onGpu, inTrace);
        }
    } catch (const std::exception &error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 1;
    }
    return 0;
}
