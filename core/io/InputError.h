// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gpumem::io {

// A problem with user input, located as precisely as known: file, 1-based line
// and 1-based column (0 when unknown). what() is one line, "file:line:column: message",
// ready to show: a parameter marked in the message (io::parameter) reads as its plain
// name there. markedWhat() keeps the marks, for a front-end that renders parameters
// its own way (the command line as its flags).
class InputError : public std::runtime_error
{
  public:
    InputError(std::string file, std::int64_t line, std::int64_t column, const std::string &message);
    explicit InputError(const std::string &message);

    const std::string &file() const { return mFile; }
    std::int64_t line() const { return mLine; }
    std::int64_t column() const { return mColumn; }
    const std::string &message() const { return mMessage; }
    // The message and what() with their parameters still marked: pass markedMessage()
    // on when a message is wrapped in another, so the marks survive.
    const std::string &markedMessage() const { return mMarkedMessage; }
    const std::string &markedWhat() const { return mMarkedWhat; }

  private:
    std::string mFile;
    std::int64_t mLine = 0;
    std::int64_t mColumn = 0;
    std::string mMessage;
    std::string mMarkedMessage;
    std::string mMarkedWhat;
};

// Marks name (a configuration's parameter, "seq_len") in an error message, so that
// core's messages name parameters and each front-end shows them as its user knows
// them. placeholder follows the parameter only where it is a flag that takes a value
// ("--lora RANK"); the plain form is the name alone.
std::string parameter(std::string_view name, std::string_view placeholder = {});

// Returns message with each marked parameter replaced by render(name, placeholder).
template <typename Render> std::string renderParameters(const std::string &message, const Render &render);

// Returns message with each marked parameter as its plain name.
std::string plainParameters(const std::string &message);

// Returns "file:line:column: message", leaving out a line or column of 0 and
// naming the file "input" when it is empty: the one place that spells a location.
std::string locatedMessage(const std::string &file, std::int64_t line, std::int64_t column, const std::string &message);

// Returns text cut to at most maxBytes with "…" appended, and control characters
// replaced, so that a cell quoted in an error message keeps the message on one line.
std::string quoteForMessage(const std::string &text, std::size_t maxBytes = 40);

// The bytes that mark a parameter: start, the name, an optional separator and
// placeholder, end. Control bytes, so no quoted input (quoteForMessage) can forge one.
inline constexpr char parameterStart = '\x01';
inline constexpr char parameterPlaceholder = '\x02';
inline constexpr char parameterEnd = '\x03';

template <typename Render> std::string renderParameters(const std::string &message, const Render &render)
{
    std::string rendered;
    std::size_t at = 0;
    for (std::size_t start = message.find(parameterStart); start != std::string::npos;
         start = message.find(parameterStart, at)) {
        const std::size_t end = message.find(parameterEnd, start);
        if (end == std::string::npos)
            break;
        rendered.append(message, at, start - at);
        const std::string_view marked(message.data() + start + 1, end - start - 1);
        const std::size_t separator = marked.find(parameterPlaceholder);
        rendered += render(marked.substr(0, separator),
                           separator == std::string_view::npos ? std::string_view{} : marked.substr(separator + 1));
        at = end + 1;
    }
    rendered.append(message, at, std::string::npos);
    return rendered;
}

} // namespace gpumem::io
