// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/ResourceDirectories.h"

#include <cstdlib>

namespace gpumem::io {

namespace fs = std::filesystem;

std::vector<fs::path> resourceDirectories(const char *environmentVariable, const char *installedName,
                                          const char *sourceFolder)
{
    std::vector<fs::path> directories;
    if (const char *overridden = std::getenv(environmentVariable))
        directories.emplace_back(overridden);
    // The installed layout is <prefix>/bin/gpumem beside <prefix>/share/gpumem-workbench.
    std::error_code error;
    const fs::path executable = fs::read_symlink("/proc/self/exe", error);
    if (!error)
        directories.push_back(executable.parent_path().parent_path() / "share/gpumem-workbench" / installedName);
    directories.emplace_back(sourceFolder);
    return directories;
}

std::vector<fs::path> jsonFilesIn(const std::vector<fs::path> &directories)
{
    std::vector<fs::path> files;
    for (const auto &directory : directories) {
        std::error_code error;
        for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error))
            if (it->path().extension() == ".json")
                files.push_back(it->path());
    }
    return files;
}

} // namespace gpumem::io
