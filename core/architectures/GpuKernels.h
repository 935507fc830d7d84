// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/types.h>

#include <cstdint>

// The operations whose CUDA kernels allocate otherwise than their composite
// definitions would: each is an autograd function that allocates, forward and
// backward, the tensors the CUDA kernel allocates, with their shapes and dtypes.
// They run on PyTorch's meta device, where nothing is computed: the values of
// their outputs are undefined, and only their allocations matter
// (docs/estimate.md, "Language models").
namespace gpumem::architectures::kernels {

// Which kernel scaled_dot_product_attention runs on a GPU for these inputs.
enum class AttentionKernel
{
    Flash,           // half precision: FlashAttention 2, grouped key/value heads natively
    MemoryEfficient, // float32 with as many key/value heads as query heads
    Math,            // float32 with grouped heads (enable_gqa): the composite definition
};

// The kernel for query and key tensors of [batch, heads, tokens, head_dim]: flash
// in half precision, else memory-efficient unless the key/value heads are grouped,
// which only flash and the math path take.
AttentionKernel attentionKernel(const torch::Tensor &query, const torch::Tensor &key);

// torch.nn.functional.scaled_dot_product_attention(query, key, value, is_causal=causal,
// enable_gqa=True) as the GPU runs it: query [batch, heads, queries, head_dim], key and
// value [batch, key_value_heads, keys, head_dim]; returns [batch, heads, queries, head_dim],
// a view of the [batch, queries, heads, head_dim] block the fused kernels write.
torch::Tensor scaledDotProductAttention(const torch::Tensor &query, const torch::Tensor &key,
                                        const torch::Tensor &value, bool causal);

// CUDA's native_dropout of a module in training mode (with or without gradients, as
// a checkpointed layer's first forward runs): the output and a mask of one byte per
// element, the mask saved for backward. Identity for probability 0.
torch::Tensor dropout(const torch::Tensor &input, double probability);

// CUDA's native_layer_norm over the last dimension: the output, and a float32 mean
// and reciprocal deviation per row saved for backward.
torch::Tensor layerNorm(const torch::Tensor &input, const torch::Tensor &weight, const torch::Tensor &bias);

// An embedding lookup, weight [vocabulary, features] and int64 ids; its backward
// allocates as CUDA's embedding_dense_backward does: the dense gradient, and the
// sorted ids, their positions, the segment offsets and one partial gradient row per
// segment (as many segments as ids, the most there can be).
torch::Tensor embedding(const torch::Tensor &weight, const torch::Tensor &ids);

// What a mixture-of-experts layer gives one expert (transformers' Mixtral and Qwen2Moe
// blocks): torch.where over the expert's routing mask (the token rows and their slots,
// an int64 [tokens, 2] kept while they are used), the hidden states of those tokens and
// their routing weights, both gathered by index. Backward scatters each into zeros of
// the whole input, as indexing's backward does. Routing depends on values, which the
// meta device has none of: the expert gets `tokens` of them.
struct RoutedTokens
{
    torch::Tensor hidden;  // [tokens, hidden]
    torch::Tensor weights; // [tokens, 1]
};
RoutedTokens routedTokens(const torch::Tensor &hidden, const torch::Tensor &weights, std::int64_t tokens);

// final.index_add_(0, rows, source) in place: no allocation forward; backward gives
// source's gradient by index_select, a new [rows, hidden].
torch::Tensor indexAddInPlace(torch::Tensor &target, const torch::Tensor &source);

// Bytes of n elements rounded up to a multiple of m elements (the kernels' padding).
std::int64_t roundUp(std::int64_t n, std::int64_t m);

} // namespace gpumem::architectures::kernels
