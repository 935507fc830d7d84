// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/GruLayer.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <stdexcept>

namespace gpumem::models {

namespace {

// Why a recurrence of our own: LibTorch's CPU GRU runs a dozen small operators per
// step and its autograd graph replays them backwards, each a separate node; at the
// sizes of a job's token sequence (9 steps, hidden 32) that overhead, not the
// arithmetic, was a quarter of a training step. Here a step is one matrix product
// for the hidden-to-hidden gates and a few plain loops for everything elementwise
// (with LibTorch's vectorised sigmoid and tanh forward), and the recurrent weights'
// gradient is one product over all steps at the end.

struct Sizes
{
    std::int64_t batch;
    std::int64_t steps;
    std::int64_t hidden;
};

// Per step and row, what the backward needs: reset, update, new gate and the new
// gate's hidden part (W_hn·h + b_hn), each `hidden` wide.
constexpr std::int64_t savedPerUnit = 4;

// Runs body(begin, end) over row ranges on LibTorch's kernel threads.
template <typename Body> void forRows(const Sizes &sizes, Body body)
{
    const std::int64_t grain = std::max<std::int64_t>(1, 4096 / sizes.hidden);
    at::parallel_for(0, sizes.batch, grain, body);
}

class FusedGruFunction : public torch::autograd::Function<FusedGruFunction>
{
  public:
    // inputGates: [batch, steps, 3·hidden], the input's part of the gates (W_i·x + b_i).
    static torch::Tensor forward(torch::autograd::AutogradContext *context, const torch::Tensor &inputGates,
                                 const torch::Tensor &hiddenWeight, const torch::Tensor &hiddenBias)
    {
        const Sizes sizes{inputGates.size(0), inputGates.size(1), hiddenWeight.size(1)};
        const std::int64_t h = sizes.hidden;
        auto output = torch::empty({sizes.batch, sizes.steps, h}, inputGates.options());
        auto saved = torch::empty({sizes.steps, sizes.batch, savedPerUnit * h}, inputGates.options());
        const auto hiddenWeightT = hiddenWeight.t();
        auto previous = torch::zeros({sizes.batch, h}, inputGates.options());
        const float *gatesIn = inputGates.data_ptr<float>();
        float *out = output.data_ptr<float>();
        for (std::int64_t step = 0; step < sizes.steps; ++step) {
            const auto hiddenGates = torch::addmm(hiddenBias, previous, hiddenWeightT).contiguous(); // [batch, 3·h]
            const float *gatesHidden = hiddenGates.data_ptr<float>();
            const float *before = previous.data_ptr<float>();
            const std::int64_t beforeStride = previous.stride(0);
            const auto record = saved[step]; // [batch, 4·h]: reset, update, new gate, new gate's hidden part
            float *records = record.data_ptr<float>();
            // The gates' sums go into the record first and through LibTorch's vectorised
            // sigmoid and tanh there: a scalar exp per unit would cost more than the rest.
            forRows(sizes, [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t row = begin; row < end; ++row) {
                    const float *in = gatesIn + (row * sizes.steps + step) * 3 * h;
                    const float *hid = gatesHidden + row * 3 * h;
                    float *gates = records + row * savedPerUnit * h;
                    for (std::int64_t unit = 0; unit < 2 * h; ++unit)
                        gates[unit] = in[unit] + hid[unit];
                    for (std::int64_t unit = 0; unit < h; ++unit)
                        gates[3 * h + unit] = hid[2 * h + unit];
                }
            });
            record.narrow(1, 0, 2 * h).sigmoid_();
            forRows(sizes, [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t row = begin; row < end; ++row) {
                    const float *in = gatesIn + (row * sizes.steps + step) * 3 * h + 2 * h;
                    float *gates = records + row * savedPerUnit * h;
                    for (std::int64_t unit = 0; unit < h; ++unit)
                        gates[2 * h + unit] = in[unit] + gates[unit] * gates[3 * h + unit];
                }
            });
            record.narrow(1, 2 * h, h).tanh_();
            forRows(sizes, [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t row = begin; row < end; ++row) {
                    const float *gates = records + row * savedPerUnit * h;
                    const float *last = before + row * beforeStride;
                    float *now = out + (row * sizes.steps + step) * h;
                    for (std::int64_t unit = 0; unit < h; ++unit)
                        now[unit] = gates[2 * h + unit] + gates[h + unit] * (last[unit] - gates[2 * h + unit]);
                }
            });
            previous = output.select(1, step); // [batch, h], rows steps·h apart
        }
        context->save_for_backward({output, saved, hiddenWeight});
        return output;
    }

    static torch::autograd::tensor_list backward(torch::autograd::AutogradContext *context,
                                                 torch::autograd::tensor_list outputGradients)
    {
        const auto variables = context->get_saved_variables();
        const auto &output = variables[0];
        const auto &saved = variables[1];
        const auto &hiddenWeight = variables[2];
        const Sizes sizes{output.size(0), output.size(1), output.size(2)};
        const std::int64_t h = sizes.hidden;
        const auto outputGradient = outputGradients[0].contiguous();
        auto inputGatesGradient = torch::empty({sizes.batch, sizes.steps, 3 * h}, output.options());
        auto hiddenGatesGradient = torch::empty({sizes.steps, sizes.batch, 3 * h}, output.options());
        auto carried = torch::zeros({sizes.batch, h}, output.options()); // dL/dh flowing back from later steps
        auto direct = torch::empty({sizes.batch, h}, output.options());  // its part through the update gate
        const float *out = output.data_ptr<float>();
        const float *keep = saved.data_ptr<float>();
        const float *outGradient = outputGradient.data_ptr<float>();
        float *inGates = inputGatesGradient.data_ptr<float>();
        float *hidGates = hiddenGatesGradient.data_ptr<float>();
        float *directData = direct.data_ptr<float>();
        for (std::int64_t step = sizes.steps - 1; step >= 0; --step) {
            const float *later = carried.data_ptr<float>();
            forRows(sizes, [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t row = begin; row < end; ++row) {
                    const float *record = keep + (step * sizes.batch + row) * savedPerUnit * h;
                    const float *last = step > 0 ? out + (row * sizes.steps + step - 1) * h : nullptr;
                    const float *gradientHere = outGradient + (row * sizes.steps + step) * h;
                    float *in = inGates + (row * sizes.steps + step) * 3 * h;
                    float *hid = hidGates + (step * sizes.batch + row) * 3 * h;
                    for (std::int64_t unit = 0; unit < h; ++unit) {
                        const float reset = record[unit];
                        const float update = record[h + unit];
                        const float candidate = record[2 * h + unit];
                        const float hiddenNew = record[3 * h + unit];
                        const float state = gradientHere[unit] + later[row * h + unit];
                        const float before = last ? last[unit] : 0.0f;
                        const float candidateGate = state * (1.0f - update) * (1.0f - candidate * candidate);
                        const float updateGate = state * (before - candidate) * update * (1.0f - update);
                        const float resetGate = candidateGate * hiddenNew * reset * (1.0f - reset);
                        in[unit] = resetGate;
                        in[h + unit] = updateGate;
                        in[2 * h + unit] = candidateGate;
                        hid[unit] = resetGate;
                        hid[h + unit] = updateGate;
                        hid[2 * h + unit] = candidateGate * reset;
                        directData[row * h + unit] = state * update;
                    }
                }
            });
            carried = torch::addmm(direct, hiddenGatesGradient[step], hiddenWeight); // [batch, h]
        }
        // Every step's hidden-to-hidden product shares one weight: its gradient is one
        // product over all steps, with the state each step started from.
        const auto started = torch::cat({torch::zeros({1, sizes.batch, h}, output.options()),
                                         output.narrow(1, 0, sizes.steps - 1).transpose(0, 1)},
                                        0)
                                 .reshape({sizes.steps * sizes.batch, h});
        const auto flatGradient = hiddenGatesGradient.view({sizes.steps * sizes.batch, 3 * h});
        return {inputGatesGradient, flatGradient.t().mm(started), flatGradient.sum(0)};
    }
};

} // namespace

torch::Tensor fusedCpuGru(torch::nn::GRUImpl &gru, const torch::Tensor &input)
{
    const auto &options = gru.options;
    if (!input.device().is_cpu() || input.scalar_type() != torch::kFloat32)
        throw std::invalid_argument("the fused GRU runs on float32 CPU tensors only");
    if (options.num_layers() != 1 || options.bidirectional() || !options.batch_first() || !options.bias() ||
        input.dim() != 3 || input.size(2) != options.input_size() || input.size(1) == 0)
        throw std::invalid_argument("the fused GRU needs one unidirectional batch-first layer with biases and a "
                                    "non-empty [batch, steps, features] input");
    const auto weights = gru.all_weights(); // weight_ih, weight_hh, bias_ih, bias_hh
    const auto inputGates = torch::linear(input, weights[0], weights[2]).contiguous();
    return FusedGruFunction::apply(inputGates, weights[1], weights[3]);
}

torch::Tensor runGruLayer(torch::nn::GRUImpl &gru, const torch::Tensor &input)
{
    if (input.device().is_cpu() && input.scalar_type() == torch::kFloat32 && input.size(1) > 0)
        return fusedCpuGru(gru, input);
    return std::get<0>(gru.forward(input));
}

} // namespace gpumem::models
