// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <functional>

namespace gpumem::runtime {

// Calls task(index) once for each index in [0, count), spread over up to
// `workers` threads, the calling thread being one of them; workers is clamped
// to [1, min(count, hardware threads)], since more only wait on one another.
// Indices are handed out in increasing order. No index starts once stop()
// returns true (checked before each one) or once a task has thrown; the first
// exception a task throws is rethrown here after every worker has returned.
// Tasks run concurrently: each must write only its own slots, or lock.
void parallelFor(std::size_t count, int workers, const std::function<void(std::size_t)> &task,
                 const std::function<bool()> &stop = {});

// Calls task(index) once for each index in [0, count), all at once, each on a
// thread of its own however few cores there are: for tasks that wait on one
// another (the members of an ensemble taking turns, models::EpochTurns), which
// must all be running. Returns false, having run no task, if the system gives
// fewer threads. Every task runs to its end even when another throws; the
// exception of the lowest index that threw is rethrown once all have returned.
bool runEachOnItsOwnThread(std::size_t count, const std::function<void(std::size_t)> &task);

} // namespace gpumem::runtime
