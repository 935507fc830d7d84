// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Ranking.h"
#include "ui/models/ResultTableModel.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpumem::ui {

// The worst under-predictions of a comparison as core finds them, one row per
// job: model, the job's line in the data file, actual and predicted memory, the
// shortfall (MiB), and the job's name from its identifier column when the file has one. Qt::UserRole holds each cell's
// value, for sorting. Read on the GUI thread only.
class WorstRowsModel : public ResultTableModel
{
    Q_OBJECT

  public:
    using ResultTableModel::ResultTableModel;

    // Shows up to perModel rows of each model of result; rowLines gives each
    // dataset row's line in the file (empty shows row numbers), rowNames what each
    // job is called (data::jobNames; empty leaves the Job column out). nullptr clears it.
    void setResult(std::shared_ptr<const evaluation::ExperimentResult> result, std::vector<std::int64_t> rowLines,
                   std::vector<std::string> rowNames, std::size_t perModel);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::vector<std::int64_t> mRowLines;
    std::vector<std::string> mRowNames;
    std::vector<evaluation::UnderPrediction> mRows;
};

} // namespace gpumem::ui
