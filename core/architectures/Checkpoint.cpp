// SPDX-License-Identifier: GPL-3.0-or-later
#include "architectures/Checkpoint.h"

#include <torch/torch.h>

namespace gpumem::architectures {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;
using Layer = std::function<torch::Tensor(const torch::Tensor &)>;

struct ReentrantCheckpoint : torch::autograd::Function<ReentrantCheckpoint>
{
    static torch::Tensor forward(AutogradContext *context, const Layer *layer, const torch::Tensor &input)
    {
        // The layer is kept by address: saved_data holds only IValues.
        context->saved_data["layer"] = reinterpret_cast<std::int64_t>(layer);
        context->save_for_backward({input});
        const torch::NoGradGuard noGradients;
        return (*layer)(input);
    }

    static variable_list backward(AutogradContext *context, variable_list gradients)
    {
        const auto *layer = reinterpret_cast<const Layer *>(context->saved_data["layer"].toInt());
        const torch::Tensor input = context->get_saved_variables()[0];
        torch::Tensor detached = input.detach().requires_grad_(true);
        {
            const torch::AutoGradMode withGradients(true);
            const torch::Tensor output = (*layer)(detached);
            torch::autograd::backward({output}, {gradients[0]});
        }
        gradients.clear();
        return {torch::Tensor(), detached.grad()};
    }
};

} // namespace

torch::Tensor checkpointed(const Layer &layer, const torch::Tensor &input)
{
    return ReentrantCheckpoint::apply(&layer, input);
}

} // namespace gpumem::architectures
