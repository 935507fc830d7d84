// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::data {

// One layer of a model in the GPUMemNet layer-sequence format, e.g. ('linear', 1173, 2753031):
// the layer type and its numeric fields (activations, parameters, …).
struct LayerTuple
{
    std::string type;
    std::vector<double> fields;
};

// A malformed layer sequence; offset is the 0-based byte position of the problem in the cell.
class LayerSequenceError : public std::runtime_error
{
  public:
    LayerSequenceError(std::size_t offset, const std::string &message)
        : std::runtime_error(message)
        , mOffset(offset)
    {
    }
    std::size_t offset() const { return mOffset; }

  private:
    std::size_t mOffset;
};

// The most layers one cell may list; longer sequences are rejected before any
// storage grows, so one cell cannot make the models allocate without bound.
constexpr std::size_t maxLayersPerSequence = 8192;
// The most numbers one layer tuple may carry after its type.
constexpr std::size_t maxFieldsPerLayer = 64;

// Parses a Python-style list of tuples, "[('linear', 1173, 2753031), ('ReLU', 1173, 0)]",
// into layers (reusing their storage). Each tuple holds a quoted layer type followed by
// at least one finite number; whitespace and trailing commas are allowed as in Python.
// Throws LayerSequenceError on anything else, and for more than maxLayersPerSequence
// layers or maxFieldsPerLayer numbers in a layer. Does not recurse and runs in time
// linear in the cell, so any input is safe.
void parseLayerSequence(std::string_view text, std::vector<LayerTuple> &layers);

// Returns true when text, after leading blanks, starts like a layer sequence ('[').
bool looksLikeLayerSequence(std::string_view text);

} // namespace gpumem::data
