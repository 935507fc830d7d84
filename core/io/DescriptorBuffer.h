// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"

#include <streambuf>
#include <string>
#include <vector>

namespace gpumem::io {

// A stream buffer that writes to a file descriptor it owns, retrying interrupted
// and partial writes, and remembering the errno of the first failed write, so a
// caller can say why a write failed (ENOSPC, EFBIG, EIO …). After a failure it
// refuses further output, which sets the stream's badbit. Not thread-safe.
class DescriptorBuffer : public std::streambuf, private io::NonCopyable
{
  public:
    explicit DescriptorBuffer(int descriptor);
    ~DescriptorBuffer() override;

    // Writes out what is buffered, optionally syncs it to disk (fsync), and closes the
    // descriptor; returns false when any step failed (error() then says why).
    bool close(bool syncToDisk);
    // Returns the errno of the first failure, or 0.
    int error() const { return mError; }
    // Returns the descriptor, or -1 once closed.
    int descriptor() const { return mDescriptor; }

  protected:
    int_type overflow(int_type character) override;
    int sync() override;

  private:
    bool writeBuffered();

    int mDescriptor;
    int mError = 0;
    std::vector<char> mBuffer;
};

// Returns one line saying why writing failed, from the errno of the failure (0
// when unknown): "cannot write (disk full?): No space left on device" for a full
// disk, quota or file-size limit, "cannot write: Broken pipe" otherwise.
std::string describeWriteError(int error);

} // namespace gpumem::io
