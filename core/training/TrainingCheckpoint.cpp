// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/TrainingCheckpoint.h"

#include <map>
#include <sstream>
#include <stdexcept>
#include <type_traits>

namespace gpumem::training {

namespace {

using StateKey = std::decay_t<decltype(std::declval<torch::optim::Optimizer &>().state())>::key_type;

// LibTorch keys an optimizer's state by the address of the parameter's tensor implementation:
// written out as text in 1.x, the pointer itself in 2.x.
template <typename Key> Key keyOfAddress(void *address)
{
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream text;
        text << address;
        return text.str();
    } else {
        return address;
    }
}

StateKey stateKey(const torch::Tensor &parameter)
{
    return keyOfAddress<StateKey>(parameter.unsafeGetTensorImpl());
}

template <typename State>
void capture(const State &state, const std::string &name, std::vector<std::pair<std::string, torch::Tensor>> &out)
{
    // Copies on the device: a checkpoint is taken every improving epoch, and only a save needs it on the host.
    out.emplace_back(name + ".exp_avg", state.exp_avg().detach().clone());
    out.emplace_back(name + ".exp_avg_sq", state.exp_avg_sq().detach().clone());
    out.emplace_back(name + ".step", torch::tensor(static_cast<std::int64_t>(state.step()), torch::kInt64));
}

template <typename State>
std::unique_ptr<State> restored(const std::map<std::string, torch::Tensor> &byName, const std::string &name,
                                const torch::Tensor &parameter)
{
    const auto field = [&](const char *suffix) -> torch::Tensor {
        const auto it = byName.find(name + "." + suffix);
        if (it == byName.end())
            throw std::invalid_argument("the optimizer state lacks " + name + "." + suffix);
        return it->second;
    };
    const torch::Tensor steps = field("step");
    const torch::Tensor average = field("exp_avg");
    const torch::Tensor squares = field("exp_avg_sq");
    if (average.sizes() != parameter.sizes() || squares.sizes() != parameter.sizes())
        throw std::invalid_argument("the optimizer state of " + name + " does not have the parameter's shape");
    auto state = std::make_unique<State>();
    state->step(steps.item<std::int64_t>());
    state->exp_avg(average.to(parameter.device(), parameter.scalar_type()).clone());
    state->exp_avg_sq(squares.to(parameter.device(), parameter.scalar_type()).clone());
    return state;
}

} // namespace

const std::vector<OptimizerStateField> &optimizerStateFields(const std::string &)
{
    // Adam and AdamW keep the same fields (amsgrad, which would add max_exp_avg_sq, is not used).
    static const std::vector<OptimizerStateField> fields{
        {"exp_avg", "F32", true}, {"exp_avg_sq", "F32", true}, {"step", "I64", false}};
    return fields;
}

std::vector<std::pair<std::string, torch::Tensor>> captureOptimizerState(torch::optim::Optimizer &optimizer,
                                                                         const torch::nn::Module &model)
{
    std::vector<std::pair<std::string, torch::Tensor>> captured;
    const auto &states = optimizer.state();
    for (const auto &item : model.named_parameters()) {
        const auto it = states.find(stateKey(item.value()));
        if (it == states.end())
            continue; // a parameter that has not taken a step yet
        if (const auto *adamW = dynamic_cast<const torch::optim::AdamWParamState *>(it->second.get()))
            capture(*adamW, item.key(), captured);
        else if (const auto *adam = dynamic_cast<const torch::optim::AdamParamState *>(it->second.get()))
            capture(*adam, item.key(), captured);
        else
            throw std::invalid_argument("only Adam and AdamW state can be saved");
    }
    return captured;
}

void restoreOptimizerState(torch::optim::Optimizer &optimizer, const torch::nn::Module &model,
                           const std::vector<std::pair<std::string, torch::Tensor>> &state)
{
    const std::map<std::string, torch::Tensor> byName(state.begin(), state.end());
    const bool adamW = dynamic_cast<torch::optim::AdamW *>(&optimizer) != nullptr;
    auto &states = optimizer.state();
    for (const auto &item : model.named_parameters()) {
        if (!byName.count(item.key() + ".step"))
            continue;
        if (adamW)
            states[stateKey(item.value())] = restored<torch::optim::AdamWParamState>(byName, item.key(), item.value());
        else
            states[stateKey(item.value())] = restored<torch::optim::AdamParamState>(byName, item.key(), item.value());
    }
}

} // namespace gpumem::training
