// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runs/RunRecord.h"
#include "ui/charts/RunsChart.h"

#include <string>
#include <vector>

class QCPColorScale;

namespace gpumem::ui {

// A sweep as parallel coordinates (as TensorBoard's HParams view draws it): one
// vertical axis per hyperparameter the runs vary, then one for the validation RMSE
// (MiB), and one line per run with a validation RMSE through its values, coloured
// from low RMSE (dark) to high (yellow) on the scale at the right. Each axis spans
// its values (logarithmically for a learning rate or a spread over a decade; text
// values evenly), with its lowest and highest value written at its ends.
// GUI thread only.
class ParallelCoordinatesPlot : public RunsChart
{
    Q_OBJECT

  public:
    explicit ParallelCoordinatesPlot(QWidget *parent = nullptr);

    // Draws runs over the axes of hyperparameters (in that order) and the validation RMSE.
    void showRuns(const std::vector<runs::RunRecord> &runs, const std::vector<std::string> &hyperparameters);
    // The runs drawn, one line each.
    int lineCount() const;
    // The axes drawn, the validation RMSE's last.
    const std::vector<QString> &axisNames() const { return mAxisNames; }

  private:
    QCPColorScale *mScale;
    std::vector<QString> mAxisNames;
};

} // namespace gpumem::ui
