// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/CommandLine.h"

#include "cli/CommandParser.h"
#include "cli/CompareCommand.h"
#include "cli/DescribeModelCommand.h"
#include "cli/ErrorMessage.h"
#include "cli/EstimateCommand.h"
#include "cli/InspectCommand.h"
#include "cli/PredictCommand.h"
#include "cli/ProbeCommand.h"
#include "cli/SweepCommand.h"
#include "cli/TextTable.h"
#include "cli/TrainCommand.h"
#include "cli/Warnings.h"
#include "io/InputError.h"
#include "runtime/LibraryVersions.h"

#include <exception>
#include <new>

namespace gpumem::cli {

namespace {

using CommandFunction = int (*)(const std::vector<std::string> &, std::ostream &, std::ostream &);

struct Command
{
    const char *name;
    const char *summary;
    CommandFunction run;
};

const Command commands[] = {
    {"inspect", "show how a CSV file of jobs is read: column types, roles, bad cells", runInspect},
    {"train", "train the BiGRU-optimised Transformer and save it as a model folder", runTrain},
    {"predict", "predict peak memory for every job of a CSV file with a saved model", runPredict},
    {"sweep", "train one run per combination of hyperparameter values; shards and merges for clusters", runSweep},
    {"compare", "fit several models on identical splits and compare them, with reports", runCompare},
    {"describe-model", "show the network's blocks, tensor shapes and parameter counts", runDescribeModel},
    {"estimate", "estimate the GPU memory of training your own TorchScript model, on the CPU", runEstimate},
    {"probe", "measure the peak memory of random training jobs and write them as a dataset", runProbe},
};

void printUsage(std::ostream &out)
{
    out << "Usage: gpumem COMMAND [options]\n\n"
           "Predicts the peak GPU memory of deep-learning jobs and compares models.\n\nCommands:\n";
    TextTable table({"", ""});
    for (const auto &command : commands)
        table.addRow({std::string("  ") + command.name, command.summary});
    table.print(out, false);
    out << "\nOptions:\n  --version  show library versions and devices\n"
           "  --verbose  after an error's one line, print its full detail (before or after COMMAND)\n"
           "  -h, --help show this help\n"
           "\nRun 'gpumem COMMAND --help' for a command's options.\n";
}

void printVersions(std::ostream &out)
{
    TextTable table({"", ""});
    for (const auto &[name, version] : runtime::libraryVersions().entries())
        table.addRow({name, version});
    table.print(out, false);
}

// A result on standard output that could not be written (a full disk, a closed
// pipe) fails the command even when the command itself succeeded.
int checkedExit(int exitCode, std::ostream &out, std::ostream &err, const std::string &command)
{
    out.flush();
    if (out.fail() && exitCode == 0) {
        err << "gpumem" << (command.empty() ? "" : " " + command) << ": cannot write to standard output\n";
        return 1;
    }
    return exitCode;
}

int runCommand(const Command &command, const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err,
               bool verbose)
{
    const ScopedWarningStream warnings(err);
    try {
        return command.run(arguments, out, err);
    } catch (const std::bad_alloc &) {
        err << "gpumem " << command.name << ": out of memory\n";
    } catch (const std::exception &error) {
        printError(err, command.name, error, verbose);
    }
    return 1;
}

} // namespace

int runCommandLine(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    // --verbose is global: accepted before or after the command's name, up to a "--".
    std::vector<std::string> remaining;
    bool verbose = false;
    bool optionsEnded = false;
    for (const auto &argument : arguments) {
        optionsEnded = optionsEnded || argument == "--";
        if (!optionsEnded && argument == "--verbose")
            verbose = true;
        else
            remaining.push_back(argument);
    }
    if (remaining.empty()) {
        printUsage(err);
        return 1;
    }
    const std::string &name = remaining.front();
    if (name == "--help" || name == "-h" || name == "help") {
        printUsage(out);
        return checkedExit(0, out, err, {});
    }
    if (name == "--version") {
        printVersions(out);
        return checkedExit(0, out, err, {});
    }
    for (const auto &command : commands) {
        if (name != command.name)
            continue;
        const int exitCode = runCommand(command, {remaining.begin() + 1, remaining.end()}, out, err, verbose);
        return checkedExit(exitCode, out, err, name);
    }
    std::vector<std::string> names;
    for (const auto &command : commands)
        names.emplace_back(command.name);
    const std::string suggestion = closestName(name, names);
    err << "gpumem: unknown command " << io::quoteForMessage(name)
        << (suggestion.empty() ? " (see 'gpumem --help')" : "; did you mean " + suggestion + "?") << '\n';
    return 1;
}

} // namespace gpumem::cli
