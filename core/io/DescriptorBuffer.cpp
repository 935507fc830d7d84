// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/DescriptorBuffer.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace gpumem::io {

DescriptorBuffer::DescriptorBuffer(int descriptor)
    : mDescriptor(descriptor)
    , mBuffer(1 << 16)
{
    setp(mBuffer.data(), mBuffer.data() + mBuffer.size());
}

DescriptorBuffer::~DescriptorBuffer()
{
    if (mDescriptor >= 0)
        ::close(mDescriptor);
}

bool DescriptorBuffer::writeBuffered()
{
    const char *next = pbase();
    const char *end = pptr();
    while (mError == 0 && next < end) {
        const ssize_t written = ::write(mDescriptor, next, static_cast<std::size_t>(end - next));
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            mError = written < 0 ? errno : EIO;
        else
            next += written;
    }
    setp(mBuffer.data(), mBuffer.data() + mBuffer.size());
    return mError == 0;
}

DescriptorBuffer::int_type DescriptorBuffer::overflow(int_type character)
{
    if (mDescriptor < 0 || !writeBuffered())
        return traits_type::eof();
    if (!traits_type::eq_int_type(character, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(character);
        pbump(1);
    }
    return traits_type::not_eof(character);
}

int DescriptorBuffer::sync()
{
    return mDescriptor >= 0 && writeBuffered() ? 0 : -1;
}

bool DescriptorBuffer::close(bool syncToDisk)
{
    if (mDescriptor < 0)
        return mError == 0;
    writeBuffered();
    // Some file systems only report a full disk when the data reaches it.
    if (syncToDisk && mError == 0 && ::fsync(mDescriptor) != 0 && errno != EINVAL && errno != EROFS)
        mError = errno;
    if (::close(mDescriptor) != 0 && mError == 0 && errno != EINTR)
        mError = errno;
    mDescriptor = -1;
    return mError == 0;
}

std::string describeWriteError(int error)
{
    if (error == ENOSPC || error == EFBIG || error == EDQUOT)
        return std::string("cannot write (disk full?): ") + std::strerror(error);
    return std::string("cannot write: ") + (error != 0 ? std::strerror(error) : "the output failed");
}

} // namespace gpumem::io
