// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs `gpumem` in-process for the command-line tests.

#include "TestSupport.h"
#include "cli/CommandLine.h"

#include <QStringList>
#include <QTest>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace gpumem::tests {

// What one run of the command line printed and returned.
struct Run
{
    int exitCode;
    std::string out;
    std::string err;
};

// Runs `gpumem arguments…` through cli::runCommandLine, capturing both streams.
inline Run runGpumem(const std::vector<std::string> &arguments)
{
    std::ostringstream out;
    std::ostringstream err;
    const int exitCode = gpumem::cli::runCommandLine(arguments, out, err);
    return {exitCode, out.str(), err.str()};
}

// The same, for the current data-driven test row's QStringList column "arguments".
inline Run runGpumemRow()
{
    QFETCH(QStringList, arguments);
    std::vector<std::string> list;
    for (const QString &argument : arguments)
        list.push_back(argument.toStdString());
    return runGpumem(list);
}

// Returns arguments followed by more.
inline std::vector<std::string> withArguments(std::vector<std::string> arguments, const std::vector<std::string> &more)
{
    arguments.insert(arguments.end(), more.begin(), more.end());
    return arguments;
}

// How many lines text holds (its line breaks).
inline int lineCount(const std::string &text)
{
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

// The current row's run, as runGpumemRow, and the text the row expects (its QString
// column named column).
struct RowRun
{
    Run run;
    QString expected;
};

inline RowRun runGpumemRowExpecting(const char *column)
{
    const QString expected = *static_cast<QString *>(QTest::qData(column, qMetaTypeId<QString>()));
    return {runGpumemRow(), expected};
}

} // namespace gpumem::tests

// Unqualified in every command-line test, as TestSupport.h's helpers are.
using gpumem::tests::lineCount, gpumem::tests::Run, gpumem::tests::runGpumem, gpumem::tests::runGpumemRow,
    gpumem::tests::runGpumemRowExpecting, gpumem::tests::withArguments;
