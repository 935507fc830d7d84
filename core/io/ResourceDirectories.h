// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <vector>

namespace gpumem::io {

// The folders searched, in order, for one kind of shipped file (GPU profiles,
// presets): the folder environmentVariable names when it is set, the installed
// share/gpumem-workbench/installedName beside the running executable, and
// sourceFolder, the checkout's copy for runs from the build tree.
std::vector<std::filesystem::path> resourceDirectories(const char *environmentVariable, const char *installedName,
                                                       const char *sourceFolder);

// Every .json file directly in the given folders, folder by folder; folders that
// are missing or unreadable give none.
std::vector<std::filesystem::path> jsonFilesIn(const std::vector<std::filesystem::path> &directories);

} // namespace gpumem::io
