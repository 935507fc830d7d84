#include "cli/CommandLine.h"

#include "cli/CompareCommand.h"
#include "cli/DescribeModelCommand.h"
#include "cli/InspectCommand.h"
#include "cli/PredictCommand.h"
#include "cli/TextTable.h"
#include "cli/TrainCommand.h"
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
    {"compare", "fit several models on identical splits and compare them, with reports", runCompare},
    {"describe-model", "show the network's blocks, tensor shapes and parameter counts", runDescribeModel},
};

void printUsage(std::ostream &out)
{
    out << "Usage: gpumem COMMAND [options]\n\n"
           "Predicts the peak GPU memory of deep-learning jobs and compares models.\n\nCommands:\n";
    TextTable table({"", ""});
    for (const auto &command : commands)
        table.addRow({std::string("  ") + command.name, command.summary});
    table.print(out, false);
    out << "\nOptions:\n  --version  show library versions and devices\n  -h, --help show this help\n"
           "\nRun 'gpumem COMMAND --help' for a command's options.\n";
}

void printVersions(std::ostream &out)
{
    TextTable table({"", ""});
    for (const auto &[name, version] : runtime::libraryVersions().entries())
        table.addRow({name, version});
    table.print(out, false);
}

} // namespace

int runCommandLine(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err)
{
    if (arguments.empty()) {
        printUsage(err);
        return 1;
    }
    const std::string &name = arguments.front();
    if (name == "--help" || name == "-h" || name == "help") {
        printUsage(out);
        return 0;
    }
    if (name == "--version") {
        printVersions(out);
        return 0;
    }
    for (const auto &command : commands) {
        if (name != command.name)
            continue;
        try {
            return command.run({arguments.begin() + 1, arguments.end()}, out, err);
        } catch (const io::InputError &error) {
            err << "gpumem " << name << ": " << error.what() << '\n';
        } catch (const std::bad_alloc &) {
            err << "gpumem " << name << ": out of memory\n";
        } catch (const std::exception &error) {
            err << "gpumem " << name << ": internal error: " << error.what() << '\n';
        }
        return 1;
    }
    err << "gpumem: unknown command " << io::quoteForMessage(name) << " (see 'gpumem --help')\n";
    return 1;
}

} // namespace gpumem::cli
