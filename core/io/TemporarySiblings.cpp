// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/TemporarySiblings.h"

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace gpumem::io {

namespace fs = std::filesystem;

namespace {

constexpr const char *kinds[] = {".tmp-", ".old-"};

// Eight hex digits naming this host: a shared folder (NFS) may hold temporaries of
// processes on other machines, whose process ids mean nothing here.
const std::string &hostTag()
{
    static const std::string tag = [] {
        char name[256] = {};
        if (::gethostname(name, sizeof name - 1) != 0)
            name[0] = '\0';
        std::uint32_t hash = 2166136261u; // FNV-1a
        for (const char *character = name; *character != '\0'; ++character)
            hash = (hash ^ static_cast<unsigned char>(*character)) * 16777619u;
        char text[9];
        std::snprintf(text, sizeof text, "%08x", static_cast<unsigned>(hash));
        return std::string(text);
    }();
    return tag;
}

// Parses "HOST-PID-RANDOM"; returns the process id, or 0 when suffix has another form or host.
pid_t processOf(const std::string &suffix)
{
    const std::string &host = hostTag();
    if (suffix.size() < host.size() + 4 || suffix.compare(0, host.size(), host) != 0 || suffix[host.size()] != '-')
        return 0;
    const std::size_t pidStart = host.size() + 1;
    const std::size_t pidEnd = suffix.find('-', pidStart);
    if (pidEnd == std::string::npos || pidEnd == pidStart || pidEnd - pidStart > 9 || pidEnd + 1 == suffix.size())
        return 0;
    pid_t process = 0;
    for (std::size_t at = pidStart; at < pidEnd; ++at) {
        if (suffix[at] < '0' || suffix[at] > '9')
            return 0;
        process = process * 10 + (suffix[at] - '0');
    }
    for (std::size_t at = pidEnd + 1; at < suffix.size(); ++at)
        if (!std::isxdigit(static_cast<unsigned char>(suffix[at])))
            return 0;
    return process;
}

bool processIsGone(pid_t process)
{
    // EPERM means it runs under another user: alive.
    return process > 0 && process != ::getpid() && ::kill(process, 0) != 0 && errno == ESRCH;
}

} // namespace

std::string temporarySiblingPath(const std::string &target, const char *kind)
{
    // The random part keeps two writers of one process (two threads) apart.
    static thread_local std::random_device device;
    char suffix[40];
    std::snprintf(suffix, sizeof suffix, "%s-%ld-%08x", hostTag().c_str(), static_cast<long>(::getpid()),
                  static_cast<unsigned>(device()));
    return target + kind + suffix;
}

TemporaryFile createTemporaryFileBeside(const std::string &target, int extraFlags)
{
    TemporaryFile file;
    for (int attempt = 0; attempt < 16; ++attempt) {
        file.path = temporarySiblingPath(target, ".tmp-");
        // Registered before it exists, so that no signal can fall between creating and remembering it.
        file.registration = std::make_unique<TemporaryPath>(file.path, TemporaryPath::Kind::File);
        file.descriptor =
            ::open(file.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | extraFlags, 0666);
        if (file.descriptor >= 0 || errno != EEXIST)
            break;
    }
    if (file.descriptor < 0) {
        const int error = errno;
        file.registration.reset();
        file.path.clear();
        errno = error;
    }
    return file;
}

void removeStaleTemporarySiblings(const std::string &target)
{
    const fs::path targetPath(target);
    const std::string base = targetPath.filename().string();
    const fs::path folder = targetPath.has_parent_path() ? targetPath.parent_path() : fs::path(".");
    if (base.empty())
        return;
    // Collected first: removing entries while a directory is being listed may skip some.
    std::vector<std::pair<std::string, bool>> stale; // path, moved aside
    std::error_code error;
    for (fs::directory_iterator entry(folder, error), end; !error && entry != end; entry.increment(error)) {
        const std::string name = entry->path().filename().string();
        for (const char *kind : kinds) {
            const std::string prefix = base + kind;
            if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
                processIsGone(processOf(name.substr(prefix.size()))))
                stale.emplace_back(entry->path().string(), kind == kinds[1]);
        }
    }
    for (const auto &[path, movedAside] : stale) {
        struct stat info = {};
        if (::lstat(path.c_str(), &info) != 0 || info.st_uid != ::geteuid() ||
            !(S_ISREG(info.st_mode) || S_ISDIR(info.st_mode)))
            continue;
        struct stat targetInfo = {};
        const bool targetMissing = ::lstat(target.c_str(), &targetInfo) != 0 && errno == ENOENT;
        if (movedAside && S_ISDIR(info.st_mode) && targetMissing && ::rename(path.c_str(), target.c_str()) == 0)
            continue;
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
}

} // namespace gpumem::io
