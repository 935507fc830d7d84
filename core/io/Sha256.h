// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpumem::io {

// Computes SHA-256 (FIPS 180-4) over bytes fed in any number of pieces, so that
// a model folder can record a digest of each file it holds and detect a flipped
// bit or a swapped file on load. Not thread-safe; one instance per digest.
class Sha256
{
  public:
    Sha256();

    // Feeds the next bytes of the message.
    void update(const void *data, std::size_t size);
    void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }

    // Returns the digest as 64 lowercase hexadecimal digits; the instance is spent afterwards.
    std::string hexDigest();

  private:
    void compressBlock(const std::uint8_t *block);

    std::array<std::uint32_t, 8> mState;
    std::array<std::uint8_t, 64> mBuffer{};
    std::size_t mBuffered = 0;
    std::uint64_t mTotalBytes = 0;
};

// Returns the SHA-256 of bytes as lowercase hexadecimal digits.
std::string sha256Hex(std::string_view bytes);

// Returns the SHA-256 of the regular file at path, read in pieces so that a large
// file is never held whole. Throws io::InputError naming path when it is not a
// regular file (a FIFO is refused at once, never waited on) or cannot be read.
std::string sha256File(const std::string &path);

} // namespace gpumem::io
