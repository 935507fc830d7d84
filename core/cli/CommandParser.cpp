// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/CommandParser.h"

#include "cli/TextTable.h"
#include "io/InputError.h"
#include "io/NumberText.h"
#include "workflows/ParameterFlags.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace gpumem::cli {

namespace {

bool readDouble(const std::string &text, double &value)
{
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    return !text.empty() && result.ec == std::errc() && result.ptr == text.data() + text.size();
}

std::size_t editDistance(const std::string &a, const std::string &b)
{
    std::vector<std::size_t> previous(b.size() + 1);
    std::vector<std::size_t> current(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(previous, current);
    }
    return previous[b.size()];
}

// A validator that lets edit check (and rewrite) an option's text; an InputError
// it throws becomes CLI11's message for the option.
CLI::Validator reportingInputErrors(std::function<void(std::string &)> edit, const std::string &name)
{
    return CLI::Validator(
        [edit](std::string &text) -> std::string {
            try {
                edit(text);
            } catch (const io::InputError &error) {
                return workflows::withFlags(error.markedMessage());
            }
            return {};
        },
        "", name);
}

} // namespace

CommandParser::CommandParser(std::string command, std::string usage, std::string summary)
    : mCommand(std::move(command))
    , mUsage(std::move(usage))
    , mSummary(std::move(summary))
    , mApp(mSummary, mCommand)
{
    // Unknown options are collected and refused with a suggestion (refuseLeftovers)
    // instead of CLI11's list of "arguments not expected".
    mApp.allow_extras();
    mApp.set_help_flag("-h,--help", "show this help and exit");
    mApp.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

bool CommandParser::parse(const std::vector<std::string> &arguments, std::ostream &out)
{
    std::vector<std::string> reversed(arguments.rbegin(), arguments.rend()); // the order CLI11 consumes
    try {
        mApp.parse(reversed);
    } catch (const CLI::CallForHelp &) {
        out << helpText();
        return false;
    } catch (const CLI::ParseError &error) {
        refuse(error);
    }
    refuseLeftovers();
    return true;
}

void CommandParser::refuse(const CLI::ParseError &error) const
{
    const std::string seeHelp = " (see '" + mCommand + " --help')";
    const std::string what = error.what();
    const CLI::Option *named = nullptr;
    for (const CLI::Option *option : mApp.get_options())
        if (what.rfind(option->get_name() + ":", 0) == 0)
            named = option;
    if (dynamic_cast<const CLI::RequiredError *>(&error)) {
        for (const CLI::Option *option : mApp.get_options())
            if (option->get_positional() && option->get_required() && option->count() == 0)
                throw io::InputError("missing argument " + option->get_name() + seeHelp);
    }
    if (named && dynamic_cast<const CLI::ArgumentMismatch *>(&error))
        throw io::InputError("option " + named->get_name() + " needs a value (" + named->get_type_name() + ")" +
                             seeHelp);
    if (named && dynamic_cast<const CLI::ValidationError *>(&error)) {
        // The checks above word their refusal "takes …"; a project parser's message names the option itself.
        const std::string reason = what.substr(named->get_name().size() + 2);
        if (reason.rfind("--", 0) == 0)
            throw io::InputError(reason);
        throw io::InputError(named->get_name() + (reason.rfind("takes", 0) == 0 ? " " : ": ") + reason);
    }
    throw io::InputError(what + seeHelp);
}

void CommandParser::refuseLeftovers() const
{
    const std::string seeHelp = " (see '" + mCommand + " --help')";
    bool optionsEnded = false;
    for (const std::string &argument : mApp.remaining()) {
        if (!optionsEnded && argument == "--") {
            optionsEnded = true;
            continue;
        }
        if (optionsEnded || argument.size() < 2 || argument[0] != '-')
            throw io::InputError("unexpected argument " + io::quoteForMessage(argument) + seeHelp);
        std::vector<std::string> declared;
        for (const CLI::Option *option : mApp.get_options())
            if (option->nonpositional())
                declared.push_back(option->get_name());
        const std::string suggestion = closestName(argument.substr(0, argument.find('=')), declared);
        throw io::InputError("unknown option " + io::quoteForMessage(argument) +
                             (suggestion.empty() ? seeHelp : "; did you mean " + suggestion + "?"));
    }
}

std::string CommandParser::helpText() const
{
    std::ostringstream text;
    text << "Usage: " << mUsage << "\n\n" << mSummary << "\n";
    TextTable positionals({"", ""});
    TextTable options({"", ""});
    bool anyPositional = false;
    for (const CLI::Option *option : mApp.get_options()) {
        if (option == mApp.get_help_ptr())
            continue;
        if (option->get_positional()) {
            const std::string name = option->get_name();
            positionals.addRow({"  " + (option->get_required() ? name : "[" + name + "]"), option->get_description()});
            anyPositional = true;
        } else {
            const std::string value = option->get_type_size() == 0 ? "" : " " + option->get_type_name();
            options.addRow({"  " + option->get_name() + value, option->get_description()});
        }
    }
    if (anyPositional) {
        text << "\nArguments:\n";
        positionals.print(text, false);
    }
    text << "\nOptions:\n";
    options.addRow({"  -h, --help", mApp.get_help_ptr()->get_description()});
    options.print(text, false);
    return text.str() + mFooter;
}

CLI::Option *addListOption(CLI::App &app, const std::string &name, std::vector<std::string> &values,
                           const std::string &valueName, const std::string &help)
{
    return app.add_option(name, values, help)
        ->type_name(valueName)
        ->delimiter(',')
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

CLI::Option *addPredictionsOption(CLI::App &app, std::optional<std::string> &path, const std::string &help)
{
    return app.add_option("--predictions", path, help)->type_name("FILE.csv");
}

std::vector<std::string> nonEmptyItems(const std::vector<std::string> &items)
{
    std::vector<std::string> kept;
    for (const auto &item : items)
        if (!item.empty())
            kept.push_back(item);
    return kept;
}

// CLI11 turns the text of a number option into a value with strtold (a long
// double, then rounded again to double) and strtoull in base 0 (where "010" is
// octal). The checks below read the text themselves and leave a form that those
// read back exactly: plain decimal for whole numbers, hexadecimal ("%a") for doubles.
CLI::Validator wholeNumber(std::uint64_t minimum, std::uint64_t maximum)
{
    return CLI::Validator(
        [minimum, maximum](std::string &text) -> std::string {
            std::uint64_t value = 0;
            const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
            if (!text.empty() && result.ec == std::errc() && result.ptr == text.data() + text.size() &&
                value >= minimum && value <= maximum) {
                text = std::to_string(value);
                return {};
            }
            const bool unbounded = maximum == std::numeric_limits<std::uint64_t>::max();
            const std::string kind =
                !unbounded     ? "a whole number from " + std::to_string(minimum) + " to " + std::to_string(maximum)
                : minimum == 1 ? std::string("a positive whole number")
                : minimum == 0 ? std::string("a whole number")
                               : "a whole number of at least " + std::to_string(minimum);
            return "takes " + kind + ", not " + io::quoteForMessage(text);
        },
        "", "whole number");
}

CLI::Validator fractionBelowOne()
{
    return CLI::Validator(
        [](std::string &text) -> std::string {
            double value = 0.0;
            if (!readDouble(text, value) || !(value >= 0.0) || value >= 1.0)
                return "takes a number in [0, 1), not " + io::quoteForMessage(text);
            text = io::formattedNumber("%a", value);
            return {};
        },
        "", "fraction");
}

CLI::Validator finiteNumberIn(double minimum, double maximum)
{
    return CLI::Validator(
        [minimum, maximum](std::string &text) -> std::string {
            double value = 0.0;
            if (!readDouble(text, value) || !(value >= minimum && value <= maximum))
                return "takes a number from " + io::formattedNumber("%g", minimum) + " to " +
                       io::formattedNumber("%g", maximum) + ", not " + io::quoteForMessage(text);
            text = io::formattedNumber("%a", value);
            return {};
        },
        "", "number");
}

CLI::Validator numberReadBy(std::function<double(const std::string &)> parse)
{
    return reportingInputErrors([parse](std::string &text) { text = io::formattedNumber("%a", parse(text)); },
                                "number");
}

CLI::Validator textCheckedBy(std::function<void(const std::string &)> check)
{
    return reportingInputErrors([check](std::string &text) { check(text); }, "text");
}

std::string closestName(const std::string &name, const std::vector<std::string> &declared)
{
    std::string closest;
    std::size_t best = 3; // more than two edits away is no longer a typo
    for (const auto &candidate : declared) {
        const std::size_t distance = editDistance(name, candidate);
        if (distance < best) {
            best = distance;
            closest = candidate;
        }
    }
    return closest;
}

} // namespace gpumem::cli
