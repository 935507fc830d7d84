// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/OutputPaths.h"

#include "io/InputError.h"
#include "io/Json.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace gpumem::io {

namespace fs = std::filesystem;

namespace {

std::string errnoText(int error)
{
    return std::strerror(error);
}

std::string withoutTrailingSlashes(std::string path)
{
    while (path.size() > 1 && path.back() == '/')
        path.pop_back();
    return path;
}

std::string canonicalParent(const fs::path &path)
{
    std::error_code error;
    const fs::path parent = fs::weakly_canonical(fs::absolute(path, error).parent_path(), error);
    return error ? path.parent_path().string() : parent.string();
}

// Whether path lies in /proc, where a link such as /proc/self/fd/1 names an open
// descriptor rather than a file that may be replaced.
bool liesInProc(const fs::path &path)
{
    const std::string parent = canonicalParent(path);
    return parent == "/proc" || parent.rfind("/proc/", 0) == 0;
}

// Returns N when path is the link /proc/self/fd/N (or /proc/PID/fd/N of this
// process), else -1.
int ownDescriptorNamedBy(const fs::path &path)
{
    if (canonicalParent(path) != "/proc/" + std::to_string(::getpid()) + "/fd")
        return -1;
    const std::string name = path.filename().string();
    if (name.empty() || name.size() > 9 || name.find_first_not_of("0123456789") != std::string::npos)
        return -1;
    return std::stoi(name);
}

struct LinkEnd
{
    std::string path;     // the last name of the chain of links (it may not exist)
    bool namesDescriptor; // a link of the chain lies in /proc
    int ownDescriptor;    // the descriptor of this process the chain names, or -1
};

LinkEnd followLinks(const std::string &path)
{
    fs::path current = path;
    bool namesDescriptor = false;
    int ownDescriptor = -1;
    for (int hop = 0; hop < 40; ++hop) {
        std::error_code error;
        if (!fs::is_symlink(fs::symlink_status(current, error)) || error)
            break;
        if (liesInProc(current)) {
            namesDescriptor = true;
            if (ownDescriptor < 0)
                ownDescriptor = ownDescriptorNamedBy(current);
        }
        fs::path target = fs::read_symlink(current, error);
        if (error)
            break;
        current = target.is_relative() ? current.parent_path() / target : target;
    }
    return {current.string(), namesDescriptor, ownDescriptor};
}

// Throws unless the folder that holds file exists and lets this process create and rename files in it.
void checkParentIsWritable(const std::string &file, const std::string &shownPath)
{
    std::string parent = fs::path(file).parent_path().string();
    if (parent.empty())
        parent = ".";
    struct stat info = {};
    if (::stat(parent.c_str(), &info) != 0)
        throw InputError(shownPath, 0, 0,
                         "cannot write: the folder " + quoteForMessage(parent, 200) + " does not exist");
    if (!S_ISDIR(info.st_mode))
        throw InputError(shownPath, 0, 0, "cannot write: " + quoteForMessage(parent, 200) + " is not a folder");
    if (::access(parent.c_str(), W_OK | X_OK) != 0) {
        const std::string reason = errnoText(errno);
        throw InputError(shownPath, 0, 0, "cannot write in the folder " + quoteForMessage(parent, 200) + ": " + reason);
    }
}

bool isEmptyFolder(const std::string &path)
{
    std::error_code error;
    return fs::is_empty(path, error) && !error;
}

} // namespace

FileDestination resolveFileDestination(const std::string &path)
{
    if (path.empty())
        throw InputError("an output file name is empty");
    FileDestination destination;
    struct stat info = {};
    if (::lstat(path.c_str(), &info) != 0) {
        if (errno != ENOENT && errno != ENOTDIR)
            throw InputError(path, 0, 0, "cannot write: " + errnoText(errno));
        destination.path = path;
        checkParentIsWritable(path, path);
        return destination;
    }
    std::string target = path;
    bool namesDescriptor = false;
    if (S_ISLNK(info.st_mode)) {
        const LinkEnd end = followLinks(path);
        target = end.path;
        namesDescriptor = end.namesDescriptor;
        destination.ownDescriptor = end.ownDescriptor;
        if (::stat(path.c_str(), &info) != 0) {
            if (errno != ENOENT)
                throw InputError(path, 0, 0, "cannot write: " + errnoText(errno));
            // A dangling link: create the file it points to and keep the link.
            destination.path = target;
            checkParentIsWritable(target, path);
            return destination;
        }
    }
    if (S_ISDIR(info.st_mode))
        throw InputError(path, 0, 0, "is a folder; give a file name");
    if (!S_ISREG(info.st_mode) || namesDescriptor) {
        destination.method = FileDestination::Method::WriteThrough;
        destination.path = path;
        if (destination.ownDescriptor >= 0) {
            const int flags = ::fcntl(destination.ownDescriptor, F_GETFL);
            if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
                throw InputError(path, 0, 0, "cannot write: the descriptor is not open for writing");
        } else if (::access(path.c_str(), W_OK) != 0) {
            throw InputError(path, 0, 0, "cannot write: " + errnoText(errno));
        }
        return destination;
    }
    destination.path = target;
    destination.exists = true;
    destination.mode = info.st_mode & 07777;
    destination.owner = info.st_uid;
    destination.group = info.st_gid;
    checkParentIsWritable(target, path);
    return destination;
}

namespace {

// The model.json of a folder this program wrote, or nothing.
std::optional<Json> modelFolderMetadata(const std::string &path)
{
    std::error_code error;
    const std::string metadataPath = path + "/model.json";
    if (!fs::is_directory(path, error) || !fs::is_regular_file(metadataPath, error))
        return std::nullopt;
    try {
        Json metadata = readJsonFile(metadataPath);
        const Json *format = metadata.is_object() ? findMember(metadata, "format") : nullptr;
        if (format != nullptr && format->is_string() && format->get_ref<const std::string &>() == modelFolderFormat)
            return metadata;
    } catch (const InputError &) {
    }
    return std::nullopt;
}

// The first entry of a model folder, by name, that is not a plain file the save wrote
// (model.json or one its "files" list records): replacing the folder would delete it.
std::optional<std::string> firstEntryNotWritten(const std::string &folder, const Json &metadata)
{
    const Json *files = findMember(metadata, "files");
    std::set<std::string> names;
    std::error_code error;
    for (fs::directory_iterator entry(folder, error), end; !error && entry != end; entry.increment(error))
        names.insert(entry->path().filename().string());
    if (error)
        return "an entry that cannot be listed (" + error.message() + ")";
    for (const std::string &name : names) {
        const bool recorded = name == "model.json" || (files != nullptr && files->is_object() && files->contains(name));
        if (!recorded || !fs::is_regular_file(fs::symlink_status(folder + "/" + name, error)))
            return name;
    }
    return std::nullopt;
}

} // namespace

std::string resolveModelFolderDestination(const std::string &path)
{
    if (path.empty())
        throw InputError("the model folder name is empty");
    std::error_code error;
    fs::path folder = followLinks(withoutTrailingSlashes(path)).path;
    // "." or "proj/.." must name the folder itself, or the rename that replaces it cannot work.
    const fs::path absolute = fs::absolute(folder, error);
    if (!error)
        folder = absolute.lexically_normal();
    const std::string resolved = withoutTrailingSlashes(folder.string());
    struct stat info = {};
    if (::stat(resolved.c_str(), &info) != 0) {
        if (errno != ENOENT)
            throw InputError(path, 0, 0, "cannot write: " + errnoText(errno));
    } else if (!S_ISDIR(info.st_mode)) {
        throw InputError(path, 0, 0, "exists and is not a folder; choose another output folder or remove it");
    } else if (!isEmptyFolder(resolved)) {
        const std::optional<Json> metadata = modelFolderMetadata(resolved);
        if (!metadata)
            throw InputError(path, 0, 0,
                             "exists and is not a gpumem model folder; choose another output folder or remove it");
        // Replacing the folder replaces all of it: the user's notes or results kept beside a model would go too.
        if (const auto foreign = firstEntryNotWritten(resolved, *metadata))
            throw InputError(path, 0, 0,
                             "holds " + quoteForMessage(*foreign) +
                                 ", which gpumem did not write; move it out of the model folder or choose another "
                                 "output folder");
    }
    if (resolved == "/")
        throw InputError(path, 0, 0, "the root folder cannot be a model folder");
    checkParentIsWritable(resolved, path);
    return resolved;
}

std::string pathIdentity(const std::string &path)
{
    std::error_code error;
    const fs::path absolute = fs::absolute(followLinks(withoutTrailingSlashes(path)).path, error);
    if (error)
        return withoutTrailingSlashes(fs::path(path).lexically_normal().string());
    const fs::path canonical = fs::weakly_canonical(absolute, error);
    return withoutTrailingSlashes((error ? absolute.lexically_normal() : canonical).string());
}

} // namespace gpumem::io
