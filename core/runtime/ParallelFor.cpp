// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
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

bool runEachOnItsOwnThread(std::size_t count, const std::function<void(std::size_t)> &task)
{
    // Every thread waits at the gate until all exist, so that no task starts
    // unless every one can.
    std::mutex gateMutex;
    std::condition_variable gateOpened;
    enum class Gate
    {
        Closed,
        Run,
        Abandon
    } gate = Gate::Closed; // guarded by gateMutex
    std::vector<std::exception_ptr> errors(count);
    std::vector<std::thread> threads;
    threads.reserve(count);
    const auto open = [&](Gate state) {
        {
            const std::lock_guard lock(gateMutex);
            gate = state;
        }
        gateOpened.notify_all();
        for (std::thread &thread : threads)
            thread.join();
    };
    try {
        for (std::size_t index = 0; index < count; ++index)
            threads.emplace_back([&, index] {
                {
                    std::unique_lock lock(gateMutex);
                    gateOpened.wait(lock, [&] { return gate != Gate::Closed; });
                    if (gate == Gate::Abandon)
                        return;
                }
                try {
                    task(index);
                } catch (...) {
                    errors[index] = std::current_exception();
                }
            });
    } catch (const std::system_error &) {
        open(Gate::Abandon);
        return false;
    } catch (...) {
        // Out of memory for a thread's state: the threads started must still be joined.
        open(Gate::Abandon);
        throw;
    }
    open(Gate::Run);
    for (const std::exception_ptr &error : errors)
        if (error)
            std::rethrow_exception(error);
    return true;
}

} // namespace gpumem::runtime
