// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <sys/types.h>

namespace gpumem::io {

// The "format" member of a model folder's model.json: the mark that the folder
// was written by this program and may be replaced by a new save.
inline constexpr const char *modelFolderFormat = "gpumem-model";

// Where and how an output file is written.
struct FileDestination
{
    enum class Method
    {
        // A temporary file beside path is renamed over it: readers see the old or the new content.
        Replace,
        // path (a device, FIFO or socket, or a file named through /proc such as
        // /dev/stdout) is opened and written as it is; it cannot be replaced.
        WriteThrough,
    };
    Method method = Method::Replace;
    // The file to replace (symlinks resolved, so the link itself is kept) or to write through.
    std::string path;
    // For WriteThrough: the descriptor of this process that path names (as
    // /dev/stdout names 1), written through a duplicate so that the output joins
    // what the process writes there; -1 when path is opened itself.
    int ownDescriptor = -1;
    // Whether path exists as a regular file; its mode and owner are then kept.
    bool exists = false;
    mode_t mode = 0;
    uid_t owner = 0;
    gid_t group = 0;
};

// Decides how the output file at path is written; throws InputError(path, …) when
// it names a folder, when the folder that would receive it is missing or not
// writable, or when a file to write through is not writable.
FileDestination resolveFileDestination(const std::string &path);

// Returns the folder a model save writes for the destination path (an existing
// symlink resolved to its target); throws InputError(path, …) unless it is absent,
// an empty folder or a model folder that holds nothing but what its save wrote
// (model.json and the files it records, so that no note or result of the user's
// kept beside them is replaced), and its parent folder is writable. Called before
// a long training and again when the save is committed.
std::string resolveModelFolderDestination(const std::string &path);

// Returns path with every symbolic link of it and of its existing parents
// resolved, made absolute and normalised: two paths naming one file give the same text.
std::string pathIdentity(const std::string &path);

} // namespace gpumem::io
