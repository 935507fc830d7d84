// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/models/MetricsTableModel.h"

#include "evaluation/Ranking.h"
#include "report/ComparisonReport.h"
#include "report/SignificanceLegend.h"
#include "ui/charts/ComparisonCharts.h"
#include "ui/widgets/QtText.h"

#include <QColor>
#include <QFont>

#include <cmath>

namespace gpumem::ui {

namespace {

// Under-prediction and over-allocation of the calibrated bound, and the "+10%" rule's over-allocation.
constexpr int boundColumnCount = 3;

const std::vector<evaluation::MetricDescription> &metrics()
{
    return evaluation::metricDescriptions();
}

QString metricText(const evaluation::MetricDescription &metric, double value)
{
    return std::isnan(value) ? QStringLiteral("–") : qtText(evaluation::formatMetric(metric, value));
}

} // namespace

void MetricsTableModel::setResult(std::shared_ptr<const evaluation::ExperimentResult> result)
{
    resetResult(std::move(result), [] {});
}

int MetricsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !result() ? 0 : static_cast<int>(result()->models.size());
}

int MetricsTableModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid())
        return 0;
    return static_cast<int>(metrics().size()) + 3 + (result() && result()->calibration ? boundColumnCount : 0);
}

QVariant MetricsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const int metricCount = static_cast<int>(metrics().size());
    if (section == 0)
        return tr("Model");
    if (section <= metricCount)
        return metricHeading(metrics()[static_cast<std::size_t>(section - 1)])
            .replace(QStringLiteral("  "), QStringLiteral("\n"));
    if (section == metricCount + 1)
        return tr("Train time (s)\nsummed over folds");
    if (section == metricCount + 2)
        return tr("p vs best\n(RMSE)");
    const QString coverage = result() && result()->calibration
                                 ? QString::number(100.0 * result()->calibration->coverage, 'g', 3) + QLatin1Char('%')
                                 : QString();
    switch (section - metricCount - 3) {
    case 0: return tr("Bound at %1:\nunder-predicted").arg(coverage);
    case 1: return tr("Bound at %1:\nover-allocation (MiB)").arg(coverage);
    default: return tr("+10%% rule:\nover-allocation (MiB)");
    }
}

QVariant MetricsTableModel::data(const QModelIndex &index, int role) const
{
    if (!result() || !index.isValid())
        return {};
    const auto &model = result()->models[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    const int metricCount = static_cast<int>(metrics().size());
    // Core decides which test is shown (none over too few folds), for every report alike.
    const evaluation::PairedTest *test = report::reportedTest(*result(), model.name);
    if (role == Qt::TextAlignmentRole)
        return column == 0 ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);

    if (column == 0) {
        if (role == Qt::DisplayRole)
            return qtText(model.title) + (model.name == result()->best ? tr(" (best)")
                                          : test                       ? qtText(report::significanceStars(test->pValue))
                                                                       : QString());
        return role == Qt::UserRole ? QVariant(qtText(model.title)) : QVariant();
    }
    if (column > metricCount + 2) {
        // The calibrated bound's columns: its miss rate, its waste, and the "+10%" habit's waste beside it.
        if (!model.bound || (role != Qt::DisplayRole && role != Qt::UserRole))
            return role == Qt::DisplayRole ? QVariant(QStringLiteral("–")) : QVariant();
        const int which = column - metricCount - 3;
        const double value = which == 0   ? model.bound->bound.underPredictionRate
                             : which == 1 ? model.bound->bound.meanOverAllocation
                                          : model.bound->tenPercent.meanOverAllocation;
        if (role == Qt::UserRole)
            return value;
        return which == 0 ? QString::number(100.0 * value, 'f', 1) + QLatin1Char('%') : QString::number(value, 'f', 1);
    }
    if (column > metricCount) {
        const bool time = column == metricCount + 1;
        const double value = time ? model.trainSeconds : test ? test->pValue : std::nan("");
        if (role == Qt::UserRole)
            return value;
        if (role != Qt::DisplayRole)
            return {};
        if (time)
            return QString::number(value, 'f', 2);
        return qtText(report::significanceText(*result(), model.name));
    }

    const auto &metric = metrics()[static_cast<std::size_t>(column - 1)];
    const double mean = model.mean.*metric.member;
    const bool best = evaluation::isBestModel(*result(), model, metric);
    switch (role) {
    case Qt::DisplayRole: {
        QString text = metricText(metric, mean);
        if (model.folds.size() > 1)
            text += QStringLiteral(" ± ") + metricText(metric, model.standardDeviation.*metric.member);
        return text;
    }
    case Qt::UserRole: return mean;
    case Qt::BackgroundRole: return best ? QVariant(QColor(210, 240, 210)) : QVariant();
    case Qt::FontRole: {
        if (!best)
            return {};
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::ToolTipRole: return best ? tr("Best %1").arg(qtText(metric.title)) : QVariant();
    default: return {};
    }
}

} // namespace gpumem::ui
