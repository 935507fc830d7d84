// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpumem::io {

// A problem with user input, located as precisely as known: file, 1-based line
// and 1-based column (0 when unknown). what() is one line, "file:line:column: message",
// ready to print on stderr.
class InputError : public std::runtime_error
{
  public:
    InputError(std::string file, std::int64_t line, std::int64_t column, const std::string &message);
    explicit InputError(const std::string &message);

    const std::string &file() const { return mFile; }
    std::int64_t line() const { return mLine; }
    std::int64_t column() const { return mColumn; }
    const std::string &message() const { return mMessage; }

  private:
    std::string mFile;
    std::int64_t mLine = 0;
    std::int64_t mColumn = 0;
    std::string mMessage;
};

// Returns "file:line:column: message", leaving out a line or column of 0 and
// naming the file "input" when it is empty: the one place that spells a location.
std::string locatedMessage(const std::string &file, std::int64_t line, std::int64_t column, const std::string &message);

// Returns text cut to at most maxBytes with "…" appended, and control characters
// replaced, so that a cell quoted in an error message keeps the message on one line.
std::string quoteForMessage(const std::string &text, std::size_t maxBytes = 40);

} // namespace gpumem::io
