// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace gpumem::cli {

// The options and positionals one invocation gave, after parsing. Asking
// has(), value() or list() about an option the parser never declared (a
// misspelt name in the program) throws std::logic_error instead of quietly
// answering "not given".
class ParsedArguments
{
  public:
    bool helpRequested() const { return mHelpRequested; }
    // True when the parser declared option, whether or not it was given.
    bool declares(const std::string &option) const { return mDeclared.count(option) != 0; }
    bool has(const std::string &option) const;
    // The last value given for option, or fallback when it was not given.
    std::string value(const std::string &option, const std::string &fallback = {}) const;
    // Every value given for a repeatable option, comma-separated lists split.
    std::vector<std::string> list(const std::string &option) const;
    const std::vector<std::string> &positionals() const { return mPositionals; }

  private:
    friend class ArgumentParser;
    void requireDeclared(const std::string &option) const;

    bool mHelpRequested = false;
    std::set<std::string> mDeclared;
    std::map<std::string, std::vector<std::string>> mValues;
    std::vector<std::string> mPositionals;
};

// Parses an option's value as a whole number, e.g. parseWholeNumber("8", "--threads").
// Throws io::InputError "--threads takes a whole number, not 'x'" (or "a positive
// whole number" when positive is set, which also refuses 0).
std::uint64_t parseWholeNumber(const std::string &text, const std::string &option, bool positive = false);

// Parses an option's value as a fraction in [0, 1), e.g. parseFraction("0.2", "--test-fraction").
// Throws io::InputError "--test-fraction takes a number in [0, 1), not 'x'".
double parseFraction(const std::string &text, const std::string &option);

// Declares the arguments of one `gpumem` subcommand and parses them:
// "--name VALUE", "--name=VALUE", flags, positionals, and "--help"/"-h".
// Errors throw io::InputError with a one-line message that points to --help.
class ArgumentParser
{
  public:
    ArgumentParser(std::string usage, std::string summary);

    ArgumentParser &positional(const std::string &name, const std::string &help);
    // A positional that may be left out; only the last positionals may be optional.
    ArgumentParser &optionalPositional(const std::string &name, const std::string &help);
    ArgumentParser &option(const std::string &name, const std::string &valueName, const std::string &help);
    ArgumentParser &flag(const std::string &name, const std::string &help);

    ParsedArguments parse(const std::vector<std::string> &arguments) const;
    std::string helpText() const;

  private:
    struct Argument
    {
        std::string name;      // without the leading "--" for options
        std::string valueName; // empty for flags and positionals
        std::string help;
        bool isFlag = false;
        bool isOptional = false;
    };
    const Argument *findOption(const std::string &name) const;

    std::string mUsage;
    std::string mSummary;
    std::vector<Argument> mPositionals;
    std::vector<Argument> mOptions;
};

} // namespace gpumem::cli
