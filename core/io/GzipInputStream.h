// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <streambuf>
#include <string>
#include <vector>

namespace gpumem::io {

// Whether bytes begin with gzip's two magic bytes (RFC 1952: 0x1f 0x8b). No text file
// does: 0x8b is not a UTF-8 lead byte, and 0x1f is a control character.
bool isGzipMagic(const char *bytes, std::size_t size);

// Whether the stream's next bytes are gzip's magic; nothing is consumed.
bool startsWithGzip(std::istream &in);

// The size before compression that a gzip file's trailer declares (the last member's
// size modulo 2^32), or nothing when the file cannot be read or is too short. Only a
// hint, for progress: the trailer is not checked until the data has been inflated.
std::optional<std::uint64_t> gzipDeclaredSize(const std::string &path);

// The most bytes a gzip stream may inflate to, per byte of its compressed size. Real
// CSV files compress 3 to 70 times (datasets/zoo.csv.gz: 66); deflate reaches about
// 1,000, which only data made to be inflated (a decompression bomb) comes near.
constexpr std::uint64_t maxGzipInflationRatio = 256;
// What any gzip stream may inflate to, whatever its compressed size: small files
// stay readable whatever their ratio.
constexpr std::uint64_t minGzipInflationLimit = std::uint64_t(16) << 20;

// Inflates gzip data (one or more members, RFC 1952) read from another stream, in
// bounded memory, checking each member's CRC-32 and length. The inflated bytes are
// bounded too: at most maxGzipInflationRatio times the compressed size (the rest of
// a seekable stream, else the bytes read so far), and never less than
// minGzipInflationLimit. Malformed, truncated or trailing data, and data inflating
// beyond that bound, throw InputError naming sourceName; the stream sets badbit in
// its exception mask, so the error leaves read() and get() as thrown.
class GzipInputStream : public std::istream
{
  public:
    GzipInputStream(std::unique_ptr<std::istream> compressed, std::string sourceName);
    ~GzipInputStream() override;

  private:
    class Inflater;
    class Buffer : public std::streambuf
    {
      public:
        Buffer(std::unique_ptr<std::istream> compressed, std::string sourceName);
        ~Buffer() override;

      protected:
        int_type underflow() override;

      private:
        std::unique_ptr<Inflater> mInflater;
        std::vector<char> mOutput;
    };
    Buffer mBuffer;
};

} // namespace gpumem::io
