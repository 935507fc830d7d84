// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/TemporaryPaths.h"

#include <memory>
#include <string>

namespace gpumem::io {

// The temporary names an atomic save uses beside its target: target + kind +
// "HOST-PID-RANDOM", where kind is ".tmp-" (the content being written) or
// ".old-" (a model folder moved aside while its replacement takes its place).
// HOST (a hash of the host name) and PID say which process made the name, so a
// later save can tell a temporary of a process that died (SIGKILL, power loss)
// from one still in use.
std::string temporarySiblingPath(const std::string &target, const char *kind);

// A file just created under a temporary sibling name of a target.
struct TemporaryFile
{
    int descriptor = -1; // open for writing; the caller closes it
    std::string path;
    // Keeps the file removed on a signal until the caller releases it (after its rename).
    std::unique_ptr<TemporaryPath> registration;
};

// Creates a file beside target exclusively (O_CREAT | O_EXCL: never a file, or a
// link, that someone else put at that name), opened write-only with extraFlags
// added (e.g. O_APPEND). Returns descriptor -1 with errno set when it cannot.
TemporaryFile createTemporaryFileBeside(const std::string &target, int extraFlags = 0);

// Removes the temporary siblings of target that a process of this user on this
// host left when it died: ".tmp-" files and folders are removed; an ".old-"
// folder is renamed back onto target when target is missing (the save died
// between moving the old model aside and moving the new one in, so it is the
// only copy), and removed otherwise. Names of another form or host, of a process
// still running, of another owner, and symlinks are left alone. Best effort:
// errors are ignored.
void removeStaleTemporarySiblings(const std::string &target);

} // namespace gpumem::io
