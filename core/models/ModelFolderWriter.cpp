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
#include <stdexcept>
#include <vector>

namespace gpumem::models {

namespace {

// The innermost live ModelFolderMember of this thread: saves on other threads
// (compare fits models in parallel) never see another thread's members.
thread_local ModelFolderMember *innermostMember = nullptr;

// Records size and digest of every file the model wrote beside model.json.
void writeFileList(io::JsonWriter &json, const std::string &folder)
{
    std::map<std::string, std::string> files; // name → content, sorted by name
    for (const auto &entry : std::filesystem::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name != "model.json")
            files.emplace(name, io::readRegularFile(entry.path().string(), maxModelFileBytes));
    }
    json.key("files").beginObject();
    for (const auto &[name, content] : files) {
        json.key(name).beginObject();
        json.key("bytes").value(content.size());
        json.key("sha256").value(io::sha256Hex(content));
        json.endObject();
    }
    json.endObject();
}

} // namespace

ModelFolderMember::ModelFolderMember(std::string key, std::function<void(io::JsonWriter &)> writeValue)
    : mKey(std::move(key))
    , mWriteValue(std::move(writeValue))
    , mOuter(innermostMember)
{
    for (const char *reserved : {"format", "format_version", "model", "hyperparameters", "seed", "schema", "fitted",
                                 "files", "library_versions"})
        if (mKey == reserved)
            throw std::invalid_argument("model.json member '" + mKey + "' is written by every model itself");
    innermostMember = this;
}

ModelFolderMember::~ModelFolderMember()
{
    innermostMember = mOuter;
}

void writeModelFolder(const std::string &directory, const std::string &modelName,
                      const Hyperparameters &hyperparameters, std::uint64_t seed, const ModelSchema &schema,
                      const std::function<void(io::JsonWriter &, const std::string &folder)> &writeFitted)
{
    io::AtomicDirectoryWriter folder(directory);
    const std::string metadataPath = folder.filePath("model.json");
    std::ofstream out(metadataPath, std::ios::binary);
    io::JsonWriter json(out);
    json.refuseNonFiniteNumbers();
    try {
        json.beginObject();
        writeModelHeader(json, modelName);
        json.key("hyperparameters");
        hyperparameters.writeValues(json);
        json.key("seed").value(seed);
        writeSchema(json, schema);
        json.key("fitted");
        writeFitted(json, folder.path());
        std::vector<const ModelFolderMember *> members;
        for (const ModelFolderMember *member = innermostMember; member; member = member->mOuter)
            members.insert(members.begin(), member);
        for (const ModelFolderMember *member : members) {
            json.key(member->mKey);
            member->mWriteValue(json);
        }
        writeFileList(json, folder.path());
        runtime::writeLibraryVersions(json);
        json.endObject();
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
