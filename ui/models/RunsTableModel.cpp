// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/RunsTableModel.h"

#include "ui/widgets/DurationText.h"

#include <QBrush>
#include <QColor>
#include <QFileInfo>
#include <QFont>

#include <cmath>
#include <limits>
#include <set>

namespace gpumem::ui {

namespace {

// The columns before the hyperparameters.
enum FixedColumn
{
    NameColumn,
    ModelColumn,
    DatasetColumn, // the data file, so that runs of different files are not compared unawares
    StopColumn,
    EpochsColumn,
    TimeColumn,
    FixedColumns
};

// What a single run shows when no value differs yet: the values people sweep first.
const char *const headlineHyperparameters[] = {"epochs", "learning_rate", "batch_size"};

} // namespace

RunsTableModel::RunsTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    rebuildColumns();
}

void RunsTableModel::setRuns(std::vector<runs::RunRecord> runs)
{
    beginResetModel();
    mRuns = std::move(runs);
    rebuildColumns();
    endResetModel();
}

void RunsTableModel::rebuildColumns()
{
    // Hyperparameters in the first run's (description) order, then any others.
    std::vector<std::string> names;
    std::set<std::string> known;
    for (const auto &run : mRuns)
        for (const auto &[name, value] : run.hyperparameters)
            if (known.insert(name).second)
                names.push_back(name);
    mHyperparameterNames.clear();
    for (const auto &name : names) {
        std::set<std::string> texts;
        for (const auto &run : mRuns) {
            const auto *value = run.hyperparameter(name);
            texts.insert(value ? runs::hyperparameterValueText(*value) : std::string());
        }
        if (texts.size() > 1)
            mHyperparameterNames.push_back(name);
    }
    if (mHyperparameterNames.empty())
        for (const char *name : headlineHyperparameters)
            if (known.count(name) != 0)
                mHyperparameterNames.emplace_back(name);

    mMetricColumns.clear();
    for (const auto &metric : evaluation::metricDescriptions())
        if (metric.summary)
            mMetricColumns.push_back({&metric, true});
    mMetricColumns.push_back({&evaluation::metricDescription("rmse"), false});
    for (auto &column : mMetricColumns) {
        // The description decides: a risk metric that crowns no best stays plain.
        if (!column.metric->crownsBest)
            continue;
        double best = std::nan("");
        for (std::size_t row = 0; row < mRuns.size(); ++row) {
            const double value = metricValue(mRuns[row], column);
            if (!std::isfinite(value))
                continue;
            if (column.bestRow < 0 || (column.metric->higherIsBetter ? value > best : value < best)) {
                best = value;
                column.bestRow = static_cast<int>(row);
            }
        }
    }
}

double RunsTableModel::metricValue(const runs::RunRecord &run, const MetricColumn &column) const
{
    const auto &metrics = column.validation ? run.validationMetrics : run.trainMetrics;
    return metrics ? (*metrics).*(column.metric->member) : std::nan("");
}

int RunsTableModel::hyperparameterColumn(const std::string &name) const
{
    for (std::size_t index = 0; index < mHyperparameterNames.size(); ++index)
        if (mHyperparameterNames[index] == name)
            return FixedColumns + static_cast<int>(index);
    return -1;
}

int RunsTableModel::datasetColumn()
{
    return DatasetColumn;
}

int RunsTableModel::validationMetricColumn(const std::string &key) const
{
    for (std::size_t index = 0; index < mMetricColumns.size(); ++index)
        if (mMetricColumns[index].validation && key == mMetricColumns[index].metric->key)
            return FixedColumns + static_cast<int>(mHyperparameterNames.size() + index);
    return -1;
}

bool RunsTableModel::isBest(int row, int column) const
{
    const int metricIndex = column - FixedColumns - static_cast<int>(mHyperparameterNames.size());
    return metricIndex >= 0 && metricIndex < static_cast<int>(mMetricColumns.size()) &&
           mMetricColumns[static_cast<std::size_t>(metricIndex)].bestRow == row;
}

int RunsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(mRuns.size());
}

int RunsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : FixedColumns + static_cast<int>(mHyperparameterNames.size() + mMetricColumns.size());
}

QVariant RunsTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const runs::RunRecord &run = mRuns[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    if (role == BestRole)
        return isBest(index.row(), column);
    if (isBest(index.row(), column)) {
        if (role == Qt::FontRole) {
            QFont font;
            font.setBold(true);
            return font;
        }
        if (role == Qt::BackgroundRole)
            return QBrush(QColor(0xd4, 0xf0, 0xd4));
        if (role == Qt::ForegroundRole)
            return QBrush(QColor(0x10, 0x40, 0x10));
    }
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole && role != Qt::TextAlignmentRole)
        return {};
    const bool sorting = role == SortRole;

    if (column < FixedColumns) {
        if (role == Qt::TextAlignmentRole)
            return column >= EpochsColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
        switch (column) {
        case NameColumn:
            if (role == Qt::ToolTipRole)
                return QString::fromStdString(run.message) +
                       (run.modelFolder.empty()
                            ? QString()
                            : tr("\nModel saved in %1").arg(QString::fromStdString(run.modelFolder)));
            // Sorted by when it ran, which the row number is.
            return sorting ? QVariant(index.row()) : QVariant(QString::fromStdString(run.name));
        case ModelColumn: return QString::fromStdString(run.model);
        case DatasetColumn:
            if (role == Qt::ToolTipRole)
                return run.dataset.empty() ? tr("Recorded without its data file") : QString::fromStdString(run.dataset);
            return run.dataset.empty() ? QStringLiteral("–")
                                       : QFileInfo(QString::fromStdString(run.dataset)).fileName();
        case StopColumn: return QString::fromStdString(training::stopReasonName(run.stopReason));
        case EpochsColumn: return static_cast<int>(run.epochs.size());
        case TimeColumn: return sorting ? QVariant(run.seconds) : QVariant(durationText(run.seconds));
        default: return {};
        }
    }
    const int hyperparameterIndex = column - FixedColumns;
    if (hyperparameterIndex < static_cast<int>(mHyperparameterNames.size())) {
        const auto *value = run.hyperparameter(mHyperparameterNames[static_cast<std::size_t>(hyperparameterIndex)]);
        if (role == Qt::TextAlignmentRole)
            return value && !std::holds_alternative<std::string>(*value)
                       ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                       : QVariant();
        if (!value)
            return {};
        if (sorting && !std::holds_alternative<std::string>(*value))
            return runs::hyperparameterValueNumber(*value);
        return QString::fromStdString(runs::hyperparameterValueText(*value));
    }
    const MetricColumn &metricColumn =
        mMetricColumns[static_cast<std::size_t>(hyperparameterIndex - static_cast<int>(mHyperparameterNames.size()))];
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    const double value = metricValue(run, metricColumn);
    if (sorting) // missing values sort last in ascending order
        return std::isfinite(value) ? value : std::numeric_limits<double>::max();
    if (role == Qt::ToolTipRole)
        return isBest(index.row(), column) ? tr("The best run on this metric") : QVariant();
    return std::isfinite(value) ? QString::fromStdString(evaluation::formatMetric(*metricColumn.metric, value))
                                : QStringLiteral("–");
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char *const fixed[] = {QT_TR_NOOP("Run"),     QT_TR_NOOP("Model"),      QT_TR_NOOP("Data"),
                                        QT_TR_NOOP("Stopped"), QT_TR_NOOP("Epochs run"), QT_TR_NOOP("Time")};
    if (section < FixedColumns)
        return tr(fixed[section]);
    const int hyperparameterIndex = section - FixedColumns;
    if (hyperparameterIndex < static_cast<int>(mHyperparameterNames.size()))
        return QString::fromStdString(mHyperparameterNames[static_cast<std::size_t>(hyperparameterIndex)]);
    const int metricIndex = hyperparameterIndex - static_cast<int>(mHyperparameterNames.size());
    if (metricIndex >= static_cast<int>(mMetricColumns.size()))
        return {};
    const MetricColumn &column = mMetricColumns[static_cast<std::size_t>(metricIndex)];
    const QString unit =
        *column.metric->unit ? QStringLiteral(" (%1)").arg(QString::fromUtf8(column.metric->unit)) : QString();
    if (role == Qt::ToolTipRole)
        return (column.validation ? tr("%1 on the validation rows held out of the fit")
                                  : tr("%1 on the rows the model was fitted on"))
                   .arg(QString::fromUtf8(column.metric->title)) +
               (column.metric->crownsBest
                    ? (column.metric->higherIsBetter ? tr("; higher is better") : tr("; lower is better"))
                    : QString());
    return (column.validation ? tr("val %1") : tr("train %1")).arg(QString::fromUtf8(column.metric->shortTitle)) + unit;
}

} // namespace gpumem::ui
