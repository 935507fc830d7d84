// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runs/RunRecord.h"

#include <QAbstractTableModel>

#include <string>
#include <vector>

namespace gpumem::ui {

// The runs table: one row per training run, with the run's name, model, data
// file, how it ended, its epochs and time, one column per hyperparameter whose value differs
// between the runs (the headline ones when there is a single run), and one
// column per summary metric on the validation rows, plus the training RMSE.
// In each metric column whose description crowns a best, the best run is
// highlighted (lowest, or highest where higher is better). SortRole gives
// numbers for numeric columns, so a QSortFilterProxyModel sorts them as numbers.
// GUI thread only.
class RunsTableModel : public QAbstractTableModel
{
    Q_OBJECT

  public:
    static constexpr int SortRole = Qt::UserRole;
    // True in the cells of a column's best run.
    static constexpr int BestRole = Qt::UserRole + 1;

    explicit RunsTableModel(QObject *parent = nullptr);

    void setRuns(std::vector<runs::RunRecord> runs);
    const std::vector<runs::RunRecord> &runs() const { return mRuns; }

    // The hyperparameters shown as columns, in description order.
    const std::vector<std::string> &hyperparameterColumns() const { return mHyperparameterNames; }
    // The column of a hyperparameter or of a validation metric key ("rmse"), or -1.
    int hyperparameterColumn(const std::string &name) const;
    int validationMetricColumn(const std::string &key) const;
    // The column of the data file each run trained on.
    static int datasetColumn();
    // Whether row is the best run of column's metric.
    bool isBest(int row, int column) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  private:
    struct MetricColumn
    {
        const evaluation::MetricDescription *metric;
        bool validation; // else the training rows
        int bestRow = -1;
    };
    void rebuildColumns();
    double metricValue(const runs::RunRecord &run, const MetricColumn &column) const;

    std::vector<runs::RunRecord> mRuns;
    std::vector<std::string> mHyperparameterNames;
    std::vector<MetricColumn> mMetricColumns;
};

} // namespace gpumem::ui
