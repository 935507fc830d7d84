// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/CachingAllocatorSimulator.h"

#include <QTest>

using gpumem::probe::AllocationTrace;
using gpumem::probe::CachingAllocatorSimulator;

namespace {

constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * 1024;

// A simulator that has replayed trace.
CachingAllocatorSimulator replayed(const AllocationTrace &trace)
{
    CachingAllocatorSimulator simulator;
    simulator.replay(trace);
    return simulator;
}

} // namespace

class TestCachingAllocatorSimulator : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void roundsRequestsTo512Bytes()
    {
        QCOMPARE(CachingAllocatorSimulator::roundedSize(1), std::uint64_t{512});
        QCOMPARE(CachingAllocatorSimulator::roundedSize(512), std::uint64_t{512});
        QCOMPARE(CachingAllocatorSimulator::roundedSize(513), std::uint64_t{1024});
        QCOMPARE(CachingAllocatorSimulator::roundedSize(1000000), std::uint64_t{1000448}); // 1954 × 512
    }

    void segmentSizesFollowThePools()
    {
        QCOMPARE(CachingAllocatorSimulator::segmentSize(512), 2 * MiB);
        QCOMPARE(CachingAllocatorSimulator::segmentSize(1 * MiB), 2 * MiB);
        QCOMPARE(CachingAllocatorSimulator::segmentSize(1 * MiB + 512), 20 * MiB);
        QCOMPARE(CachingAllocatorSimulator::segmentSize(10 * MiB - 512), 20 * MiB);
        QCOMPARE(CachingAllocatorSimulator::segmentSize(10 * MiB), 10 * MiB);
        QCOMPARE(CachingAllocatorSimulator::segmentSize(11 * MiB + 1), 12 * MiB);
    }

    void smallRequestsShareOneSegment()
    {
        // Four 300 KiB requests fit a 2 MiB segment (4 × 300 = 1200 KiB); the
        // fifth and sixth still fit (1800 KiB), the seventh needs a second segment.
        CachingAllocatorSimulator simulator;
        for (int request = 0; request < 6; ++request)
            simulator.allocate(300 * KiB);
        QCOMPARE(simulator.reservedBytes(), 2 * MiB);
        simulator.allocate(300 * KiB);
        QCOMPARE(simulator.reservedBytes(), 4 * MiB);
        QCOMPARE(simulator.allocatedBytes(), 7 * 300 * KiB);
        QCOMPARE(simulator.segmentCount(), std::size_t{2});
    }

    void mediumRequestsSplitA20MiBSegment()
    {
        // 3 MiB takes a 20 MiB segment; the 17 MiB rest is split off (more than
        // 1 MiB) and serves the next 5 MiB and 8 MiB requests. The remaining 4 MiB
        // cannot hold 6 MiB, which reserves a second 20 MiB segment.
        CachingAllocatorSimulator simulator;
        simulator.allocate(3 * MiB);
        simulator.allocate(5 * MiB);
        simulator.allocate(8 * MiB);
        QCOMPARE(simulator.reservedBytes(), 20 * MiB);
        simulator.allocate(6 * MiB);
        QCOMPARE(simulator.reservedBytes(), 40 * MiB);
        QCOMPARE(simulator.peakAllocatedBytes(), 22 * MiB);
    }

    void largeRequestsRoundTo2MiB()
    {
        CachingAllocatorSimulator simulator;
        simulator.allocate(11 * MiB + 1); // rounded to 11 MiB + 512, segment 12 MiB
        QCOMPARE(simulator.reservedBytes(), 12 * MiB);
        // The rest, 1 MiB − 512, is too small to split off in the large pool, so
        // the block is the whole segment and counts as allocated.
        QCOMPARE(simulator.allocatedBytes(), 12 * MiB);
    }

    void freedBlocksAreReusedAndMerged()
    {
        // Trace: a = 4 MiB, b = 4 MiB (same 20 MiB segment), free a, free b: they
        // merge with the 12 MiB rest back into one 20 MiB block, which then holds
        // a 16 MiB request without a new segment.
        const AllocationTrace trace = {
            {0, 4 * MiB, false}, {1, 4 * MiB, false}, {0, 4 * MiB, true}, {1, 4 * MiB, true}, {2, 16 * MiB, false},
        };
        const CachingAllocatorSimulator simulator = replayed(trace);
        QCOMPARE(simulator.reservedBytes(), 20 * MiB);
        QCOMPARE(simulator.peakReservedBytes(), 20 * MiB);
        QCOMPARE(simulator.allocatedBytes(), 16 * MiB);
    }

    void fragmentationForcesNewSegments()
    {
        // Three 6 MiB blocks fill 18 MiB of one 20 MiB segment (each rest is
        // split off while it exceeds 1 MiB, down to a free 2 MiB). Freeing the
        // first leaves 6 MiB and 2 MiB free but not adjacent, so 7 MiB needs a
        // second segment.
        const AllocationTrace trace = {
            {0, 6 * MiB, false}, {1, 6 * MiB, false}, {2, 6 * MiB, false}, {0, 6 * MiB, true}, {3, 7 * MiB, false},
        };
        const CachingAllocatorSimulator simulator = replayed(trace);
        QCOMPARE(simulator.reservedBytes(), 40 * MiB);
        QCOMPARE(simulator.segmentCount(), std::size_t{2});

        // 9 + 9 MiB fill 18 MiB of the first segment, the third 9 MiB opens a
        // second one (11 MiB rest). Freeing the first leaves a 9 MiB hole, too
        // small for 9 MiB + 512 bytes, which comes from the 11 MiB rest instead.
        const AllocationTrace wide = {
            {0, 9 * MiB, false}, {1, 9 * MiB, false},       {2, 9 * MiB, false},
            {0, 9 * MiB, true},  {3, 9 * MiB + 512, false},
        };
        const CachingAllocatorSimulator second = replayed(wide);
        QCOMPARE(second.reservedBytes(), 40 * MiB);
        QCOMPARE(second.peakAllocatedBytes(), 27 * MiB + 512);
    }

    void smallAndLargePoolsAreSeparate()
    {
        // A freed 20 MiB large segment does not serve a 4 KiB request: small
        // requests always come from 2 MiB small-pool segments.
        const AllocationTrace trace = {{0, 5 * MiB, false}, {0, 5 * MiB, true}, {1, 4 * KiB, false}};
        const CachingAllocatorSimulator simulator = replayed(trace);
        QCOMPARE(simulator.reservedBytes(), 22 * MiB);
    }

    void zeroByteRequestsAreSkipped()
    {
        const CachingAllocatorSimulator simulator = replayed({{0, 0, false}, {0, 0, true}});
        QCOMPARE(simulator.reservedBytes(), std::uint64_t{0});
    }
};

QTEST_GUILESS_MAIN(TestCachingAllocatorSimulator)
#include "test_CachingAllocatorSimulator.moc"
