// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/BackgroundThreads.h"

#include <QThreadPool>

#if defined(__linux__)
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace gpumem::ui {

Q_GLOBAL_STATIC(QThreadPool, workbenchThreads)

QThreadPool *backgroundThreadPool()
{
    return workbenchThreads();
}

void yieldToTheGui()
{
#if defined(__linux__)
    // On Linux a niceness belongs to a thread: PRIO_PROCESS with a thread's id sets that thread's alone.
    const auto thread = static_cast<id_t>(syscall(SYS_gettid));
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, thread);
    if (errno == 0 && current < backgroundNiceness)
        setpriority(PRIO_PROCESS, thread, backgroundNiceness);
#endif
}

} // namespace gpumem::ui
