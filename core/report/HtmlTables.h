// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The tables of the HTML report (private to core/report): on screen plain tables; on
// paper (printable) with fixed column shares, so that Qt's layout wraps each title at its
// spaces and hyphens instead of squeezing a column below its words, and with a header
// row that a paginator repeats on each page a table continues on.

#include "report/ComparisonReport.h"

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::report {

// Opens a table with a row of column titles; shares (percent of the width, one per
// column) are used on paper, and when empty the first column gets 16% and the others
// share the rest.
void writeTableHead(std::ostream &out, const std::vector<std::string> &titles, bool printable,
                    const std::vector<int> &shares = {});

// One table of the metrics of group, means ± spread; the accuracy table also gives
// train time and significance.
void writeMetricsTable(std::ostream &out, const evaluation::ExperimentResult &result, evaluation::MetricGroup group,
                       bool printable);

// The calibrated bound's table, one row per model with a bound.
void writeBoundTable(std::ostream &out, const evaluation::ExperimentResult &result, bool printable);

// The worst under-predictions (report::worstRows), job names shortened in the middle and
// the whole names in numbered notes under the table.
void writeWorstRowsTable(std::ostream &out, const ComparisonContext &context,
                         const evaluation::ExperimentResult &result, bool printable);

// The features, library versions and date, each title beside its value.
void writeEnvironmentTable(std::ostream &out, const ComparisonContext &context, bool printable,
                           const std::string &created);

} // namespace gpumem::report
