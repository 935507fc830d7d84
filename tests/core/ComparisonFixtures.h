// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Pieces of the hand-built comparisons that the report tests write, the core
// writers' and the workbench's alike: each test keeps its own models and
// values, and builds the parts every report needs through these.

#include "evaluation/Significance.h"
#include "report/ComparisonReport.h"

#include <cstddef>
#include <string>

namespace gpumem::tests {

// The header of a k-fold comparison of rows jobs read from jobs.csv; each test
// adds the features and the seed it reports.
inline report::ComparisonContext jobsComparisonContext(const std::string &target, std::size_t rows, int folds)
{
    report::ComparisonContext context;
    context.dataset = "jobs.csv";
    context.target = target;
    context.rows = rows;
    context.folds = folds;
    return context;
}

// A paired t-test of model against versus over the RMSE of two folds; each test
// sets the statistic and whether a report shows it.
inline evaluation::PairedTest twoFoldPairedTTest(const std::string &model, const std::string &versus, double pValue)
{
    evaluation::PairedTest test;
    test.model = model;
    test.versus = versus;
    test.test = "paired_t";
    test.metric = "rmse per fold";
    test.pairs = 2;
    test.pValue = pValue;
    return test;
}

} // namespace gpumem::tests
