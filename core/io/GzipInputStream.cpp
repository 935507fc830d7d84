// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/GzipInputStream.h"

#include "io/InputError.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <limits>

namespace gpumem::io {

namespace {

constexpr std::size_t kChunkBytes = std::size_t(256) << 10;
// zlib's window bits for gzip framing only (a header and a CRC-32 trailer, no zlib or raw data).
constexpr int kGzipWindowBits = 15 + 16;

} // namespace

bool isGzipMagic(const char *bytes, std::size_t size)
{
    return size >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b;
}

bool startsWithGzip(std::istream &in)
{
    const std::istream::pos_type start = in.tellg();
    std::array<char, 2> magic{};
    in.read(magic.data(), magic.size());
    const bool gzip = isGzipMagic(magic.data(), static_cast<std::size_t>(in.gcount()));
    in.clear();
    in.seekg(start);
    return gzip;
}

std::optional<std::uint64_t> gzipDeclaredSize(const std::string &path)
{
    // The smallest member: a 10-byte header, an empty deflate block and the 8-byte trailer.
    constexpr std::streamoff smallestMember = 20;
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file || file.tellg() < smallestMember)
        return std::nullopt;
    std::array<unsigned char, 4> size{};
    file.seekg(-4, std::ios::end);
    file.read(reinterpret_cast<char *>(size.data()), size.size());
    if (file.gcount() != 4)
        return std::nullopt;
    return std::uint64_t{size[0]} | std::uint64_t{size[1]} << 8 | std::uint64_t{size[2]} << 16 |
           std::uint64_t{size[3]} << 24;
}

// zlib's inflate over the compressed stream, one member after another.
class GzipInputStream::Inflater
{
  public:
    Inflater(std::unique_ptr<std::istream> compressed, std::string sourceName)
        : mCompressed(std::move(compressed))
        , mSource(std::move(sourceName))
        , mInput(kChunkBytes)
        , mCompressedSize(remainingBytes(*mCompressed))
    {
        if (inflateInit2(&mStream, kGzipWindowBits) != Z_OK)
            throw InputError(mSource, 0, 0, "cannot start inflating the gzip data (out of memory)");
    }
    ~Inflater() { inflateEnd(&mStream); }
    Inflater(const Inflater &) = delete;
    Inflater &operator=(const Inflater &) = delete;

    // Inflates up to size bytes into out; returns how many, 0 once every member is read.
    std::size_t read(char *out, std::size_t size)
    {
        mStream.next_out = reinterpret_cast<Bytef *>(out);
        mStream.avail_out = static_cast<uInt>(std::min<std::size_t>(size, std::numeric_limits<uInt>::max()));
        const uInt room = mStream.avail_out;
        while (mStream.avail_out == room) {
            if (mStream.avail_in == 0 && !refill()) {
                if (mBetweenMembers)
                    return 0;
                fail("the gzip data ends early: the file is truncated");
            }
            if (mBetweenMembers) {
                // More bytes after a whole member: gzip allows another member to follow.
                inflateReset(&mStream);
                mBetweenMembers = false;
            }
            const int status = inflate(&mStream, Z_NO_FLUSH);
            if (status == Z_STREAM_END)
                mBetweenMembers = true;
            else if (status != Z_OK && status != Z_BUF_ERROR)
                fail(std::string("corrupt gzip data") +
                     (mStream.msg != nullptr ? std::string(" (") + mStream.msg + ")" : std::string()));
        }
        const std::size_t produced = room - mStream.avail_out;
        mInflated += produced;
        checkInflatedSize();
        return produced;
    }

  private:
    // The bytes from the stream's position to its end, or nothing when it cannot seek (a pipe).
    static std::optional<std::uint64_t> remainingBytes(std::istream &in)
    {
        const std::istream::pos_type start = in.tellg();
        if (start == std::istream::pos_type(-1))
            return std::nullopt;
        in.seekg(0, std::ios::end);
        const std::istream::pos_type end = in.tellg();
        in.clear();
        in.seekg(start);
        if (end == std::istream::pos_type(-1) || end < start)
            return std::nullopt;
        return static_cast<std::uint64_t>(end - start);
    }

    // Refuses data that inflates far beyond what text compresses to, before the
    // table loader stores a cell of it: memory grows with the inflated rows, not the file.
    void checkInflatedSize() const
    {
        const std::uint64_t compressed = mCompressedSize.value_or(mConsumedBefore + mLastRead);
        const std::uint64_t limit = compressed > std::numeric_limits<std::uint64_t>::max() / maxGzipInflationRatio
                                        ? std::numeric_limits<std::uint64_t>::max()
                                        : std::max(minGzipInflationLimit, compressed * maxGzipInflationRatio);
        if (mInflated > limit)
            throw InputError(mSource, 0, 0,
                             "the gzip data inflates to more than " + std::to_string(maxGzipInflationRatio) +
                                 " times its " + std::to_string(compressed) +
                                 " compressed bytes (a decompression bomb?); gunzip it to read it as plain CSV");
    }

    bool refill()
    {
        mCompressed->read(reinterpret_cast<char *>(mInput.data()), static_cast<std::streamsize>(mInput.size()));
        const auto count = static_cast<std::size_t>(mCompressed->gcount());
        if (count == 0) {
            if (mCompressed->bad())
                fail("cannot read the compressed file");
            return false;
        }
        mConsumedBefore += mLastRead; // the previous chunk, now wholly inflated (0 before the first)
        mLastRead = count;
        mStream.next_in = mInput.data();
        mStream.avail_in = static_cast<uInt>(count);
        return true;
    }

    [[noreturn]] void fail(const std::string &message) const
    {
        const std::uint64_t offset = mConsumedBefore + (mLastRead - mStream.avail_in);
        throw InputError(mSource, 0, 0, message + " at byte " + std::to_string(offset) + " of the compressed file");
    }

    std::unique_ptr<std::istream> mCompressed;
    std::string mSource;
    std::vector<unsigned char> mInput;
    z_stream mStream{};
    std::uint64_t mConsumedBefore = 0;            // compressed bytes of the chunks before the current one
    std::size_t mLastRead = 0;                    // bytes of the current chunk
    bool mBetweenMembers = false;                 // a member has ended and no other has begun
    std::optional<std::uint64_t> mCompressedSize; // of the whole stream, when it can seek
    std::uint64_t mInflated = 0;                  // bytes handed out so far
};

GzipInputStream::Buffer::Buffer(std::unique_ptr<std::istream> compressed, std::string sourceName)
    : mInflater(std::make_unique<Inflater>(std::move(compressed), std::move(sourceName)))
    , mOutput(kChunkBytes)
{
}

GzipInputStream::Buffer::~Buffer() = default;

GzipInputStream::Buffer::int_type GzipInputStream::Buffer::underflow()
{
    if (gptr() < egptr())
        return traits_type::to_int_type(*gptr());
    const std::size_t count = mInflater->read(mOutput.data(), mOutput.size());
    if (count == 0)
        return traits_type::eof();
    setg(mOutput.data(), mOutput.data(), mOutput.data() + count);
    return traits_type::to_int_type(*gptr());
}

GzipInputStream::GzipInputStream(std::unique_ptr<std::istream> compressed, std::string sourceName)
    : std::istream(nullptr)
    , mBuffer(std::move(compressed), std::move(sourceName))
{
    rdbuf(&mBuffer);
    // An InputError from inflating leaves read() as thrown instead of as a silent badbit.
    exceptions(std::ios::badbit);
}

GzipInputStream::~GzipInputStream() = default;

} // namespace gpumem::io
