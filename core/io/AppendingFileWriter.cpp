// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/AppendingFileWriter.h"

#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/OutputPaths.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace gpumem::io {

AppendingFileWriter::AppendingFileWriter(std::string destination)
    : mDestination(std::move(destination))
{
    resolveFileDestination(mDestination); // refuses a folder or an unwritable one now, before the work
}

AppendingFileWriter::~AppendingFileWriter()
{
    if (mDescriptor >= 0)
        ::close(mDescriptor);
}

void AppendingFileWriter::append(const std::string &text)
{
    if (mThrough) {
        mThrough->stream() << text << std::flush;
        if (!mThrough->stream())
            throw InputError(mDestination, 0, 0, std::string("cannot write: ") + std::strerror(errno));
        mSize += text.size();
        return;
    }
    if (mStarted) {
        appendToFile(text);
        return;
    }
    // Resolved again now: the destination may have changed during the work before the first line.
    const FileDestination target = resolveFileDestination(mDestination);
    if (target.method == FileDestination::Method::WriteThrough) {
        mThrough = std::make_unique<AtomicFileWriter>(mDestination);
        append(text);
        return;
    }
    writeFileAtomically(mDestination, text);
    // The file just renamed into place (a symlink's target, not the link), kept open for the next lines.
    mDescriptor = ::open(target.path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (mDescriptor < 0)
        throw InputError(mDestination, 0, 0, std::string("cannot open to append: ") + std::strerror(errno));
    mStarted = true;
    mSize = text.size();
}

void AppendingFileWriter::appendToFile(const std::string &text)
{
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t count = ::write(mDescriptor, text.data() + written, text.size() - written);
        if (count < 0 && errno == EINTR)
            continue;
        if (count <= 0) {
            const int error = count < 0 ? errno : ENOSPC;
            // Cut back to the last whole line, so that a reader never meets half of this one.
            const bool cutBack = ::ftruncate(mDescriptor, static_cast<off_t>(mSize)) == 0;
            throw InputError(mDestination, 0, 0,
                             std::string("cannot write (disk full?): ") + std::strerror(error) +
                                 (cutBack ? "" : "; the file ends in an unfinished line"));
        }
        written += static_cast<std::size_t>(count);
    }
    mSize += text.size();
}

void AppendingFileWriter::finish()
{
    if (mThrough)
        mThrough->commit();
}

} // namespace gpumem::io
