#include "io/AtomicFileWriter.h"

#include "io/InputError.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <unistd.h>

namespace gpumem::io {

namespace {

std::string temporaryPathFor(const std::string &destination)
{
    // A random suffix keeps two writers of the same destination from sharing a temporary file.
    std::random_device device;
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(device()));
    return destination + ".tmp-" + suffix;
}

void syncFile(const std::string &path)
{
    const int descriptor = ::open(path.c_str(), O_RDONLY);
    if (descriptor < 0)
        return;
    ::fsync(descriptor);
    ::close(descriptor);
}

} // namespace

AtomicFileWriter::AtomicFileWriter(std::string destination)
    : mDestination(std::move(destination))
    , mTemporaryPath(temporaryPathFor(mDestination))
{
    mStream.open(mTemporaryPath, std::ios::binary | std::ios::trunc);
    if (!mStream)
        throw InputError(mDestination, 0, 0, std::string("cannot write: ") + std::strerror(errno));
}

AtomicFileWriter::~AtomicFileWriter()
{
    if (!mCommitted) {
        mStream.close();
        std::remove(mTemporaryPath.c_str());
    }
}

void AtomicFileWriter::commit()
{
    mStream.flush();
    const bool written = static_cast<bool>(mStream);
    mStream.close();
    if (!written || mStream.fail())
        throw InputError(mDestination, 0, 0, "cannot write (disk full?)");
    // Sync before the rename so that a crash cannot leave the new name pointing at empty data.
    syncFile(mTemporaryPath);
    if (std::rename(mTemporaryPath.c_str(), mDestination.c_str()) != 0)
        throw InputError(mDestination, 0, 0, std::string("cannot replace: ") + std::strerror(errno));
    mCommitted = true;
}

void writeFileAtomically(const std::string &path, const std::string &content)
{
    AtomicFileWriter writer(path);
    writer.stream() << content;
    writer.commit();
}

} // namespace gpumem::io
