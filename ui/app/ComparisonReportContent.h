// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/app/ReportWriter.h"

#include <vector>

class QChartView;

namespace gpumem::ui {

class WorkbenchState;

// Gathers the report of state's comparison: its result, its header (the dataset,
// target, features, folds and seed it ran with, each row's job name) and images of its
// charts drawn for half a page's width: the report's own metric bars, and the charts on
// show (scatter plots, residual histograms, the bound's curves). Empty without a comparison.
ReportContent comparisonReportContent(const WorkbenchState &state, const std::vector<QChartView *> &charts);

} // namespace gpumem::ui
