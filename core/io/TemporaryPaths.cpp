// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/TemporaryPaths.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

#ifdef __linux__
#include <sys/syscall.h>
#endif

namespace gpumem::io {

namespace {

constexpr int slotCount = 64;
constexpr std::size_t pathCapacity = 4096;

// A slot's life: Free → Claimed (its text is being copied, the handler skips it)
// → one of the kinds → Free. Lock-free atomics are the only shared state a signal
// handler may read.
enum SlotState : int
{
    Free = 0,
    Claimed = 1,
    FileSlot = 2,
    FolderSlot = 3,
    MovedAsideSlot = 4,
};

std::atomic<int> slotStates[slotCount];
char slotPaths[slotCount][pathCapacity];
char slotRestorePaths[slotCount][pathCapacity];

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free slot states");

int stateFor(TemporaryPath::Kind kind)
{
    switch (kind) {
    case TemporaryPath::Kind::File: return FileSlot;
    case TemporaryPath::Kind::Folder: return FolderSlot;
    case TemporaryPath::Kind::MovedAsideFolder: return MovedAsideSlot;
    }
    return FileSlot;
}

std::string absolutePath(const std::string &path)
{
    // The program does not change folders, but an absolute path keeps the handler independent of that.
    std::error_code error;
    const std::filesystem::path full = std::filesystem::absolute(path, error);
    return error ? path : full.string();
}

// Removes what a folder holds. opendir/readdir allocate and are not async-signal-safe,
// so this reads the entries with the raw getdents64 system call into a stack buffer.
void emptyFolder(const char *path)
{
#ifdef __linux__
    const int folder = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0)
        return;
    alignas(8) char buffer[4096];
    for (int pass = 0; pass < 1024; ++pass) {
        const long bytes = ::syscall(SYS_getdents64, folder, buffer, sizeof buffer);
        if (bytes <= 0)
            break;
        // struct linux_dirent64: u64 inode, s64 offset, u16 record length, u8 type, name.
        constexpr long lengthOffset = 16;
        constexpr long nameOffset = 19;
        for (long offset = 0; offset + nameOffset < bytes;) {
            std::uint16_t length = 0;
            std::memcpy(&length, buffer + offset + lengthOffset, sizeof length);
            if (length == 0)
                break;
            const char *name = buffer + offset + nameOffset;
            offset += length;
            if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0)
                continue;
            if (::unlinkat(folder, name, 0) != 0)
                ::unlinkat(folder, name, AT_REMOVEDIR);
        }
    }
    ::close(folder);
#else
    (void)path;
#endif
}

extern "C" void removeTemporaryPathsAndReraise(int signalNumber)
{
    const int savedErrno = errno;
    removeTemporaryPaths();
    errno = savedErrno;
    // SA_RESETHAND has restored the default action; the signal stays blocked until
    // this handler returns and then ends the program as if no handler had run.
    ::raise(signalNumber);
}

} // namespace

TemporaryPath::TemporaryPath(const std::string &path, Kind kind, const std::string &restoreTo)
{
    const std::string full = absolutePath(path);
    const std::string fullRestore = restoreTo.empty() ? std::string() : absolutePath(restoreTo);
    if (full.size() >= pathCapacity || fullRestore.size() >= pathCapacity)
        return;
    for (int slot = 0; slot < slotCount; ++slot) {
        int expected = Free;
        if (!slotStates[slot].compare_exchange_strong(expected, Claimed, std::memory_order_acquire))
            continue;
        std::memcpy(slotPaths[slot], full.c_str(), full.size() + 1);
        std::memcpy(slotRestorePaths[slot], fullRestore.c_str(), fullRestore.size() + 1);
        slotStates[slot].store(stateFor(kind), std::memory_order_release);
        mSlot = slot;
        return;
    }
}

TemporaryPath::~TemporaryPath()
{
    release();
}

void TemporaryPath::release()
{
    if (mSlot < 0)
        return;
    slotStates[mSlot].store(Free, std::memory_order_release);
    mSlot = -1;
}

void removeTemporaryPaths()
{
    // Files first, so that the folders holding registered files are empty when removed.
    for (int slot = 0; slot < slotCount; ++slot)
        if (slotStates[slot].load(std::memory_order_acquire) == FileSlot)
            ::unlink(slotPaths[slot]);
    for (int slot = 0; slot < slotCount; ++slot) {
        if (slotStates[slot].load(std::memory_order_acquire) != FolderSlot)
            continue;
        emptyFolder(slotPaths[slot]);
        ::rmdir(slotPaths[slot]);
    }
    for (int slot = 0; slot < slotCount; ++slot) {
        if (slotStates[slot].load(std::memory_order_acquire) != MovedAsideSlot)
            continue;
        // Back into place when the replacement has not arrived yet (renaming onto a
        // missing name); otherwise the replacement is complete and the old one goes.
        if (::rename(slotPaths[slot], slotRestorePaths[slot]) != 0) {
            emptyFolder(slotPaths[slot]);
            ::rmdir(slotPaths[slot]);
        }
    }
}

void removeTemporaryPathsOnSignals()
{
    // SIGABRT too: a library aborting in the middle of a save should not leave its half-written folder.
    const int signalNumbers[] = {SIGINT, SIGTERM, SIGHUP, SIGABRT};
    struct sigaction action = {};
    action.sa_handler = removeTemporaryPathsAndReraise;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (int signalNumber : signalNumbers)
        sigaddset(&action.sa_mask, signalNumber);
    for (int signalNumber : signalNumbers) {
        struct sigaction previous = {};
        if (::sigaction(signalNumber, nullptr, &previous) == 0 && previous.sa_handler == SIG_IGN)
            continue;
        ::sigaction(signalNumber, &action, nullptr);
    }
    // A write past a file-size limit (ulimit -f on shared clusters) would end the program by SIGXFSZ
    // with its temporary files left behind; ignored, the write fails with EFBIG instead and takes the
    // writer's own "cannot write" path, which removes them.
    std::signal(SIGXFSZ, SIG_IGN);
}

} // namespace gpumem::io
