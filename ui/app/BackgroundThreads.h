// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QThreadPool;

namespace gpumem::ui {

// The threads the workbench's background work runs on: a pool of its own, as many
// threads as cores. Not Qt's global pool: Qt 6.4 converts and fills large images on
// that one and waits for it on the GUI thread, so a long job there (a comparison, the
// statistics of a large file) would freeze the window's painting until it ends.
QThreadPool *backgroundThreadPool();

// Lowers the calling thread's priority for good (on Linux, a niceness of at least
// backgroundNiceness for this thread alone), so that the work it runs yields the cores
// to the GUI thread and to the threads Qt draws with. For backgroundThreadPool()'s
// threads only; an unprivileged process cannot raise a priority back, hence no undo.
void yieldToTheGui();

// The niceness of the workbench's background threads.
inline constexpr int backgroundNiceness = 10;

} // namespace gpumem::ui
