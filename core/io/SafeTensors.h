// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpumem::io {

// Tensors stored in the safetensors layout, the data-only format model weights
// are shared in: an 8-byte little-endian header length, a JSON header naming each
// tensor's dtype, shape and byte range, then the raw little-endian buffers.
// Reading it runs no code and allocates no more than the file's own size.

// One tensor of a safetensors file: its name, dtype ("F32", "I64", ...), shape and
// byte range [begin, end) within the data section.
struct TensorRecord
{
    std::string name;
    std::string dtype;
    std::vector<std::int64_t> shape;
    std::uint64_t begin = 0;
    std::uint64_t end = 0;

    // The number of elements, the product of the shape (1 for a scalar).
    std::int64_t elementCount() const;
};

// A tensor to write: name, dtype, shape and a pointer to its elementCount ×
// dtype-size bytes in this machine's (little-endian) order.
struct TensorView
{
    std::string name;
    std::string dtype;
    std::vector<std::int64_t> shape;
    const void *data = nullptr;
};

// The most a safetensors header may hold, and the most dimensions a tensor may have.
constexpr std::uint64_t maxSafeTensorsHeaderBytes = 16ull << 20;
constexpr std::size_t maxTensorRank = 8;

// The bytes per element of a safetensors dtype name, or 0 when the name is not one.
std::size_t dtypeSize(const std::string &dtype);

// A parsed safetensors file: its tensors in header order, its "__metadata__"
// strings, and the bytes of each tensor.
class SafeTensorsFile
{
  public:
    // Parses and checks bytes, the whole file: header length within the file and
    // the header cap, the header a JSON object without duplicate names, every
    // dtype known, every shape's size matching its byte range, and the ranges
    // tiling the data section without gaps or overlaps. Errors throw io::InputError
    // naming sourceName (with line and column inside the header for JSON errors).
    static SafeTensorsFile parse(std::string bytes, const std::string &sourceName);

    const std::vector<TensorRecord> &tensors() const { return mTensors; }
    const std::map<std::string, std::string> &metadata() const { return mMetadata; }
    // The tensor called name, or nullptr.
    const TensorRecord *find(const std::string &name) const;
    // The first byte of tensor's data (record must come from tensors()).
    const char *data(const TensorRecord &tensor) const { return mBytes.data() + mDataStart + tensor.begin; }

  private:
    std::string mBytes;
    std::size_t mDataStart = 0;
    std::vector<TensorRecord> mTensors;
    std::map<std::string, std::string> mMetadata;
};

// Returns the safetensors file holding tensors (names must be unique) and metadata.
// Throws std::invalid_argument for an unknown dtype, a negative dimension or a repeated name.
std::string serializeSafeTensors(const std::vector<TensorView> &tensors,
                                 const std::map<std::string, std::string> &metadata = {});

} // namespace gpumem::io
