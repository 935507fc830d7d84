// SPDX-License-Identifier: GPL-3.0-or-later
// Compares the extrapolated replay with a direct trace at one batch size, for a
// TorchScript model: the check behind `gpumem estimate`'s "cost does not grow
// with the batch".
//   gpumem_estimate_extrapolation MODEL.pt C,H,W BATCH [SMALL]
// (SMALL: trace SMALL and 2 × SMALL instead of the pairs estimate tries.)
// Prints the traced pair, the peak allocated and reserved MiB both ways and
// their relative differences.
#include "estimate/MemoryEstimator.h"
#include "estimate/ModelTracer.h"
#include "estimate/TraceExtrapolation.h"
#include "estimate/TraceReplay.h"
#include "io/InputError.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

using namespace gpumem;

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        std::fprintf(stderr, "usage: %s MODEL.pt C,H,W BATCH [SMALL]\n", argv[0]);
        return 1;
    }
    try {
        estimate::EstimateConfiguration configuration;
        configuration.modelPath = argv[1];
        configuration.inputShapes = {estimate::parseSampleShape(argv[2], "shape")};
        const std::int64_t batch = std::atoll(argv[3]);
        const estimate::ModelTracer tracer(configuration);
        auto pairs = estimate::EstimateRequest{}.tracedPairs;
        if (argc == 5)
            pairs = {{std::atoll(argv[4]), 2 * std::atoll(argv[4])}};
        for (const auto &[small, large] : pairs) {
            std::string why;
            const auto affine = estimate::AffineTrace::fit(tracer.trace(small), tracer.trace(large), why);
            if (!affine) {
                std::printf("%lld,%lld: no fit (%s)\n", static_cast<long long>(small), static_cast<long long>(large),
                            why.c_str());
                continue;
            }
            const estimate::ReplayResult extrapolated = estimate::replayTrace(affine->at(batch));
            const estimate::ReplayResult direct = estimate::replayTrace(tracer.trace(batch));
            const auto mib = [](std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); };
            const auto relative = [](std::uint64_t a, std::uint64_t b) {
                return (static_cast<double>(a) - static_cast<double>(b)) / static_cast<double>(b);
            };
            std::printf("%lld,%lld -> %lld: allocated %.1f vs direct %.1f MiB (%+.4f%%), reserved %.1f vs %.1f MiB "
                        "(%+.4f%%)\n",
                        static_cast<long long>(small), static_cast<long long>(large), static_cast<long long>(batch),
                        mib(extrapolated.peakAllocatedBytes), mib(direct.peakAllocatedBytes),
                        100.0 * relative(extrapolated.peakAllocatedBytes, direct.peakAllocatedBytes),
                        mib(extrapolated.peakReservedBytes), mib(direct.peakReservedBytes),
                        100.0 * relative(extrapolated.peakReservedBytes, direct.peakReservedBytes));
            // Which allocations the affine fit misses, the largest first.
            const estimate::TaggedTrace fitted = affine->at(batch);
            const estimate::TaggedTrace measured = tracer.trace(batch);
            std::size_t missed = 0;
            std::size_t worst = 0;
            long long worstGap = 0;
            for (std::size_t i = 0; i < fitted.events.size() && i < measured.events.size(); ++i) {
                const long long gap =
                    static_cast<long long>(fitted.events[i].bytes) - static_cast<long long>(measured.events[i].bytes);
                if (gap != 0 && !fitted.events[i].isRelease()) {
                    ++missed;
                    if (std::llabs(gap) > std::llabs(worstGap)) {
                        worstGap = gap;
                        worst = i;
                    }
                }
            }
            std::printf("  %zu fitted events, %zu traced; %zu allocations differ in size", fitted.events.size(),
                        measured.events.size(), missed);
            if (missed > 0)
                std::printf("; the largest: event %zu (%s, %s) %llu fitted vs %llu bytes", worst,
                            std::string(estimate::phaseName(fitted.events[worst].phase)).c_str(),
                            std::string(estimate::categoryName(fitted.events[worst].category)).c_str(),
                            static_cast<unsigned long long>(fitted.events[worst].bytes),
                            static_cast<unsigned long long>(measured.events[worst].bytes));
            std::printf("\n");
            break;
        }
    } catch (const std::exception &error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 1;
    }
    return 0;
}
