// SPDX-License-Identifier: GPL-3.0-or-later
// Writing a model folder: kept apart from ModelFolder.cpp, whose readers build
// without LibTorch (the model-folder fuzzer links them alone).
#include "models/ModelFolder.h"

#include "io/AtomicDirectoryWriter.h"
#include "io/InputError.h"
#include "io/RegularFile.h"
#include "io/Sha256.h"
#include "runtime/LibraryVersions.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace gpumem::models {

namespace {

// The innermost live ModelFolderMember of this thread: saves on other threads
// (compare fits models in parallel) never see another thread's members.
thread_local ModelFolderMember *innermostMember = nullptr;

// Returns what write() streams as one tree, refusing non-finite numbers as
// model.json does: for the writers that still stream (the calibration, the
// library versions). The text reads back to the same values, so the tree
// writes the bytes they would have written.
io::Json streamedTree(const std::function<void(io::JsonWriter &)> &write)
{
    std::ostringstream text;
    io::JsonWriter json(text, 0);
    json.refuseNonFiniteNumbers();
    write(json);
    return io::parseJson(text.str(), "model.json");
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

ModelFolderMember::ModelFolderMember(std::string key, std::function<io::Json()> value)
    : mKey(std::move(key))
    , mValue(std::move(value))
    , mOuter(innermostMember)
{
    for (const char *reserved : {"format", "format_version", "model", "hyperparameters", "seed", "schema", "fitted",
                                 "files", "library_versions"})
        if (mKey == reserved)
            throw std::invalid_argument("model.json member '" + mKey + "' is written by every model itself");
    innermostMember = this;
}

ModelFolderMember::ModelFolderMember(std::string key, const std::function<void(io::JsonWriter &)> &writeValue)
    : ModelFolderMember(std::move(key), [writeValue] { return streamedTree(writeValue); })
{
}

ModelFolderMember::~ModelFolderMember()
{
    innermostMember = mOuter;
}

void writeModelFolder(const std::string &directory, const std::string &modelName,
                      const Hyperparameters &hyperparameters, std::uint64_t seed, const ModelSchema &schema,
                      const std::function<io::Json(const std::string &folder)> &fittedState)
{
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
        std::vector<const ModelFolderMember *> members;
        for (const ModelFolderMember *member = innermostMember; member; member = member->mOuter)
            members.insert(members.begin(), member);
        for (const ModelFolderMember *member : members)
            model[member->mKey] = member->mValue();
        model["files"] = fileList(folder.path());
        model["library_versions"] = io::member(streamedTree([](io::JsonWriter &json) {
                                                   json.beginObject();
                                                   runtime::writeLibraryVersions(json);
                                                   json.endObject();
                                               }),
                                               "library_versions");
        io::JsonWriter json(out);
        json.refuseNonFiniteNumbers();
        json.value(model);
    } catch (const io::InputError &error) {
        // Errors inside the temporary folder are reported against the folder the user named.
        if (!error.file().empty() && error.file().rfind(folder.path(), 0) != 0)
            throw;
        throw io::InputError(directory, 0, 0,
                             (error.file().empty() ? "the trained " + modelName + " model " : std::string()) +
                                 error.message() + "; not saved");
    }
    out.close();
    if (!out)
        throw io::InputError(directory, 0, 0,
                             std::string("cannot write model.json (disk full?): ") + std::strerror(errno));
    folder.commit();
}

} // namespace gpumem::models
