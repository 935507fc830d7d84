// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Only for the commands' .cpp files: this header pulls in CLI11.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// One `gpumem` subcommand's arguments on CLI11, parsed under the command line's
// error contract: every misuse throws io::InputError with one line (an unknown
// option names itself and the closest declared one, a missing value or argument
// points to --help), "--help"/"-h" anywhere asks for the help text, a repeated
// single-value option keeps its last value, and "--" ends the options.
class CommandParser
{
  public:
    // command is e.g. "gpumem inspect"; usage follows "Usage: " in the help text.
    CommandParser(std::string command, std::string usage, std::string summary);

    // The app to declare options and positionals on; their variables receive the values.
    CLI::App &app() { return mApp; }
    // Adds text at the end of the help, after the options.
    void addHelpFooter(std::string text) { mFooter += std::move(text); }

    // Parses arguments (without the command's name). Returns false when help was
    // asked for: the help text is then written to out and nothing else is checked.
    bool parse(const std::vector<std::string> &arguments, std::ostream &out);
    std::string helpText() const;

  private:
    [[noreturn]] void refuse(const CLI::ParseError &error) const;
    void refuseLeftovers() const;

    std::string mCommand;
    std::string mUsage;
    std::string mSummary;
    std::string mFooter;
    CLI::App mApp;
};

// Declares a repeatable option of comma-separated values ("--features a,b --features c"):
// every occurrence adds its items, and it never takes the next argument as well.
CLI::Option *addListOption(CLI::App &app, const std::string &name, std::vector<std::string> &values,
                           const std::string &valueName, const std::string &help);

// Returns items without the empty ones that "a,,b" or a trailing comma leave.
std::vector<std::string> nonEmptyItems(const std::vector<std::string> &items);

// The checks that leave a value in an exact form rewrite it, so they go on an
// option with ->transform(); CLI11's ->check() would discard the rewritten text.

// Checks that an option's value is a decimal whole number in [minimum, maximum]
// ("takes a whole number, not 'x'"; "takes a positive whole number" when minimum
// is 1). Leaves the value in plain decimal, so that "010" means ten, not octal eight.
CLI::Validator wholeNumber(std::uint64_t minimum = 0,
                           std::uint64_t maximum = std::numeric_limits<std::uint64_t>::max());

// Checks that an option's value is a number in [0, 1) ("takes a number in [0, 1), not 'x'").
CLI::Validator fractionBelowOne();

// Checks that an option's value is a finite number in [minimum, maximum] ("takes a
// number from 0 to 1048576, not 'nan'"): CLI11's Range lets NaN through, since no
// comparison with it is true.
CLI::Validator finiteNumberIn(double minimum, double maximum);

// Declares --test-fraction, the share of rows held out (seeded) to score on; help
// says what is scored. fraction is a double or an optional one.
template <typename Fraction>
CLI::Option *addTestFractionOption(CLI::App &app, Fraction &fraction, const std::string &help)
{
    return app.add_option("--test-fraction", fraction, help)->type_name("F")->transform(fractionBelowOne());
}

// Declares --predictions FILE.csv, the file of every row's prediction; help says what else it holds.
CLI::Option *addPredictionsOption(CLI::App &app, std::optional<std::string> &path, const std::string &help);

// Checks an option's value with parse, which throws io::InputError for a bad one;
// its message becomes the refusal. Leaves the value as parse read it (exactly),
// for options bound to a double.
CLI::Validator numberReadBy(std::function<double(const std::string &)> parse);

// Checks an option's value with check, which throws io::InputError for a bad one.
CLI::Validator textCheckedBy(std::function<void(const std::string &)> check);

// Returns the declared name closest to name within two edits ("--epochs" for
// "--epoch"), or "" when none is that close.
std::string closestName(const std::string &name, const std::vector<std::string> &declared);

} // namespace gpumem::cli
