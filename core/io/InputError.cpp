// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/InputError.h"

namespace gpumem::io {

namespace {

// A path as it can be printed on one line: a newline, carriage return or tab as its
// C escape, any other control byte as '?'. Error printers keep the first line of a
// message, and a path holding a newline would otherwise cut it short.
std::string printablePath(const std::string &path)
{
    std::string printable;
    for (const char c : path) {
        if (c == '\n')
            printable += "\\n";
        else if (c == '\r')
            printable += "\\r";
        else if (c == '\t')
            printable += "\\t";
        else
            printable += (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) ? '?' : c;
    }
    return printable;
}

} // namespace

std::string locatedMessage(const std::string &file, std::int64_t line, std::int64_t column, const std::string &message)
{
    std::string text = file.empty() ? std::string("input") : printablePath(file);
    if (line > 0)
        text += ':' + std::to_string(line);
    if (line > 0 && column > 0)
        text += ':' + std::to_string(column);
    return text + ": " + message;
}

std::string parameter(std::string_view name, std::string_view placeholder)
{
    std::string marked(1, parameterStart);
    marked += name;
    if (!placeholder.empty())
        (marked += parameterPlaceholder) += placeholder;
    return marked + parameterEnd;
}

std::string plainParameters(const std::string &message)
{
    return renderParameters(message, [](std::string_view name, std::string_view) { return std::string(name); });
}

InputError::InputError(std::string file, std::int64_t line, std::int64_t column, const std::string &message)
    : std::runtime_error(locatedMessage(file, line, column, plainParameters(message)))
    , mFile(std::move(file))
    , mLine(line)
    , mColumn(column)
    , mMessage(plainParameters(message))
    , mMarkedMessage(message)
    , mMarkedWhat(locatedMessage(mFile, mLine, mColumn, message))
{
}

InputError::InputError(const std::string &message)
    : std::runtime_error(plainParameters(message))
    , mMessage(plainParameters(message))
    , mMarkedMessage(message)
    , mMarkedWhat(message)
{
}

std::string quoteForMessage(const std::string &text, std::size_t maxBytes)
{
    std::string quoted = "'";
    std::size_t count = 0;
    for (char c : text) {
        if (count == maxBytes) {
            // Step back to a UTF-8 boundary so the cut never splits a character.
            while (!quoted.empty() && (static_cast<unsigned char>(quoted.back()) & 0xC0) == 0x80)
                quoted.pop_back();
            if (!quoted.empty() && static_cast<unsigned char>(quoted.back()) >= 0xC0)
                quoted.pop_back();
            quoted += "…";
            break;
        }
        const auto byte = static_cast<unsigned char>(c);
        quoted += (byte < 0x20 || byte == 0x7F) ? '?' : c;
        ++count;
    }
    return quoted + "'";
}

} // namespace gpumem::io
