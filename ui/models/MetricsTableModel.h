// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/models/ResultTableModel.h"

#include <memory>

namespace gpumem::ui {

// The comparison's metrics as a table: one row per model, a column per metric of
// evaluation::metricDescriptions() (mean ± standard deviation over folds, the
// best of each column highlighted as core ranks it), then the train time summed
// over folds and the p-value of the paired test against the best model. Qt::UserRole
// holds each cell's number, for sorting. Read on the GUI thread only.
class MetricsTableModel : public ResultTableModel
{
    Q_OBJECT

  public:
    using ResultTableModel::ResultTableModel;

    // Shows result (nullptr clears the table).
    void setResult(std::shared_ptr<const evaluation::ExperimentResult> result);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
};

} // namespace gpumem::ui
