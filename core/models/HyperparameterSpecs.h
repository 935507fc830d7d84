// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/Hyperparameters.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpumem::models {

// Short builders for hyperparameter descriptions, so that each model's list reads as a table.

// Describes a whole-number hyperparameter with its inclusive range.
inline HyperparameterSpec integerSpec(const char *name, std::int64_t value, double minimum, double maximum,
                                      const char *unit, const char *help)
{
    return {name, HyperparameterType::Integer, value, minimum, maximum, {}, unit, help};
}

// Describes a real-valued hyperparameter with its inclusive range.
inline HyperparameterSpec realSpec(const char *name, double value, double minimum, double maximum, const char *unit,
                                   const char *help)
{
    return {name, HyperparameterType::Real, value, minimum, maximum, {}, unit, help};
}

// Describes an on/off hyperparameter.
inline HyperparameterSpec booleanSpec(const char *name, bool value, const char *help)
{
    return {name, HyperparameterType::Boolean, value, 0, 1, {}, "", help};
}

// Describes a hyperparameter that takes one of a few named values.
inline HyperparameterSpec choiceSpec(const char *name, const char *value, std::vector<std::string> choices,
                                     const char *help)
{
    return {name, HyperparameterType::Choice, std::string(value), 0, 0, std::move(choices), "", help};
}

} // namespace gpumem::models
