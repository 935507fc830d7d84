// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <exception>
#include <ostream>
#include <string>

namespace gpumem::cli {

// Returns the first meaningful line of an error text: the first line that is
// neither blank nor part of a stack trace ("Exception raised from …", "frame #…",
// "Stack trace:", "[bt] …"), trimmed, with XGBoost's "[hh:mm:ss] " time stamps
// removed. Returns "" when no line is left.
std::string firstMeaningfulLine(const std::string &text);

// What `gpumem` prints about an exception: one line, and the full text that
// --verbose adds after it (for a LibTorch error, its C++ backtrace).
struct ErrorDescription
{
    std::string line;
    std::string detail;
};

// Describes error: a c10::Error by its message without the backtrace, an
// io::InputError with its parameters as their flags (workflows::withFlags), any
// other exception by what(); the detail is that text in full.
ErrorDescription describeError(const std::exception &error);

// Writes the one line "gpumem COMMAND: …" about error on err: an io::InputError
// as it is, a LibTorch error as "LibTorch: …", anything else as "internal error: …".
// With verbose, the full detail follows when it says more than the line.
void printError(std::ostream &err, const std::string &command, const std::exception &error, bool verbose);

} // namespace gpumem::cli
