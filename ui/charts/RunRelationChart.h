// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runs/RunRecord.h"
#include "ui/charts/RunsChart.h"

#include <string>
#include <vector>

class QComboBox;

namespace gpumem::ui {

// The Runs page's chart of one hyperparameter against the runs' validation RMSE: one
// point per run, text values at named positions, whole numbers on whole ticks, and a
// logarithmic axis for a learning rate or values spanning more than a decade. It opens
// on the hyperparameter the runs vary most (a sweep's) and keeps the user's choice while
// that is among the candidates. Runs of different data files are drawn as separate,
// named point sets. GUI thread only.
class RunRelationChart : public RunsChart
{
    Q_OBJECT

  public:
    explicit RunRelationChart(QWidget *parent = nullptr);

    // Shows runs against one of candidates (hyperparameters in the order to offer them).
    void showRuns(const std::vector<runs::RunRecord> &runs, const std::vector<std::string> &candidates);
    QComboBox *parameterBox() const { return mParameter; }

  private:
    void redraw();

    QComboBox *mParameter;
    std::vector<runs::RunRecord> mRuns;
    bool mChosenByUser = false;
};

// Returns the one of candidates whose values differ most among runs (the most distinct
// values; the first on a tie), or an empty string when there is no candidate.
std::string sweptHyperparameter(const std::vector<runs::RunRecord> &runs, const std::vector<std::string> &candidates);
// Whether values of hyperparameter name read best on a logarithmic axis: all above 0,
// and a learning rate or spread over more than a decade.
bool wantsLogarithmicAxis(const std::string &name, const std::vector<double> &values);

} // namespace gpumem::ui
