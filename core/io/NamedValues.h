// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The names a value is written and read by (an enum in files and options, an
// element size by dtype), as one list: both directions come from it, so a name
// cannot be added to one and forgotten in the other. Several names may share a
// value; nameOf gives the first one listed.

#include "io/InputError.h"

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::io {

template <typename Value> struct NamedValue
{
    std::string_view name;
    Value value;
};

template <typename Value, std::size_t count> using NamedValues = std::array<NamedValue<Value>, count>;

// The value called name, or nothing when no entry has that name.
template <typename Value, std::size_t count>
std::optional<Value> valueNamed(const NamedValues<Value, count> &names, std::string_view name)
{
    for (const auto &entry : names)
        if (entry.name == name)
            return entry.value;
    return std::nullopt;
}

// The first name of value; a value the list lacks is a programming error.
template <typename Value, std::size_t count>
std::string_view nameOf(const NamedValues<Value, count> &names, const Value &value)
{
    for (const auto &entry : names)
        if (entry.value == value)
            return entry.name;
    throw std::logic_error("a value without a name (" + std::string(names.front().name) + ", ...)");
}

// Every name, in order.
template <typename Value, std::size_t count> std::vector<std::string> namesOf(const NamedValues<Value, count> &names)
{
    std::vector<std::string> all;
    for (const auto &entry : names)
        all.emplace_back(entry.name);
    return all;
}

// "a, b, c": names in order, for messages that list the choices.
inline std::string listedNames(const std::vector<std::string> &names)
{
    std::string listed;
    for (const auto &name : names)
        listed += (listed.empty() ? "" : ", ") + name;
    return listed;
}

// "a, b, c": every name of the list in order.
template <typename Value, std::size_t count> std::string listedNames(const NamedValues<Value, count> &names)
{
    return listedNames(namesOf(names));
}

// "unknown <what> 'name' (known: <known>)": how a name no entry has is refused, also
// for lists kept in another shape (the model registry).
inline InputError unknownName(const std::string &what, std::string_view name, const std::vector<std::string> &known)
{
    return InputError("unknown " + what + " " + quoteForMessage(std::string(name)) + " (known: " + listedNames(known) +
                      ")");
}

// The value called name; throws InputError "unknown <what> 'name' (known: a, b, c)".
template <typename Value, std::size_t count>
Value parseNamed(const NamedValues<Value, count> &names, std::string_view name, const std::string &what)
{
    if (const auto value = valueNamed(names, name))
        return *value;
    throw unknownName(what, name, namesOf(names));
}

// The value called name; throws InputError(refusal(quoted)) with the name quoted
// (quoteForMessage), for a refusal worded as its option reads ("sizes takes cpu or
// gpu, not 'x'").
template <typename Value, std::size_t count, typename Refusal>
Value parseNamedOr(const NamedValues<Value, count> &names, std::string_view name, const Refusal &refusal)
{
    if (const auto value = valueNamed(names, name))
        return *value;
    throw InputError(refusal(quoteForMessage(std::string(name))));
}

} // namespace gpumem::io
