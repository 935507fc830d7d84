// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Captures the error a piece of code raises, for tests that check its message and position.

#include "io/InputError.h"

#include <string>

namespace gpumem::tests {

// Returns the io::InputError that action raises; when it raises none, an error
// saying "no error was raised", which no test expects.
template <typename Action> io::InputError raisedInputError(const Action &action)
{
    try {
        action();
    } catch (const io::InputError &error) {
        return error;
    }
    return io::InputError("no error was raised");
}

// The message of the io::InputError that action raises, or "" when it raises none:
// for tests that only ask whether the input was refused, and on one line.
template <typename Action> std::string raisedMessage(const Action &action)
{
    try {
        action();
    } catch (const io::InputError &error) {
        return error.what();
    }
    return {};
}

} // namespace gpumem::tests
