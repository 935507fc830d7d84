// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the file system does to a program that the tests make happen on purpose: a full
// disk (a file-size limit) and a FIFO that nobody writes to.

#include <QFile>
#include <QString>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <future>
#include <optional>
#include <sys/resource.h>
#include <unistd.h>

namespace gpumem::tests {

// Sets a file-size limit for the scope, so that writes past it fail as on a full disk.
// IgnoreSignal makes them fail with EFBIG instead of ending the test by SIGXFSZ;
// LeaveSignal tests the program's own handling of the signal.
class FileSizeLimit
{
  public:
    enum Signal
    {
        IgnoreSignal,
        LeaveSignal,
    };

    explicit FileSizeLimit(rlim_t bytes, Signal signal = IgnoreSignal)
        : mIgnoring(signal == IgnoreSignal)
    {
        ::getrlimit(RLIMIT_FSIZE, &mPrevious);
        if (mIgnoring)
            mPreviousHandler = std::signal(SIGXFSZ, SIG_IGN);
        rlimit limited = mPrevious;
        limited.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &limited);
    }
    ~FileSizeLimit()
    {
        ::setrlimit(RLIMIT_FSIZE, &mPrevious);
        if (mIgnoring)
            std::signal(SIGXFSZ, mPreviousHandler);
    }
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;

  private:
    bool mIgnoring;
    rlimit mPrevious = {};
    void (*mPreviousHandler)(int) = nullptr;
};

// Runs action on another thread and returns what it returns, or nothing when it is still
// running after 20 s: then it waits in open() for a writer on the FIFO at fifoPath, and a
// writer that opens the FIFO and closes it at once lets it return before this does.
template <typename Action> auto resultUnlessBlockedOn(const QString &fifoPath, Action action)
{
    auto running = std::async(std::launch::async, std::move(action));
    if (running.wait_for(std::chrono::seconds(20)) == std::future_status::ready)
        return std::make_optional(running.get());
    const int writer = ::open(QFile::encodeName(fifoPath).constData(), O_WRONLY | O_NONBLOCK);
    if (writer >= 0)
        ::close(writer);
    running.wait();
    return decltype(std::make_optional(running.get()))();
}

} // namespace gpumem::tests
