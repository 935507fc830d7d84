#pragma once

#include "evaluation/Ranking.h"

#include <QAbstractTableModel>

#include <cstdint>
#include <memory>
#include <vector>

namespace gpumem::ui {

// The worst under-predictions of a comparison as core finds them, one row per
// job: model, the job's line in the data file, actual and predicted memory and
// the shortfall (MiB). Qt::UserRole holds each cell's value, for sorting. Read
// on the GUI thread only.
class WorstRowsModel : public QAbstractTableModel
{
    Q_OBJECT

  public:
    explicit WorstRowsModel(QObject *parent = nullptr);

    // Shows up to perModel rows of each model of result; rowLines gives each
    // dataset row's line in the file (empty shows row numbers). nullptr clears it.
    void setResult(std::shared_ptr<const evaluation::ExperimentResult> result, std::vector<std::int64_t> rowLines,
                   std::size_t perModel);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    std::shared_ptr<const evaluation::ExperimentResult> mResult;
    std::vector<std::int64_t> mRowLines;
    std::vector<evaluation::UnderPrediction> mRows;
};

} // namespace gpumem::ui
