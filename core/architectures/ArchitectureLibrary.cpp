// SPDX-License-Identifier: GPL-3.0-or-later
#include "architectures/ArchitectureLibrary.h"

#include "ArchitecturesConfig.h"

#include "io/InputError.h"
#include "io/ResourceDirectories.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

namespace gpumem::architectures {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> libraryDirectories()
{
    return io::resourceDirectories("GPUMEM_ARCHITECTURE_DIR", "architectures", GPUMEM_SOURCE_ARCHITECTURE_DIR);
}

std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// The first folder's file wins, so that $GPUMEM_ARCHITECTURE_DIR can replace a shipped entry.
fs::path libraryFile(const std::string &name)
{
    const std::string wanted = lowered(name);
    for (const auto &file : io::jsonFilesIn(libraryDirectories()))
        if (lowered(file.stem().string()) == wanted)
            return file;
    return {};
}

bool looksLikePath(const std::string &text)
{
    return text.find('/') != std::string::npos || (text.size() > 5 && lowered(text.substr(text.size() - 5)) == ".json");
}

} // namespace

std::vector<std::string> architectureNames()
{
    std::set<std::string> names;
    for (const auto &file : io::jsonFilesIn(libraryDirectories()))
        names.insert(lowered(file.stem().string()));
    return {names.begin(), names.end()};
}

ArchitectureConfig resolveArchitecture(const std::string &nameOrFile)
{
    if (!nameOrFile.empty() && !looksLikePath(nameOrFile)) {
        if (const fs::path file = libraryFile(nameOrFile); !file.empty()) {
            ArchitectureConfig config = readArchitectureConfig(file);
            config.name = lowered(nameOrFile);
            return config;
        }
    }
    std::error_code error;
    const fs::file_status status = fs::status(nameOrFile, error);
    // A model's folder as downloaded from the Hub holds its config.json.
    if (!error && fs::is_directory(status) && fs::exists(fs::path(nameOrFile) / "config.json", error))
        return readArchitectureConfig(fs::path(nameOrFile) / "config.json");
    if ((!error && fs::exists(status)) || looksLikePath(nameOrFile))
        return readArchitectureConfig(nameOrFile);
    std::string names;
    for (const auto &name : architectureNames())
        names += (names.empty() ? "" : ", ") + name;
    throw io::InputError("no architecture named " + io::quoteForMessage(nameOrFile) +
                         (names.empty() ? std::string("; no architecture folder found") : "; known: " + names) +
                         " (or give the path of a config.json)");
}

} // namespace gpumem::architectures
