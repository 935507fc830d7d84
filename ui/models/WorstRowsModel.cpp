// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/WorstRowsModel.h"

#include "ui/widgets/QtText.h"

namespace gpumem::ui {

void WorstRowsModel::setResult(std::shared_ptr<const evaluation::ExperimentResult> result,
                               std::vector<std::int64_t> rowLines, std::vector<std::string> rowNames,
                               std::size_t perModel)
{
    resetResult(std::move(result), [&] {
        mRowLines = std::move(rowLines);
        mRowNames = std::move(rowNames);
        mRows = this->result() ? evaluation::worstUnderPredictions(*this->result(), perModel)
                               : std::vector<evaluation::UnderPrediction>{};
    });
}

int WorstRowsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(mRows.size());
}

int WorstRowsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : mRowNames.empty() ? 5 : 6;
}

QVariant WorstRowsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case 0: return tr("Model");
    case 1: return mRowLines.empty() ? tr("Row") : tr("File line");
    case 2: return tr("Actual (MiB)");
    case 3: return tr("Predicted (MiB)");
    case 4: return tr("Shortfall (MiB)");
    default: return tr("Job");
    }
}

QVariant WorstRowsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || (role != Qt::DisplayRole && role != Qt::UserRole && role != Qt::TextAlignmentRole))
        return {};
    const evaluation::UnderPrediction &row = mRows[static_cast<std::size_t>(index.row())];
    if (index.column() == 0) {
        const QString title = qtText(result()->models[row.model].title);
        return role == Qt::TextAlignmentRole ? QVariant() : QVariant(title);
    }
    if (index.column() == 5) {
        const auto datasetRow = static_cast<std::size_t>(row.row);
        const QString name = datasetRow < mRowNames.size() ? qtText(mRowNames[datasetRow]) : QString();
        return role == Qt::TextAlignmentRole ? QVariant() : QVariant(name);
    }
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    double value = 0.0;
    switch (index.column()) {
    case 1:
        value = static_cast<std::size_t>(row.row) < mRowLines.size()
                    ? static_cast<double>(mRowLines[static_cast<std::size_t>(row.row)])
                    : static_cast<double>(row.row + 1);
        break;
    case 2: value = row.actual; break;
    case 3: value = row.predicted; break;
    default: value = row.shortfall();
    }
    return role == Qt::UserRole ? QVariant(value) : QVariant(QString::number(value, 'f', 0));
}

} // namespace gpumem::ui
