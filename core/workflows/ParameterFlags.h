// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Core's messages name the parameters of a configuration ("seq_len must be at least
// 1"); `gpumem` users know them as flags ("--seq-len"). This is the one table that
// pairs them: the command line renders core's messages through it, and the
// workbench's "Copy as command" writes its flags from it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::workflows {

// One parameter a message may name, the `gpumem` flag that sets it and what it is.
struct ParameterFlag
{
    std::string_view parameter;
    std::string_view flag;
    std::string_view meaning;
};

// Every parameter core's messages name, in no particular order.
const std::vector<ParameterFlag> &parameterFlags();

// The flag of parameter, or nothing for a name the table lacks.
std::optional<std::string_view> flagOf(std::string_view parameter);

// Returns message (io::InputError::markedWhat()) with each marked parameter as its
// flag, followed by its placeholder when it has one ("--lora RANK"): the text
// `gpumem` prints. A parameter without a flag keeps its plain name.
std::string withFlags(const std::string &message);

} // namespace gpumem::workflows
