// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/Presets.h"

#include "ModelsConfig.h"

#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonDocument.h"
#include "io/ResourceDirectories.h"

#include <filesystem>
#include <set>

namespace gpumem::models {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> presetDirectories()
{
    return io::resourceDirectories("GPUMEM_PRESET_DIR", "presets", GPUMEM_SOURCE_PRESET_DIR);
}

} // namespace

std::string presetPath(const std::string &name)
{
    for (const auto &directory : presetDirectories()) {
        const fs::path candidate = directory / (name + ".json");
        std::error_code error;
        if (fs::is_regular_file(candidate, error))
            return candidate.string();
    }
    std::string known;
    for (const auto &preset : presetNames())
        known += (known.empty() ? "" : ", ") + preset;
    throw io::InputError(io::parameter("preset") + ": no preset named " + io::quoteForMessage(name) +
                         (known.empty() ? std::string("; no preset folder found") : "; presets: " + known));
}

std::vector<std::string> presetNames()
{
    std::set<std::string> names;
    for (const auto &file : io::jsonFilesIn(presetDirectories()))
        names.insert(file.stem().string());
    return {names.begin(), names.end()};
}

void applyHyperparameterFile(Hyperparameters &hyperparameters, const std::string &path)
{
    const io::Json object = io::readJsonFile(path);
    if (object.is_object())
        for (const auto &member : object.items())
            if (!hyperparameters.contains(member.key()))
                throw io::InputError(path, 0, 0,
                                     "unknown hyperparameter " + io::quoteForMessage(member.key()) +
                                         " of bigru_transformer; known: " + hyperparameters.namesText());
    hyperparameters.apply(object, path);
}

std::string presetFileText(const Hyperparameters &hyperparameters)
{
    return io::jsonDocumentText(hyperparameters.values()) + '\n';
}

void savePresetFile(const Hyperparameters &hyperparameters, const std::string &path)
{
    io::writeFileAtomically(path, presetFileText(hyperparameters));
}

} // namespace gpumem::models
