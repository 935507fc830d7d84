// SPDX-License-Identifier: GPL-3.0-or-later
// Dropout in a CPU trace keeps what the GPU's fused kernel keeps for backward: a mask of
// one byte per element where the CPU keeps a noise tensor of the input's type.
#include "estimate/DropoutMaskRecorder.h"
#include "estimate/StepRecording.h"
#include "probe/TrackingAllocator.h"

#include <QTest>

#include <torch/torch.h>

#include <algorithm>
#include <functional>

namespace {

// The blocks that run allocates with the recorder on, as a GPU allocates them (tagTrace,
// as the estimate tags the trace), in order of allocation.
std::vector<std::uint64_t> gpuAllocations(const std::function<void()> &run)
{
    gpumem::probe::TrackingAllocator allocator(true, 0);
    gpumem::estimate::RecordedSteps recorded;
    {
        gpumem::estimate::TracingScope scope(allocator);
        const gpumem::estimate::DropoutMaskRecorder recorder(allocator, recorded.gpuBytes);
        run();
    }
    recorded.raw = allocator.trace();
    std::vector<std::uint64_t> sizes;
    for (const gpumem::estimate::TaggedEvent &event : gpumem::estimate::tagTrace(2, {}, recorded).events)
        if (!event.isRelease())
            sizes.push_back(event.bytes);
    return sizes;
}

} // namespace

class TestDropoutMask : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void keepsOneBytePerElement()
    {
        // [4, 1000] float32: 16,000 bytes of noise on the CPU, a 4,000-byte mask on a GPU;
        // the output and, in backward, the input's gradient keep their 16,000.
        const torch::Tensor input = torch::randn({4, 1000}).requires_grad_();
        const auto sizes = gpuAllocations([&] { torch::dropout(input, 0.5, true).sum().backward(); });
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{4000}), std::ptrdiff_t{1});
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{16000}), std::ptrdiff_t{2});
    }

    void float64KeepsOneBytePerElementToo()
    {
        const torch::Tensor input = torch::randn({4, 1000}, torch::kFloat64).requires_grad_();
        const auto sizes = gpuAllocations([&] { torch::dropout(input, 0.5, true).sum().backward(); });
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{4000}), std::ptrdiff_t{1});
        QCOMPARE(std::count(sizes.begin(), sizes.end(), std::uint64_t{32000}), std::ptrdiff_t{2});
    }

    void unfusedDropoutKeepsItsNoise()
    {
        // In place (the GPU runs the same unfused code) and at p = 1 (the fused kernel
        // takes 0 < p < 1 only), the noise stays as large as the input.
        const auto inPlace = gpuAllocations([] {
            torch::Tensor input = torch::randn({4, 1000});
            torch::dropout_(input, 0.5, true);
        });
        QCOMPARE(std::count(inPlace.begin(), inPlace.end(), std::uint64_t{4000}), std::ptrdiff_t{0});
        const auto certain = gpuAllocations([] { torch::dropout(torch::randn({4, 1000}), 1.0, true); });
        QCOMPARE(std::count(certain.begin(), certain.end(), std::uint64_t{4000}), std::ptrdiff_t{0});
    }

    void evaluationAllocatesNothing()
    {
        const torch::Tensor input = torch::randn({4, 1000});
        const auto sizes = gpuAllocations([&] { torch::dropout(input, 0.5, false); });
        QVERIFY(sizes.empty());
    }
};

QTEST_GUILESS_MAIN(TestDropoutMask)
#include "test_DropoutMask.moc"
