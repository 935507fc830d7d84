// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/RegularFile.h"

#include "io/InputError.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gpumem::io {

namespace {

std::string mebibytes(std::uint64_t bytes)
{
    return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB";
}

} // namespace

OpenedRegularFile::OpenedRegularFile(const std::string &path, std::uint64_t maxBytes)
{
    // O_NONBLOCK keeps a FIFO with no writer from blocking the open; it is refused below.
    mDescriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (mDescriptor < 0)
        throw InputError(path, 0, 0, std::string("cannot open the file for reading: ") + std::strerror(errno));
    try {
        struct stat status
        {
        };
        if (::fstat(mDescriptor, &status) != 0)
            throw InputError(path, 0, 0, std::string("cannot read the file: ") + std::strerror(errno));
        if (S_ISDIR(status.st_mode))
            throw InputError(path, 0, 0, "is a folder, not a file");
        if (!S_ISREG(status.st_mode))
            throw InputError(path, 0, 0, "is not a regular file (a device, FIFO or socket); give a file");
        mSize = static_cast<std::uint64_t>(status.st_size);
        if (mSize > maxBytes)
            throw InputError(path, 0, 0,
                             "is " + mebibytes(mSize) + ", more than the " + mebibytes(maxBytes) +
                                 " such a file may hold");
    } catch (...) {
        ::close(mDescriptor);
        throw;
    }
}

OpenedRegularFile::~OpenedRegularFile()
{
    ::close(mDescriptor);
}

std::string OpenedRegularFile::descriptorPath() const
{
    return "/proc/self/fd/" + std::to_string(mDescriptor);
}

std::string readRegularFile(const std::string &path, std::uint64_t maxBytes)
{
    const OpenedRegularFile file(path, maxBytes);
    const std::uint64_t size = file.size();
    std::string content(static_cast<std::size_t>(size), '\0');
    std::size_t filled = 0;
    while (filled < content.size()) {
        const ssize_t count = ::read(file.descriptor(), content.data() + filled, content.size() - filled);
        if (count < 0 && errno == EINTR)
            continue;
        if (count < 0)
            throw InputError(path, 0, 0, std::string("cannot read the file: ") + std::strerror(errno));
        if (count == 0)
            break; // shrank while being read: keep what is there
        filled += static_cast<std::size_t>(count);
    }
    content.resize(filled);
    // A file that grew after fstat() is still bounded: one byte more than the limit is an error.
    char extra;
    if (filled == maxBytes && ::read(file.descriptor(), &extra, 1) == 1)
        throw InputError(path, 0, 0, "grew past the " + mebibytes(maxBytes) + " such a file may hold");
    return content;
}

} // namespace gpumem::io
