// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a model folder: kept apart from ModelFolder.cpp, whose readers build
// without LibTorch (the model-folder fuzzer links them alone).
#include "models/ModelFolder.h"

#include "io/AtomicDirectoryWriter.h"
#include "io/InputError.h"
#include "io/JsonWriter.h"
#include "io/RegularFile.h"
#include "io/Sha256.h"
#include "runtime/LibraryVersions.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <vector>

namespace gpumem::models {

namespace {

// The members writeModelFolder() writes itself, which extra members may not replace.
void refuseReservedMembers(const io::Json &extraMembers)
{
    if (!extraMembers.is_object())
        throw std::invalid_argument("extra model.json members must form an object");
    for (const char *reserved : {"format", "format_version", "model", "hyperparameters", "seed", "schema", "fitted",
                                 "files", "library_versions"})
        if (extraMembers.contains(reserved))
            throw std::invalid_argument(std::string("model.json member '") + reserved +
                                        "' is written by every model itself");
}

// The size and digest of every file the model wrote beside model.json, by name.
io::Json fileList(const std::string &folder)
{
    std::map<std::string, std::string> files; // name → content, sorted by name
    for (const auto &entry : std::filesystem::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name != "model.json")
            files.emplace(name, io::readRegularFile(entry.path().string(), maxModelFileBytes));
    }
    io::Json list = io::Json::object();
    for (const auto &[name, content] : files)
        list[name] = {{"bytes", content.size()}, {"sha256", io::sha256Hex(content)}};
    return list;
}

} // namespace

void writeModelFolder(const std::string &directory, const std::string &modelName,
                      const Hyperparameters &hyperparameters, std::uint64_t seed, const ModelSchema &schema,
                      const std::function<io::Json(const std::string &folder)> &fittedState,
                      const io::Json &extraMembers)
{
    refuseReservedMembers(extraMembers);
    io::AtomicDirectoryWriter folder(directory);
    const std::string metadataPath = folder.filePath("model.json");
    std::ofstream out(metadataPath, std::ios::binary);
    try {
        io::Json model = ModelHeader{modelName};
        model["hyperparameters"] = hyperparameters;
        model["seed"] = seed;
        model["schema"] = schema;
        // The fitted state first: it writes the model's own files, whose digests follow.
        model["fitted"] = fittedState(folder.path());
        for (const auto &[key, value] : extraMembers.items())
            model[key] = value;
        model["files"] = fileList(folder.path());
        model["library_versions"] = runtime::libraryVersions();
        io::JsonWriter json(out);
        json.refuseNonFiniteNumbers();
        json.value(model);
        // Loading refuses a larger model.json, so such a folder is never written.
        if (const auto bytes = static_cast<std::uint64_t>(out.tellp()); out && bytes > io::maxJsonFileBytes)
            throw io::InputError("would write a model.json of " + std::to_string(bytes >> 20) + " MiB, more than the " +
                                 std::to_string(io::maxJsonFileBytes >> 20) + " MiB that loading reads");
    } catch (const io::InputError &error) {
        // Errors inside the temporary folder are reported against the folder the user named.
        if (!error.file().empty() && error.file().rfind(folder.path(), 0) != 0)
            throw;
        throw io::InputError(directory, 0, 0,
                             (error.file().empty() ? "the trained " + modelName + " model " : std::string()) +
                                 error.markedMessage() + "; not saved");
    }
    out.close();
    if (!out)
        throw io::InputError(directory, 0, 0,
                             std::string("cannot write model.json (disk full?): ") + std::strerror(errno));
    folder.commit();
}

} // namespace gpumem::models
