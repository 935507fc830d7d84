// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/ArgumentParser.h"

#include "cli/TextTable.h"
#include "io/InputError.h"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <stdexcept>

namespace gpumem::cli {

void ParsedArguments::requireDeclared(const std::string &option) const
{
    // A lookup of an undeclared name would always answer "not given", hiding the typo.
    if (!declares(option))
        throw std::logic_error("the command asks for option --" + option + ", which it never declared");
}

bool ParsedArguments::has(const std::string &option) const
{
    requireDeclared(option);
    return mValues.count(option) != 0;
}

std::string ParsedArguments::value(const std::string &option, const std::string &fallback) const
{
    requireDeclared(option);
    const auto it = mValues.find(option);
    return it == mValues.end() || it->second.empty() ? fallback : it->second.back();
}

std::vector<std::string> ParsedArguments::list(const std::string &option) const
{
    requireDeclared(option);
    std::vector<std::string> items;
    const auto it = mValues.find(option);
    if (it == mValues.end())
        return items;
    for (const auto &value : it->second) {
        std::string item;
        std::istringstream stream(value);
        while (std::getline(stream, item, ','))
            if (!item.empty())
                items.push_back(item);
    }
    return items;
}

std::uint64_t parseWholeNumber(const std::string &text, const std::string &option, bool positive)
{
    std::uint64_t value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size() || (positive && value == 0))
        throw io::InputError(option +
                             (positive ? " takes a positive whole number, not " : " takes a whole number, not ") +
                             io::quoteForMessage(text));
    return value;
}

double parseFraction(const std::string &text, const std::string &option)
{
    double value = 0.0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size() || !(value >= 0.0) ||
        value >= 1.0)
        throw io::InputError(option + " takes a number in [0, 1), not " + io::quoteForMessage(text));
    return value;
}

ArgumentParser::ArgumentParser(std::string usage, std::string summary)
    : mUsage(std::move(usage))
    , mSummary(std::move(summary))
{
}

ArgumentParser &ArgumentParser::positional(const std::string &name, const std::string &help)
{
    mPositionals.push_back({name, {}, help, false});
    return *this;
}

ArgumentParser &ArgumentParser::optionalPositional(const std::string &name, const std::string &help)
{
    mPositionals.push_back({"[" + name + "]", {}, help, false, true});
    return *this;
}

ArgumentParser &ArgumentParser::option(const std::string &name, const std::string &valueName, const std::string &help)
{
    mOptions.push_back({name, valueName, help, false});
    return *this;
}

ArgumentParser &ArgumentParser::flag(const std::string &name, const std::string &help)
{
    mOptions.push_back({name, {}, help, true});
    return *this;
}

const ArgumentParser::Argument *ArgumentParser::findOption(const std::string &name) const
{
    for (const auto &option : mOptions)
        if (option.name == name)
            return &option;
    return nullptr;
}

ParsedArguments ArgumentParser::parse(const std::vector<std::string> &arguments) const
{
    ParsedArguments parsed;
    for (const auto &option : mOptions)
        parsed.mDeclared.insert(option.name);
    const std::string seeHelp = " (see '" + mUsage.substr(0, mUsage.find(" [")) + " --help')";
    bool optionsEnded = false;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string &argument = arguments[i];
        if (!optionsEnded && (argument == "--help" || argument == "-h")) {
            parsed.mHelpRequested = true;
            return parsed;
        }
        if (!optionsEnded && argument == "--") {
            optionsEnded = true;
            continue;
        }
        if (optionsEnded || argument.size() < 2 || argument[0] != '-') {
            parsed.mPositionals.push_back(argument);
            continue;
        }
        const std::size_t equals = argument.find('=');
        const std::string name = argument.substr(argument.rfind('-', 1) + 1, equals - (argument.rfind('-', 1) + 1));
        const Argument *option = argument.rfind("--", 0) == 0 ? findOption(name) : nullptr;
        if (!option)
            throw io::InputError("unknown option " + io::quoteForMessage(argument) + seeHelp);
        if (option->isFlag) {
            if (equals != std::string::npos)
                throw io::InputError("option --" + name + " takes no value" + seeHelp);
            parsed.mValues[name].push_back("true");
            continue;
        }
        if (equals != std::string::npos) {
            parsed.mValues[name].push_back(argument.substr(equals + 1));
        } else if (i + 1 < arguments.size()) {
            parsed.mValues[name].push_back(arguments[++i]);
        } else {
            throw io::InputError("option --" + name + " needs a value (" + option->valueName + ")" + seeHelp);
        }
    }
    const auto required = static_cast<std::size_t>(std::count_if(
        mPositionals.begin(), mPositionals.end(), [](const Argument &argument) { return !argument.isOptional; }));
    if (parsed.mPositionals.size() < required)
        throw io::InputError("missing argument " + mPositionals[parsed.mPositionals.size()].name + seeHelp);
    if (parsed.mPositionals.size() > mPositionals.size())
        throw io::InputError("unexpected argument " + io::quoteForMessage(parsed.mPositionals[mPositionals.size()]) +
                             seeHelp);
    return parsed;
}

std::string ArgumentParser::helpText() const
{
    std::ostringstream text;
    text << "Usage: " << mUsage << "\n\n" << mSummary << "\n";
    if (!mPositionals.empty()) {
        text << "\nArguments:\n";
        TextTable table({"", ""});
        for (const auto &argument : mPositionals)
            table.addRow({"  " + argument.name, argument.help});
        table.print(text, false);
    }
    text << "\nOptions:\n";
    TextTable table({"", ""});
    for (const auto &option : mOptions)
        table.addRow({"  --" + option.name + (option.isFlag ? "" : " " + option.valueName), option.help});
    table.addRow({"  -h, --help", "show this help and exit"});
    table.print(text, false);
    return text.str();
}

} // namespace gpumem::cli
