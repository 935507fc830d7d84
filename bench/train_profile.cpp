// SPDX-License-Identifier: GPL-3.0-or-later
// Where a training step of the BiGRU-Transformer spends its time, on one thread:
// wall time of the forward pass, the backward pass, gradient clipping and the
// AdamW step; self time by LibTorch operator (its autograd profiler); the matrix
// products' floating-point work and rate against this machine's GEMM peak,
// measured in the same run. The network is the library's own module with the
// sizes of a preset; the inputs are random (a step's cost does not depend on
// the values, only on the shapes). Last, one encoder layer's attention, forward
// and backward, and one GRU direction, each by the fused CPU kernel the network
// uses and by LibTorch's own operators or module, timed in turns.
//   gpumem_train_profile [TOKENS] [BATCH] [STEPS] [D_MODEL] [GRU_HIDDEN] [ENCODER_LAYERS] [FEEDFORWARD]
// Defaults: 38 feature tokens, batch 64, 34 steps (one epoch of the accuracy
// split's 2,160 fitting rows), d_model 64, GRU 32, 2 encoder layers, feed-forward 128.
#include "models/BiGruTransformer.h"
#include "models/GruLayer.h"
#include "models/PackedAttention.h"

#include <torch/csrc/autograd/profiler_legacy.h>
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
namespace profiler = torch::autograd::profiler;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::int64_t argument(int argc, char **argv, int index, std::int64_t fallback)
{
    return argc > index ? std::atoll(argv[index]) : fallback;
}

// Floating-point operations of one matrix-product call from its input shapes.
double productFlops(const std::string &name, const std::vector<std::vector<std::int64_t>> &shapes)
{
    const auto flops = [](const std::vector<std::int64_t> &a, const std::vector<std::int64_t> &b) {
        if (a.size() < 2 || b.size() < 2)
            return 0.0;
        double batch = 1.0;
        for (std::size_t i = 0; i + 2 < a.size(); ++i)
            batch *= static_cast<double>(a[i]);
        return 2.0 * batch * static_cast<double>(a[a.size() - 2]) * static_cast<double>(a.back()) *
               static_cast<double>(b.back());
    };
    if ((name == "aten::mm" || name == "aten::bmm") && shapes.size() >= 2)
        return flops(shapes[0], shapes[1]);
    if ((name == "aten::addmm" || name == "aten::baddbmm") && shapes.size() >= 3)
        return flops(shapes[1], shapes[2]);
    return 0.0;
}

// GFLOP/s of square float32 products of size n on the calling thread's kernel threads.
double gemmRate(std::int64_t n, int repeats)
{
    const auto a = torch::randn({n, n});
    const auto b = torch::randn({n, n});
    auto c = torch::mm(a, b);
    const auto start = Clock::now();
    for (int i = 0; i < repeats; ++i)
        c = torch::mm(a, b);
    return 2.0 * static_cast<double>(n * n * n) * repeats / secondsSince(start) / 1e9;
}

// Milliseconds of one forward and backward pass of `pass` (which returns a
// tensor to sum), the best of 3 turns of 50, run in turns with the others.
std::vector<double> bestMilliseconds(const std::vector<std::function<torch::Tensor()>> &passes)
{
    std::vector<double> best(passes.size(), 0.0);
    for (int turn = 0; turn < 3; ++turn)
        for (std::size_t i = 0; i < passes.size(); ++i) {
            const auto start = Clock::now();
            for (int repeat = 0; repeat < 50; ++repeat)
                passes[i]().sum().backward();
            const double milliseconds = 1e3 * secondsSince(start) / 50;
            best[i] = turn == 0 ? milliseconds : std::min(best[i], milliseconds);
        }
    return best;
}

struct OperatorTotals
{
    double selfSeconds = 0.0;
    std::int64_t calls = 0;
    double flops = 0.0;
};

} // namespace

int main(int argc, char **argv)
{
    torch::set_num_threads(1);
    const std::int64_t tokens = argument(argc, argv, 1, 38);
    const std::int64_t batch = argument(argc, argv, 2, 64);
    const int steps = static_cast<int>(argument(argc, argv, 3, 34));
    gpumem::models::BiGruTransformerOptions options;
    options.featureCount = tokens;
    options.dModel = argument(argc, argv, 4, 64);
    options.gruHidden = argument(argc, argv, 5, 32);
    options.encoderLayers = argument(argc, argv, 6, 2);
    options.feedforward = argument(argc, argv, 7, 128);
    options.headHidden = options.dModel;
    torch::manual_seed(1);
    gpumem::models::BiGruTransformer network(options);
    network->train();
    torch::optim::AdamW optimizer(network->parameters(), torch::optim::AdamWOptions(2e-3).weight_decay(1e-4));
    const auto features = torch::randn({batch, tokens}); // [batch, tokens]
    const auto target = torch::randn({batch});           // [batch]
    const torch::Tensor none;

    double forwardSeconds = 0.0;
    double backwardSeconds = 0.0;
    double clipSeconds = 0.0;
    double stepSeconds = 0.0;
    const auto trainStep = [&] {
        auto start = Clock::now();
        optimizer.zero_grad();
        const auto loss = torch::mse_loss(network->forward(features, none, none, none), target);
        forwardSeconds += secondsSince(start);
        start = Clock::now();
        loss.backward();
        backwardSeconds += secondsSince(start);
        start = Clock::now();
        torch::nn::utils::clip_grad_norm_(network->parameters(), 1.0);
        clipSeconds += secondsSince(start);
        start = Clock::now();
        optimizer.step();
        stepSeconds += secondsSince(start);
    };
    for (int i = 0; i < 3; ++i)
        trainStep(); // warm-up: first-call allocations and kernel selection
    forwardSeconds = backwardSeconds = clipSeconds = stepSeconds = 0.0;

    const double peakBefore = gemmRate(512, 20);
    const auto start = Clock::now();
    for (int i = 0; i < steps; ++i)
        trainStep();
    const double epochSeconds = secondsSince(start);
    const double peakAfter = gemmRate(512, 20);
    const double phases[] = {forwardSeconds, backwardSeconds, clipSeconds, stepSeconds};

    // Operator self times from a second, profiled epoch (the profiler adds its
    // own overhead, so the wall times above come from the unprofiled one).
    std::map<std::string, OperatorTotals> totals;
    double profiledFlops = 0.0;
    {
        profiler::enableProfilerLegacy(torch::profiler::impl::ProfilerConfig(
            torch::profiler::impl::ProfilerState::CPU, /*report_input_shapes=*/true, /*profile_memory=*/false));
        for (int i = 0; i < steps; ++i)
            trainStep();
        const profiler::thread_event_lists lists = profiler::disableProfilerLegacy();
        for (const auto &events : lists) {
            struct Open
            {
                const profiler::LegacyEvent *event;
                double childSeconds;
            };
            std::vector<Open> stack;
            for (const auto &event : events) {
                if (event.kind() == profiler::EventKind::PushRange) {
                    stack.push_back({&event, 0.0});
                } else if (event.kind() == profiler::EventKind::PopRange && !stack.empty()) {
                    const Open open = stack.back();
                    stack.pop_back();
                    const double seconds = open.event->cpuElapsedUs(event) / 1e6;
                    OperatorTotals &entry = totals[open.event->name()];
                    entry.selfSeconds += seconds - open.childSeconds;
                    entry.calls += 1;
                    const double flops = productFlops(open.event->name(), open.event->shapes());
                    entry.flops += flops;
                    profiledFlops += flops;
                    if (!stack.empty())
                        stack.back().childSeconds += seconds;
                }
            }
        }
    }

    const double peak = std::max(peakBefore, peakAfter);
    const double stepFlops = profiledFlops / steps;
    std::printf("network: %lld tokens, batch %lld, d_model %lld, GRU %lld, %lld encoder layers, feed-forward %lld\n",
                static_cast<long long>(tokens), static_cast<long long>(batch), static_cast<long long>(options.dModel),
                static_cast<long long>(options.gruHidden), static_cast<long long>(options.encoderLayers),
                static_cast<long long>(options.feedforward));
    std::printf("epoch of %d steps: %.3f s, %.1f rows/s\n", steps, epochSeconds,
                static_cast<double>(steps * batch) / epochSeconds);
    std::printf("phases: forward %.1f%%, backward %.1f%%, clip %.1f%%, optimizer %.1f%%\n",
                100 * phases[0] / epochSeconds, 100 * phases[1] / epochSeconds, 100 * phases[2] / epochSeconds,
                100 * phases[3] / epochSeconds);
    std::printf("matrix products: %.2f MFLOP per step, %.2f GFLOP/s over the whole step; GEMM peak 512x512, 1 thread: "
                "%.1f GFLOP/s (%.1f%% of it)\n",
                stepFlops / 1e6, stepFlops * steps / epochSeconds / 1e9, peak,
                100 * stepFlops * steps / epochSeconds / 1e9 / peak);

    double profiledSeconds = 0.0;
    for (const auto &[name, entry] : totals)
        profiledSeconds += entry.selfSeconds;
    std::vector<std::pair<std::string, OperatorTotals>> sorted(totals.begin(), totals.end());
    std::sort(sorted.begin(), sorted.end(),
              [](const auto &a, const auto &b) { return a.second.selfSeconds > b.second.selfSeconds; });
    std::printf("\n%-48s %8s %8s %10s %10s\n", "operator (self time, profiled epoch)", "share", "calls", "us/call",
                "GFLOP/s");
    for (std::size_t i = 0; i < std::min<std::size_t>(sorted.size(), 25); ++i) {
        const auto &[name, entry] = sorted[i];
        std::printf("%-48s %7.1f%% %8lld %10.1f %10s\n", name.c_str(), 100 * entry.selfSeconds / profiledSeconds,
                    static_cast<long long>(entry.calls), 1e6 * entry.selfSeconds / static_cast<double>(entry.calls),
                    entry.flops > 0 ? std::to_string(entry.flops / entry.selfSeconds / 1e9).substr(0, 5).c_str() : "");
    }

    namespace models = gpumem::models;
    const auto projected = torch::randn({batch, tokens, 3 * options.dModel}).requires_grad_(true);
    const auto gruInput = torch::randn({batch, tokens, options.dModel}).requires_grad_(true);
    torch::nn::GRU gru(torch::nn::GRUOptions(options.dModel, options.gruHidden).batch_first(true));
    const auto times = bestMilliseconds({
        [&] { return models::fusedCpuAttention(projected, options.heads, none, none); },
        [&] { return models::tensorAttention(projected, options.heads, none, none); },
        [&] { return models::fusedCpuGru(*gru, gruInput); },
        [&] { return std::get<0>(gru->forward(gruInput)); },
    });
    std::printf("\none layer, forward + backward (best of 3 turns of 50):\n");
    std::printf("  attention: fused CPU kernel %.3f ms, LibTorch operators %.3f ms (%.2fx)\n", times[0], times[1],
                times[1] / times[0]);
    std::printf("  GRU, one direction: fused CPU recurrence %.3f ms, torch::nn::GRU %.3f ms (%.2fx)\n", times[2],
                times[3], times[3] / times[2]);
    return 0;
}
