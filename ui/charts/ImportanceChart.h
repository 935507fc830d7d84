// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"

#include <QString>

class QChart;

namespace gpumem::ui {

// The ends of an axis that holds every model's importance bars and whiskers, from 0
// (or the lowest whisker below it) up, so that the models' charts share one scale.
struct ImportanceAxis
{
    double minimum = 0.0;
    double maximum = 1.0;
};
ImportanceAxis importanceAxis(const evaluation::ExperimentResult &result);

// Returns a horizontal bar chart of one model's permutation importance: a bar per
// input, first input on top, at the mean increase of RMSE (MiB) when that input
// is shuffled, with a whisker of ± one standard deviation over folds and shuffles,
// on axis. The caller owns the chart.
QChart *importanceChart(const QString &title, const std::vector<evaluation::InputImportance> &importance,
                        const ImportanceAxis &axis);

// The height a chart of inputs bars needs to name every input beside its bar.
int importanceChartHeight(std::size_t inputs);

} // namespace gpumem::ui
