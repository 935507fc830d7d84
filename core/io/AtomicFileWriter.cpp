// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/AtomicFileWriter.h"

#include "io/DescriptorBuffer.h"
#include "io/InputError.h"
#include "io/TemporaryPaths.h"
#include "io/TemporarySiblings.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace gpumem::io {

namespace {

void syncFolderOf(const std::string &path)
{
    // The rename itself must reach the disk, or a crash may bring back the old name.
    std::string folder = std::filesystem::path(path).parent_path().string();
    const int descriptor = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (descriptor < 0)
        return;
    ::fsync(descriptor);
    ::close(descriptor);
}

} // namespace

AtomicFileWriter::AtomicFileWriter(std::string destination)
    : mDestination(std::move(destination))
    , mTarget(resolveFileDestination(mDestination))
{
    int descriptor = -1;
    if (mTarget.method == FileDestination::Method::WriteThrough) {
        // A duplicate shares the descriptor's position, so a report sent to a redirected
        // /dev/stdout lands where the program's own output continues.
        descriptor = mTarget.ownDescriptor >= 0
                         ? ::fcntl(mTarget.ownDescriptor, F_DUPFD_CLOEXEC, 0)
                         : ::open(mTarget.path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
    } else {
        // A save of this target that was killed (SIGKILL runs no handler) left its temporary file behind.
        removeStaleTemporarySiblings(mTarget.path);
        TemporaryFile created = createTemporaryFileBeside(mTarget.path);
        descriptor = created.descriptor;
        mTemporaryPath = std::move(created.path);
        mRegistration = std::move(created.registration);
    }
    if (descriptor < 0) {
        const int error = errno;
        mRegistration.reset();
        mTemporaryPath.clear();
        throw InputError(mDestination, 0, 0, std::string("cannot write: ") + std::strerror(error));
    }
    if (mTarget.exists) {
        // The replacement takes the place of the user's file, so it keeps its permissions
        // (and, where allowed, its owner) instead of the defaults of a new file.
        struct stat created = {};
        if (::fstat(descriptor, &created) == 0 && (created.st_uid != mTarget.owner || created.st_gid != mTarget.group))
            (void)::fchown(descriptor, mTarget.owner, mTarget.group);
        (void)::fchmod(descriptor, mTarget.mode);
    }
    // A constructor that throws runs no destructor: the temporary file goes here.
    try {
        mBuffer = std::make_unique<DescriptorBuffer>(descriptor);
        mStream = std::make_unique<std::ostream>(mBuffer.get());
    } catch (...) {
        if (!mBuffer)
            ::close(descriptor);
        discardTemporaryFile();
        throw;
    }
}

AtomicFileWriter::~AtomicFileWriter()
{
    if (!mCommitted)
        discardTemporaryFile();
}

void AtomicFileWriter::discardTemporaryFile()
{
    if (mBuffer)
        mBuffer->close(false);
    if (!mTemporaryPath.empty())
        ::unlink(mTemporaryPath.c_str());
    mTemporaryPath.clear();
    if (mRegistration)
        mRegistration->release();
}

void AtomicFileWriter::commit()
{
    mStream->flush();
    const bool streamWritten = static_cast<bool>(*mStream);
    const bool replacing = mTarget.method == FileDestination::Method::Replace;
    // Sync before the rename so that a crash cannot leave the new name pointing at empty data.
    const bool closed = mBuffer->close(replacing);
    if (!streamWritten || !closed) {
        const int error = mBuffer->error();
        discardTemporaryFile();
        throw InputError(mDestination, 0, 0, describeWriteError(error));
    }
    if (replacing) {
        if (std::rename(mTemporaryPath.c_str(), mTarget.path.c_str()) != 0) {
            const int error = errno;
            discardTemporaryFile();
            throw InputError(mDestination, 0, 0, std::string("cannot replace: ") + std::strerror(error));
        }
        mRegistration->release();
        syncFolderOf(mTarget.path);
    }
    mCommitted = true;
}

void writeFileAtomically(const std::string &path, const std::string &content)
{
    AtomicFileWriter writer(path);
    writer.stream() << content;
    writer.commit();
}

} // namespace gpumem::io
