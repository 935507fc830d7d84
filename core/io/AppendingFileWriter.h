// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"

#include <cstdint>
#include <memory>
#include <string>

namespace gpumem::io {

class AtomicFileWriter;

// Writes a file that grows a line at a time as work finishes (a sweep's runs),
// without ever losing what was there or leaving half a line:
// - the existing file at the destination stays untouched until the first
//   append(), which replaces it atomically (AtomicFileWriter), so a run that
//   fails or is stopped before its first result keeps the old file;
// - each later append() adds its text with write() calls on a descriptor opened
//   for appending, so a crash or a signal leaves whole lines, and the cost of a
//   line does not grow with the file;
// - a failed write (a full disk, a file-size limit) is cut back to the last whole
//   line before the error is thrown.
// A device, FIFO or /dev/stdout is written through as the text comes. Not thread-safe.
class AppendingFileWriter : io::NonCopyable
{
  public:
    // Checks the destination (as AtomicFileWriter does) without touching it;
    // throws InputError when it is a folder or its folder is missing or not writable.
    explicit AppendingFileWriter(std::string destination);
    ~AppendingFileWriter();

    // Adds text (whole lines) at the end of the file; the first call replaces the
    // old file with it. Throws InputError ("cannot write (disk full?): …") naming
    // the destination when the text cannot be written; the file then ends with the
    // text of the calls before.
    void append(const std::string &text);

    // Finishes a destination written through (a pipe or device); nothing to do for a file.
    void finish();

    // Bytes written so far.
    std::uint64_t size() const { return mSize; }

  private:
    void appendToFile(const std::string &text);

    std::string mDestination;
    std::unique_ptr<AtomicFileWriter> mThrough; // a device or pipe: written through
    int mDescriptor = -1;                       // the replaced file, opened for appending
    std::uint64_t mSize = 0;
    bool mStarted = false;
};

} // namespace gpumem::io
