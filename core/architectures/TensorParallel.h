// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architectures/ArchitectureConfig.h"

#include <cstdint>

namespace gpumem::architectures {

// Megatron-LM's padding of the vocabulary (make_vocab_size_divisible_by): to a multiple
// of this times the tensor-parallel size, so that every GPU holds an equal slice.
inline constexpr std::int64_t vocabularyPaddingMultiple = 128;

// The share of config one GPU of parallel tensor-parallel GPUs holds, as a model of its
// own: Megatron's column-parallel query, key, value, gate and up projections and
// row-parallel output and down projections split the attention heads and the MLP's
// (and every expert's) intermediate columns; the embedding and output projection are
// vocabulary-parallel over the padded vocabulary; norms, the router and the residual
// stream stay whole. Key/value heads fewer than the GPUs are replicated, one per GPU
// (as vLLM does), when parallel is a multiple of them. config itself for parallel 1.
// Throws io::InputError naming tensor_parallel for a family other than Llama's (GPT-2
// and BERT size attention by hidden_size) or sizes it does not divide.
ArchitectureConfig tensorParallelShare(const ArchitectureConfig &config, std::int64_t parallel);

} // namespace gpumem::architectures
