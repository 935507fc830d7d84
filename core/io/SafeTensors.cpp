// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/SafeTensors.h"

#include "io/InputError.h"
#include "io/Json.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "safetensors buffers are little-endian; this build copies them as they are"
#endif

namespace gpumem::io {

namespace {

constexpr const char *metadataKey = "__metadata__";

std::uint64_t readLittleEndian64(const std::string &bytes)
{
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i)
        value = (value << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
    return value;
}

std::uint64_t wholeNumber(const Json &value, const std::string &what)
{
    if (!value.is_number_unsigned())
        throw InputError(what + " must be a non-negative whole number");
    return value.get<std::uint64_t>();
}

TensorRecord readRecord(const std::string &name, const Json &entry)
{
    const std::string where = "tensor '" + name + "'";
    if (!entry.is_object())
        throw InputError(where + " must be an object with dtype, shape and data_offsets");
    for (const auto &[key, value] : entry.items())
        if (key != "dtype" && key != "shape" && key != "data_offsets")
            throw InputError(where + " has an unknown member '" + key + "'");
    if (!entry.contains("dtype") || !entry["dtype"].is_string() || dtypeSize(entry["dtype"].get<std::string>()) == 0)
        throw InputError(where + " has no known dtype (F64, F32, F16, BF16, I64, I32, I16, I8, U8, BOOL)");
    TensorRecord record;
    record.name = name;
    record.dtype = entry["dtype"].get<std::string>();

    if (!entry.contains("shape") || !entry["shape"].is_array() || entry["shape"].size() > maxTensorRank)
        throw InputError(where + " needs a shape of at most " + std::to_string(maxTensorRank) + " dimensions");
    for (const auto &dimension : entry["shape"]) {
        const std::uint64_t size = wholeNumber(dimension, where + "'s dimensions");
        if (size > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw InputError(where + " has a dimension too large");
        record.shape.push_back(static_cast<std::int64_t>(size));
    }

    const Json *offsets = entry.contains("data_offsets") ? &entry["data_offsets"] : nullptr;
    if (!offsets || !offsets->is_array() || offsets->size() != 2)
        throw InputError(where + " needs \"data_offsets\": [begin, end]");
    record.begin = wholeNumber((*offsets)[0], where + "'s data_offsets");
    record.end = wholeNumber((*offsets)[1], where + "'s data_offsets");
    if (record.end < record.begin)
        throw InputError(where + " ends before it begins");

    // The shape's byte size, with every product checked so that no overflow can make a huge shape look small.
    std::uint64_t bytes = dtypeSize(record.dtype);
    for (const std::int64_t dimension : record.shape) {
        const auto size = static_cast<std::uint64_t>(dimension);
        if (size != 0 && bytes > std::numeric_limits<std::uint64_t>::max() / size)
            throw InputError(where + " has a shape too large to hold");
        bytes *= size;
    }
    if (bytes != record.end - record.begin)
        throw InputError(where + " holds " + std::to_string(record.end - record.begin) +
                         " bytes, but its dtype and shape need " + std::to_string(bytes));
    return record;
}

} // namespace

std::int64_t TensorRecord::elementCount() const
{
    std::int64_t count = 1;
    for (const std::int64_t dimension : shape)
        count *= dimension;
    return count;
}

std::size_t dtypeSize(const std::string &dtype)
{
    static const std::map<std::string, std::size_t> sizes = {
        {"F64", 8}, {"F32", 4}, {"F16", 2},  {"BF16", 2}, {"I64", 8}, {"I32", 4}, {"I16", 2},
        {"I8", 1},  {"U8", 1},  {"BOOL", 1}, {"U16", 2},  {"U32", 4}, {"U64", 8}};
    const auto found = sizes.find(dtype);
    return found == sizes.end() ? 0 : found->second;
}

const TensorRecord *SafeTensorsFile::find(const std::string &name) const
{
    for (const TensorRecord &tensor : mTensors)
        if (tensor.name == name)
            return &tensor;
    return nullptr;
}

SafeTensorsFile SafeTensorsFile::parse(std::string bytes, const std::string &sourceName)
{
    if (bytes.size() < 8)
        throw InputError(sourceName, 0, 0, "too short for a safetensors file (no header length)");
    const std::uint64_t headerSize = readLittleEndian64(bytes);
    if (headerSize > maxSafeTensorsHeaderBytes)
        throw InputError(sourceName, 0, 0,
                         "the safetensors header claims " + std::to_string(headerSize) +
                             " bytes, more than the limit of " + std::to_string(maxSafeTensorsHeaderBytes));
    if (headerSize > bytes.size() - 8)
        throw InputError(sourceName, 0, 0,
                         "the safetensors header claims " + std::to_string(headerSize) +
                             " bytes, but the file holds only " + std::to_string(bytes.size() - 8) +
                             " after the length");
    const std::string headerText = bytes.substr(8, static_cast<std::size_t>(headerSize));

    Json header;
    try {
        // The one JSON reader also refuses a name given twice: a later "w" must not silently replace an earlier one.
        header = parseJson(headerText, sourceName);
    } catch (const InputError &error) {
        throw InputError(sourceName, error.line(), error.column(), "safetensors header: " + error.markedMessage());
    }
    if (!header.is_object())
        throw InputError(sourceName, 0, 0, "the safetensors header must be a JSON object");

    SafeTensorsFile file;
    try {
        for (const auto &[name, entry] : header.items()) {
            if (name == metadataKey) {
                if (!entry.is_object())
                    throw InputError("\"__metadata__\" must be an object of strings");
                for (const auto &[key, value] : entry.items()) {
                    if (!value.is_string())
                        throw InputError("\"__metadata__\" must be an object of strings");
                    file.mMetadata.emplace(key, value.get<std::string>());
                }
                continue;
            }
            file.mTensors.push_back(readRecord(name, entry));
        }
    } catch (const InputError &error) {
        throw InputError(sourceName, 0, 0, error.markedMessage());
    }

    // The byte ranges must tile the data section exactly: no byte unaccounted for, none shared.
    std::vector<const TensorRecord *> byOffset;
    for (const TensorRecord &tensor : file.mTensors)
        byOffset.push_back(&tensor);
    std::sort(byOffset.begin(), byOffset.end(), [](const TensorRecord *a, const TensorRecord *b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    std::uint64_t covered = 0;
    for (const TensorRecord *tensor : byOffset) {
        if (tensor->begin != covered)
            throw InputError(sourceName, 0, 0,
                             "tensor '" + tensor->name + "' " +
                                 (tensor->begin < covered ? "overlaps another" : "leaves a gap before it"));
        covered = tensor->end;
    }
    const std::uint64_t dataSize = bytes.size() - 8 - headerSize;
    if (covered != dataSize)
        throw InputError(sourceName, 0, 0,
                         "the tensors cover " + std::to_string(covered) + " bytes, but the data section holds " +
                             std::to_string(dataSize));
    file.mDataStart = static_cast<std::size_t>(8 + headerSize);
    file.mBytes = std::move(bytes);
    return file;
}

std::string serializeSafeTensors(const std::vector<TensorView> &tensors,
                                 const std::map<std::string, std::string> &metadata)
{
    Json header = Json::object();
    if (!metadata.empty())
        header[metadataKey] = metadata;
    std::uint64_t offset = 0;
    std::vector<std::uint64_t> sizes;
    for (const TensorView &tensor : tensors) {
        const std::size_t elementSize = dtypeSize(tensor.dtype);
        if (elementSize == 0)
            throw std::invalid_argument("unknown safetensors dtype '" + tensor.dtype + "'");
        if (tensor.name == metadataKey || header.contains(tensor.name))
            throw std::invalid_argument("repeated or reserved tensor name '" + tensor.name + "'");
        std::uint64_t bytes = elementSize;
        for (const std::int64_t dimension : tensor.shape) {
            if (dimension < 0)
                throw std::invalid_argument("negative dimension in tensor '" + tensor.name + "'");
            bytes *= static_cast<std::uint64_t>(dimension);
        }
        header[tensor.name] = {
            {"dtype", tensor.dtype}, {"shape", tensor.shape}, {"data_offsets", {offset, offset + bytes}}};
        sizes.push_back(bytes);
        offset += bytes;
    }
    std::string headerText = header.dump();
    // Padding with spaces to a multiple of 8 keeps every buffer aligned for readers that map the file.
    headerText.append((8 - (headerText.size() % 8)) % 8, ' ');

    std::string file;
    file.reserve(8 + headerText.size() + static_cast<std::size_t>(offset));
    std::uint64_t headerSize = headerText.size();
    for (int i = 0; i < 8; ++i)
        file.push_back(static_cast<char>((headerSize >> (8 * i)) & 0xff));
    file += headerText;
    for (std::size_t i = 0; i < tensors.size(); ++i)
        file.append(static_cast<const char *>(tensors[i].data), static_cast<std::size_t>(sizes[i]));
    return file;
}

} // namespace gpumem::io
