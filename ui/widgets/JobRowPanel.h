// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Dataset.h"
#include "data/Table.h"
#include "evaluation/Experiment.h"

#include <Eigen/Core>
#include <QLabel>

#include <memory>
#include <string>
#include <vector>

class QChart;

namespace gpumem::ui {

// The job behind a point of a predicted-against-actual chart: a click on the
// point shows the job's name and line, its input values as the file holds them,
// its actual memory and every model's prediction with its error.
class JobRowPanel : public QLabel
{
    Q_OBJECT

  public:
    explicit JobRowPanel(QWidget *parent = nullptr);

    // The comparison whose jobs the panel shows (null: none), the dataset it ran on,
    // the table that dataset came from and the input columns to list.
    void setComparison(std::shared_ptr<const evaluation::ExperimentResult> result,
                       std::shared_ptr<const data::Dataset> dataset, std::shared_ptr<const data::Table> table,
                       std::vector<std::string> inputs);
    // Shows the job of the point clicked on scatter, a predictedVsActualChart of result's model-th model.
    void watch(QChart *scatter, std::size_t model);
    // Shows dataset row row (0-based).
    void showRow(Eigen::Index row);
    // The row on show, or -1.
    Eigen::Index row() const { return mRow; }

  private:
    // The dataset row whose (actual, model's prediction) lies nearest point, or -1.
    Eigen::Index nearestRow(std::size_t model, const QPointF &point) const;

    std::shared_ptr<const evaluation::ExperimentResult> mResult;
    std::shared_ptr<const data::Dataset> mDataset;
    std::shared_ptr<const data::Table> mTable;
    std::vector<std::string> mInputs;
    Eigen::Index mRow = -1;
};

} // namespace gpumem::ui
