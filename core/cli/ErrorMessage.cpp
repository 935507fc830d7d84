// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/ErrorMessage.h"

#include "io/InputError.h"
#include "workflows/ParameterFlags.h"

#include <c10/util/Exception.h>

#include <cctype>
#include <sstream>

namespace gpumem::cli {

namespace {

bool startsWith(const std::string &text, const char *prefix)
{
    return text.rfind(prefix, 0) == 0;
}

std::string trimmed(const std::string &text)
{
    const std::size_t begin = text.find_first_not_of(" \t\r");
    if (begin == std::string::npos)
        return {};
    const std::size_t end = text.find_last_not_of(" \t\r");
    return text.substr(begin, end - begin + 1);
}

bool isTimeStamp(const std::string &text, std::size_t at)
{
    // "[hh:mm:ss] ", as XGBoost's log prefixes every message.
    static const char pattern[] = "[dd:dd:dd] ";
    if (text.size() - at < sizeof pattern - 1)
        return false;
    for (std::size_t i = 0; i + 1 < sizeof pattern; ++i) {
        const char expected = pattern[i];
        const auto character = static_cast<unsigned char>(text[at + i]);
        if (expected == 'd' ? !std::isdigit(character) : character != static_cast<unsigned char>(expected))
            return false;
    }
    return true;
}

std::string withoutTimeStamps(std::string line)
{
    for (std::size_t at = line.find('['); at != std::string::npos; at = line.find('[', at)) {
        if (isTimeStamp(line, at))
            line.erase(at, 11);
        else
            ++at;
    }
    return line;
}

bool isTraceLine(const std::string &line)
{
    return startsWith(line, "Exception raised from") || startsWith(line, "frame #") ||
           startsWith(line, "Stack trace:") || startsWith(line, "[bt]");
}

} // namespace

std::string firstMeaningfulLine(const std::string &text)
{
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        line = trimmed(line);
        if (line.empty() || isTraceLine(line))
            continue;
        return trimmed(withoutTimeStamps(line));
    }
    return {};
}

ErrorDescription describeError(const std::exception &error)
{
    ErrorDescription description;
    description.detail = error.what();
    // LibTorch appends a C++ backtrace of 20 to 40 frames to what(); its message alone says what went wrong.
    if (const auto *torchError = dynamic_cast<const c10::Error *>(&error))
        description.line = firstMeaningfulLine(torchError->what_without_backtrace());
    // Core names parameters; on the command line they are the flags the user typed.
    if (const auto *inputError = dynamic_cast<const io::InputError *>(&error)) {
        description.detail = workflows::withFlags(inputError->markedWhat());
        description.line = firstMeaningfulLine(description.detail);
    }
    if (description.line.empty())
        description.line = firstMeaningfulLine(description.detail);
    if (description.line.empty())
        description.line = "failed without a message";
    return description;
}

void printError(std::ostream &err, const std::string &command, const std::exception &error, bool verbose)
{
    const ErrorDescription description = describeError(error);
    // LibTorch refusing a tensor operation is nearly always a consequence of the input or
    // hyperparameters, so it is not called internal.
    const char *kind = dynamic_cast<const io::InputError *>(&error) ? ""
                       : dynamic_cast<const c10::Error *>(&error)   ? "LibTorch: "
                                                                    : "internal error: ";
    err << "gpumem " << command << ": " << kind << description.line << '\n';
    if (verbose && description.detail != description.line) {
        err << description.detail;
        if (description.detail.empty() || description.detail.back() != '\n')
            err << '\n';
    }
}

} // namespace gpumem::cli
