// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/TrackingAllocator.h"

#include <torch/torch.h>

#include <QTest>

#include <thread>

using gpumem::probe::TrackingAllocator;

namespace {

// A float tensor of count elements made on a thread of its own and handed back alive.
torch::Tensor tensorFromAnotherThread(std::int64_t count)
{
    torch::Tensor made;
    std::thread([&made, count] { made = torch::empty({count}, torch::kFloat32); }).join();
    return made;
}

} // namespace

class TestTrackingAllocator : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void countsEveryThreadByDefault()
    {
        TrackingAllocator allocator(true, 0);
        allocator.install();
        const torch::Tensor own = torch::empty({256}, torch::kFloat32);
        const torch::Tensor other = tensorFromAnotherThread(1000);
        allocator.uninstall();
        QCOMPARE(allocator.liveBytes(), std::uint64_t{256 * 4 + 1000 * 4});
        QCOMPARE(allocator.trace().size(), std::size_t{2});
    }

    // A training running in the workbench beside `estimate`'s trace allocated through the
    // same process-wide allocator, and its tensors were counted as the traced model's.
    void countsOnlyTheCallingThreadWhenAsked()
    {
        TrackingAllocator allocator(true, 0);
        allocator.countOnlyCallingThread();
        allocator.install();
        torch::Tensor own = torch::empty({256}, torch::kFloat32);
        torch::Tensor other = tensorFromAnotherThread(1000);
        QCOMPARE(allocator.liveBytes(), std::uint64_t{256 * 4});
        QCOMPARE(allocator.peakBytes(), std::uint64_t{256 * 4});
        // The other thread's block is a real one, freed without touching the counts.
        other.data_ptr<float>()[999] = 2.0f;
        QCOMPARE(other.data_ptr<float>()[999], 2.0f);
        other = torch::Tensor();
        QCOMPARE(allocator.liveBytes(), std::uint64_t{256 * 4});
        own = torch::Tensor();
        allocator.uninstall();
        QCOMPARE(allocator.liveBytes(), std::uint64_t{0});
        const auto trace = allocator.trace();
        QCOMPARE(trace.size(), std::size_t{2}); // the own block's allocation and release only
        QCOMPARE(trace.front().bytes, std::uint64_t{256 * 4});
    }

    // A freed large block serves the next request of its size: the step's shapes repeat,
    // and a fresh block's pages would be faulted in again. The counts see each tensor.
    void reusesAFreedBlockOfTheSameSize()
    {
        constexpr std::int64_t count = 1 << 18; // 1 MiB of floats
        TrackingAllocator allocator(true, 0);
        allocator.install();
        torch::Tensor first = torch::empty({count}, torch::kFloat32);
        const void *address = first.data_ptr();
        first = torch::Tensor();
        torch::Tensor second = torch::empty({count}, torch::kFloat32);
        QCOMPARE(second.data_ptr(), address);
        QCOMPARE(allocator.liveBytes(), std::uint64_t{4 * count});
        QCOMPARE(allocator.peakBytes(), std::uint64_t{4 * count});
        QCOMPARE(allocator.trace().size(), std::size_t{3}); // allocated, released, allocated
        // Another size is a block of its own.
        torch::Tensor larger = torch::empty({count + 1024}, torch::kFloat32);
        QVERIFY(larger.data_ptr() != address);
        second = torch::Tensor();
        larger = torch::Tensor();
        allocator.uninstall();
        QCOMPARE(allocator.liveBytes(), std::uint64_t{0});
    }

    // A FreedBlockCache keeps the blocks from one installed allocator to the next.
    void keepsFreedBlocksAcrossAllocatorsInsideACacheScope()
    {
        constexpr std::int64_t count = 1 << 18;
        gpumem::probe::FreedBlockCache cache;
        const void *address = nullptr;
        {
            TrackingAllocator allocator(true, 0);
            allocator.install();
            address = torch::empty({count}, torch::kFloat32).data_ptr();
            allocator.uninstall();
        }
        TrackingAllocator next(true, 0);
        next.install();
        const torch::Tensor again = torch::empty({count}, torch::kFloat32);
        QCOMPARE(again.data_ptr(), address);
        QCOMPARE(next.liveBytes(), std::uint64_t{4 * count});
        next.uninstall();
    }
};

QTEST_GUILESS_MAIN(TestTrackingAllocator)
#include "test_TrackingAllocator.moc"
