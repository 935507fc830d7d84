// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/MatrixProductRecorder.h"

#include "estimate/OperatorCalls.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <stdexcept>

namespace gpumem::estimate {

namespace {

// What cuBLAS computes on a GPU; matmul, linear and einsum reach one of these.
constexpr const char *kProducts[] = {
    "aten::mm",    "aten::addmm", "aten::bmm",  "aten::baddbmm", "aten::addbmm",           "aten::mv",
    "aten::addmv", "aten::dot",   "aten::vdot", "aten::addr",    "aten::_addmm_activation"};
// Operators that cuDNN runs whole on a GPU, while their CPU kernels may multiply
// matrices inside (slow_conv2d's columns, a recurrent layer's gates).
constexpr const char *kWholeOnGpu[] = {"aten::conv1d",      "aten::conv2d",       "aten::conv3d",
                                       "aten::convolution", "aten::_convolution", "aten::convolution_backward",
                                       "aten::lstm",        "aten::gru",          "aten::rnn_tanh",
                                       "aten::rnn_relu"};

template <std::size_t N> bool isOneOf(const char *name, const char *const (&names)[N])
{
    return std::any_of(std::begin(names), std::end(names),
                       [name](const char *candidate) { return std::strcmp(candidate, name) == 0; });
}

struct ThreadState
{
    bool active = false;
    int insideWholeOperator = 0;
    bool ranProduct = false;
};
thread_local ThreadState tState;

void enterCall(const at::RecordFunction &call)
{
    if (!tState.active)
        return;
    if (isOneOf(call.name(), kWholeOnGpu))
        ++tState.insideWholeOperator;
    else if (tState.insideWholeOperator == 0 && isOneOf(call.name(), kProducts))
        tState.ranProduct = true;
}

void leaveCall(const at::RecordFunction &call)
{
    if (tState.active && isOneOf(call.name(), kWholeOnGpu))
        --tState.insideWholeOperator;
}

} // namespace

MatrixProductRecorder::MatrixProductRecorder()
{
    if (tState.active)
        throw std::logic_error("one MatrixProductRecorder per thread at a time");
    tState = {true, 0, false};
    mHandle = observeOperatorCalls<&enterCall, &leaveCall>(false);
}

MatrixProductRecorder::~MatrixProductRecorder()
{
    at::removeCallback(mHandle);
    tState = {};
}

bool MatrixProductRecorder::ranMatrixProduct() const
{
    return tState.ranProduct;
}

} // namespace gpumem::estimate
