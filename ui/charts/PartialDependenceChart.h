// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"

#include <QWidget>

#include <memory>

class QChart;
class QChartView;
class QComboBox;
class QLabel;

namespace gpumem::ui {

// Returns the partial dependence of every model of result on the input of its
// grid-th partial dependence grid: one line per model (the mean prediction over
// the folds' fitted models, in model colours), over the data's range of the input
// shaded and as far again beyond it, where each model extrapolates. The caller owns the chart.
QChart *partialDependenceChart(const evaluation::ExperimentResult &result, std::size_t grid);

// The Compare page's partial dependence tab: a box to choose a numeric input and
// the chart of every model's partial dependence on it; a hint when the comparison
// on show measured none.
class PartialDependencePane : public QWidget
{
    Q_OBJECT

  public:
    explicit PartialDependencePane(QWidget *parent = nullptr);

    // Shows result's partial dependences (none for null), keeping the chosen input when result has it too.
    void setResult(std::shared_ptr<const evaluation::ExperimentResult> result);
    // The chart on show, or null.
    QChartView *chartView() const { return mView; }

  private:
    void showInput(int index);

    std::shared_ptr<const evaluation::ExperimentResult> mResult;
    QComboBox *mInputs;
    QChartView *mView;
    QLabel *mHint;
};

} // namespace gpumem::ui
