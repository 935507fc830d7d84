// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"

#include <cstdint>
#include <limits>
#include <string>

namespace gpumem::io {

// The most a JSON file we read (model.json, --config, a project) may hold.
constexpr std::uint64_t maxJsonFileBytes = 64ull << 20;

// A regular file opened for reading, as readRegularFile checks it: a folder, a
// device, a FIFO (never waited on) or a file larger than maxBytes is refused with
// io::InputError naming path when the object is made. The descriptor stays open
// for the object's life. Not thread-safe.
class OpenedRegularFile : io::NonCopyable
{
  public:
    explicit OpenedRegularFile(const std::string &path,
                               std::uint64_t maxBytes = std::numeric_limits<std::uint64_t>::max());
    ~OpenedRegularFile();

    int descriptor() const { return mDescriptor; }
    // The size fstat() gave when the file was opened, in bytes.
    std::uint64_t size() const { return mSize; }
    // A name of the file that was checked ("/proc/self/fd/N"), for a library that
    // opens files by name: a file swapped in at path since cannot be read through it.
    std::string descriptorPath() const;

  private:
    int mDescriptor = -1;
    std::uint64_t mSize = 0;
};

// Reads the whole of path into memory when it is a regular file of at most
// maxBytes: a folder, a device such as /dev/zero, a FIFO or a larger file is
// refused with io::InputError naming path, before anything is read. The check
// is made on the opened descriptor, so the file cannot be swapped in between.
std::string readRegularFile(const std::string &path, std::uint64_t maxBytes);

} // namespace gpumem::io
