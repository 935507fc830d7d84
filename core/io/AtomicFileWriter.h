// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"
#include "io/OutputPaths.h"

#include <memory>
#include <ostream>
#include <string>

namespace gpumem::io {

class DescriptorBuffer;
class TemporaryPath;

// Writes a file so that readers only ever see the old or the complete new
// content: data goes to a temporary file in the same folder, and commit()
// flushes it and renames it over the destination, which keeps an existing
// file's permission bits. An existing symlink keeps pointing at the new content
// (its target is replaced, not the link); a device, FIFO or socket (/dev/null,
// /dev/stdout) is written through directly, as it cannot be replaced. Destroying
// the writer without commit() removes the temporary file and leaves the
// destination untouched; so does a signal (see removeTemporaryPathsOnSignals).
// The temporary file is created exclusively under a fresh name (see
// createTemporaryFileBeside), and temporaries of this destination left by a
// writer that was killed are removed first (see removeStaleTemporarySiblings).
// Not thread-safe; one writer per destination.
class AtomicFileWriter : io::NonCopyable
{
  public:
    // Opens the temporary file; throws InputError when the destination is a
    // folder or its folder is missing or not writable.
    explicit AtomicFileWriter(std::string destination);
    ~AtomicFileWriter();

    // The stream to write the content to.
    std::ostream &stream() { return *mStream; }

    // Flushes, syncs and renames the temporary file onto the destination; throws
    // InputError ("cannot write (disk full?): …" with the system's reason) when any
    // step fails, after removing the temporary file (the destination then keeps
    // its old content).
    void commit();

    // The destination as given.
    const std::string &destination() const { return mDestination; }

  private:
    void discardTemporaryFile();

    std::string mDestination;
    FileDestination mTarget;
    std::string mTemporaryPath; // empty when writing through
    std::unique_ptr<TemporaryPath> mRegistration;
    std::unique_ptr<DescriptorBuffer> mBuffer;
    std::unique_ptr<std::ostream> mStream;
    bool mCommitted = false;
};

// Writes content to path atomically (see AtomicFileWriter).
void writeFileAtomically(const std::string &path, const std::string &content);

} // namespace gpumem::io
