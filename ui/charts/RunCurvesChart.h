// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runs/RunRecord.h"
#include "ui/charts/RunsChart.h"

#include <vector>

class QCheckBox;
class QLabel;

namespace gpumem::ui {

// The Runs page's overlay of runs' curves, in each run's colour: the training error
// (solid) and the validation error (dashed) after each epoch, as RMSE in MiB where
// every run shown recorded it, else (runs of earlier versions) as the loss on the
// model's scaled target, on a logarithmic axis unless "Log scale" is turned off. A note
// above warns when the runs come from different data files, whose errors do not compare.
// The context menu saves the chart or its curves as CSV. GUI thread only.
class RunCurvesChart : public RunsChart
{
    Q_OBJECT

  public:
    explicit RunCurvesChart(QWidget *parent = nullptr);

    // Draws the runs of all at the indices shown (each coloured by runColour(index)).
    void showRuns(const std::vector<runs::RunRecord> &all, const std::vector<std::size_t> &shown);
    void setLogarithmic(bool logarithmic);
    bool isLogarithmic() const;
    // The warning about mixed data files, empty when the runs share one.
    QString datasetWarning() const;

  private:
    void redraw();

    QCheckBox *mLogarithmic;
    QLabel *mWarning;
    std::vector<runs::RunRecord> mRuns; // the runs shown, and their colour indices
    std::vector<std::size_t> mIndices;
};

// Returns the names of the data files runs trained on, each once, in order of
// appearance (runs recorded without one are left out).
std::vector<std::string> datasetsOf(const std::vector<const runs::RunRecord *> &runs);

} // namespace gpumem::ui
