// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace gpumem::runtime {

void parallelFor(std::size_t count, int workers, const std::function<void(std::size_t)> &task,
                 const std::function<bool()> &stop)
{
    if (count == 0)
        return;
    const std::size_t hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t threadCount =
        std::clamp<std::size_t>(static_cast<std::size_t>(std::max(workers, 1)), 1, std::min(count, hardware));
    std::atomic<std::size_t> nextIndex{0};
    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::exception_ptr firstError; // guarded by errorMutex

    const auto work = [&] {
        for (;;) {
            if (failed.load() || (stop && stop()))
                return;
            const std::size_t index = nextIndex.fetch_add(1);
            if (index >= count)
                return;
            try {
                task(index);
            } catch (...) {
                const std::lock_guard lock(errorMutex);
                if (!firstError)
                    firstError = std::current_exception();
                failed = true;
                return;
            }
        }
    };

    std::vector<std::thread> threads;
    threads.reserve(threadCount - 1);
    try {
        for (std::size_t i = 1; i < threadCount; ++i)
            threads.emplace_back(work);
    } catch (const std::system_error &) {
        // The system gave fewer threads than asked: the ones started, and this one, do all the work.
    }
    work();
    for (std::thread &thread : threads)
        thread.join();
    if (firstError)
        std::rethrow_exception(firstError);
}

} // namespace gpumem::runtime
