// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/HeapRetention.h"

#include <QTest>

#include <cstdlib>
#include <optional>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

constexpr std::size_t kBlockBytes = 64u << 20; // far above glibc's 128 KiB mapping threshold

// Blocks mapped on their own, and bytes held by the heap (used or free), now.
struct HeapState
{
    std::size_t mappedBlocks = 0;
    std::size_t heapBytes = 0;
};

HeapState heapState()
{
#if defined(__GLIBC__)
    const struct mallinfo2 info = mallinfo2();
    return {info.hblks, info.arena};
#else
    return {};
#endif
}

// Allocates one large block, touches it, and reports the heap while it is live.
HeapState whileOneLargeBlockLives()
{
    auto *block = static_cast<volatile char *>(std::malloc(kBlockBytes));
    block[0] = 1;
    block[kBlockBytes - 1] = 1;
    const HeapState state = heapState();
    std::free(const_cast<char *>(block));
    return state;
}

} // namespace

class TestHeapRetention : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase()
    {
#if !defined(__GLIBC__)
        QSKIP("the heap is glibc's to keep");
#endif
#if defined(__SANITIZE_ADDRESS__)
        QSKIP("AddressSanitizer replaces the C library's allocator");
#endif
    }

    void keepsFreedBlocksInTheHeapWhileItLives()
    {
        const HeapState before = heapState();
        // By default a large block is mapped on its own and unmapped when freed.
        QCOMPARE(whileOneLargeBlockLives().mappedBlocks, before.mappedBlocks + 1);
        QCOMPARE(heapState().mappedBlocks, before.mappedBlocks);

        std::optional<gpumem::runtime::HeapRetention> outer(std::in_place);
        {
            const gpumem::runtime::HeapRetention inner; // scopes nest
        }
        const HeapState inside = whileOneLargeBlockLives();
        QCOMPARE(inside.mappedBlocks, before.mappedBlocks); // from the heap, not a mapping of its own
        QVERIFY(inside.heapBytes >= kBlockBytes);
        QVERIFY(heapState().heapBytes >= kBlockBytes); // freed, yet kept for the next allocation

        outer.reset(); // the last scope: defaults back, the free memory returned
        QVERIFY(heapState().heapBytes < kBlockBytes);
        QCOMPARE(whileOneLargeBlockLives().mappedBlocks, before.mappedBlocks + 1);
    }
};

QTEST_GUILESS_MAIN(TestHeapRetention)
#include "test_HeapRetention.moc"
