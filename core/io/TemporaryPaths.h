// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/NonCopyable.h"

#include <string>

namespace gpumem::io {

// Remembers one temporary path that an atomic writer has on disk, for as long as
// the object lives, so that a signal ending the program can remove it (see
// removeTemporaryPathsOnSignals). Registration is thread-safe. The registry has
// room for a fixed number of paths of bounded length; a path that does not fit is
// not remembered, and is then only removed by its writer.
class TemporaryPath : io::NonCopyable
{
  public:
    enum class Kind
    {
        File,   // unlinked
        Folder, // emptied of the files in it, then removed
        // A model folder moved aside while its replacement takes its place:
        // renamed back onto restoreTo when that is still free, removed otherwise.
        MovedAsideFolder,
    };

    // Remembers path; restoreTo is used only by MovedAsideFolder.
    TemporaryPath(const std::string &path, Kind kind, const std::string &restoreTo = {});
    ~TemporaryPath();

    // Forgets the path now (it was renamed into place or removed).
    void release();
    // Returns whether the registry had room for the path.
    bool remembered() const { return mSlot >= 0; }

  private:
    int mSlot = -1;
};

// Removes every remembered temporary file, then empties and removes every
// remembered folder, then puts moved-aside model folders back. Async-signal-safe:
// it only calls open, getdents64, unlink, unlinkat, rmdir, rename and close.
void removeTemporaryPaths();

// Installs handlers for SIGINT, SIGTERM and SIGHUP that call removeTemporaryPaths()
// and then raise the signal again with its default action, so that the exit
// status still tells the parent which signal ended the program. A signal that is
// ignored when this is called (e.g. SIGHUP under nohup) stays ignored. SIGXFSZ is
// ignored, so that a write past a file-size limit fails (EFBIG) and is cleaned up
// like any failed write. Call once, early in main().
void removeTemporaryPathsOnSignals();

} // namespace gpumem::io
