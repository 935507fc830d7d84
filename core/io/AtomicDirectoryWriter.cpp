// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/AtomicDirectoryWriter.h"

#include "io/DescriptorBuffer.h"
#include "io/InputError.h"
#include "io/OutputPaths.h"
#include "io/TemporaryPaths.h"
#include "io/TemporarySiblings.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace gpumem::io {

namespace fs = std::filesystem;

namespace {

// Returns 0, or the errno of a failed fsync: some file systems report a full disk only here.
int syncPath(const std::string &path, int flags)
{
    const int descriptor = ::open(path.c_str(), flags | O_CLOEXEC);
    if (descriptor < 0)
        return 0;
    const int error = ::fsync(descriptor) == 0 || errno == EINVAL || errno == EROFS ? 0 : errno;
    ::close(descriptor);
    return error;
}

} // namespace

AtomicDirectoryWriter::AtomicDirectoryWriter(std::string destination)
    : mDestination(std::move(destination))
{
    const std::string target = resolveModelFolderDestination(mDestination);
    // A save of this target that was killed (SIGKILL runs no handler) left its temporary folder behind.
    removeStaleTemporarySiblings(target);
    int created = -1;
    for (int attempt = 0; attempt < 16 && created != 0; ++attempt) {
        mTemporaryPath = temporarySiblingPath(target, ".tmp-");
        // Registered before it exists, so that no signal can fall between creating and remembering it.
        mRegistration = std::make_unique<TemporaryPath>(mTemporaryPath, TemporaryPath::Kind::Folder);
        // mkdir fails on any existing name, a link included: the folder written into is always a new one.
        created = ::mkdir(mTemporaryPath.c_str(), 0777);
        if (created != 0 && errno != EEXIST)
            break;
    }
    if (created != 0) {
        const int error = errno;
        mRegistration.reset();
        mTemporaryPath.clear();
        throw InputError(mDestination, 0, 0, std::string("cannot create a folder beside it: ") + std::strerror(error));
    }
}

AtomicDirectoryWriter::~AtomicDirectoryWriter()
{
    if (!mCommitted)
        discardTemporaryFolder();
}

std::string AtomicDirectoryWriter::filePath(const std::string &name) const
{
    const std::string path = mTemporaryPath + '/' + name;
    if (std::find(mFileNames.begin(), mFileNames.end(), name) == mFileNames.end()) {
        mFileNames.push_back(name);
        mFileRegistrations.push_back(std::make_unique<TemporaryPath>(path, TemporaryPath::Kind::File));
    }
    return path;
}

void AtomicDirectoryWriter::discardTemporaryFolder()
{
    std::error_code ignored;
    if (!mTemporaryPath.empty())
        fs::remove_all(mTemporaryPath, ignored);
    mFileRegistrations.clear();
    mRegistration.reset();
}

void AtomicDirectoryWriter::commit()
{
    // Every file, also those a library wrote under path() without filePath().
    int syncError = 0;
    std::error_code listError;
    for (fs::directory_iterator entry(mTemporaryPath, listError), end; !listError && entry != end && syncError == 0;
         entry.increment(listError))
        if (entry->is_regular_file(listError))
            syncError = syncPath(entry->path().string(), O_RDONLY);
    if (syncError == 0)
        syncError = syncPath(mTemporaryPath, O_RDONLY | O_DIRECTORY);
    if (syncError != 0) {
        discardTemporaryFolder();
        throw InputError(mDestination, 0, 0, describeWriteError(syncError));
    }

    // Training may have taken minutes: the destination is checked again right before it is replaced.
    std::string target;
    try {
        target = resolveModelFolderDestination(mDestination);
    } catch (const InputError &) {
        discardTemporaryFolder();
        throw;
    }
    std::error_code error;
    // rename() replaces a missing or empty folder in one step, but cannot replace a
    // non-empty one: that one moves aside first, and back again if the new one cannot
    // take its place. A signal in between puts it back too (TemporaryPath::Kind::MovedAsideFolder).
    std::string previous;
    std::unique_ptr<TemporaryPath> movedAside;
    if (fs::exists(target, error) && !fs::is_empty(target, error)) {
        previous = temporarySiblingPath(target, ".old-");
        movedAside = std::make_unique<TemporaryPath>(previous, TemporaryPath::Kind::MovedAsideFolder, target);
        if (::rename(target.c_str(), previous.c_str()) != 0) {
            const int renameError = errno;
            discardTemporaryFolder();
            throw InputError(mDestination, 0, 0, std::string("cannot replace: ") + std::strerror(renameError));
        }
    }
    if (::rename(mTemporaryPath.c_str(), target.c_str()) != 0) {
        const int renameError = errno;
        if (!previous.empty())
            ::rename(previous.c_str(), target.c_str());
        movedAside.reset();
        discardTemporaryFolder();
        throw InputError(mDestination, 0, 0, std::string("cannot write: ") + std::strerror(renameError));
    }
    mCommitted = true;
    mFileRegistrations.clear();
    mRegistration.reset();
    if (!previous.empty())
        fs::remove_all(previous, error);
    movedAside.reset();
    syncPath(fs::path(target).parent_path().string(), O_RDONLY | O_DIRECTORY);
}

} // namespace gpumem::io
