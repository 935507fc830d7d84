#include "ui/MetricsTableModel.h"

#include "evaluation/Ranking.h"
#include "report/ComparisonReport.h"
#include "ui/ComparisonCharts.h"
#include "ui/QtText.h"

#include <QColor>
#include <QFont>

#include <cmath>

namespace gpumem::ui {

namespace {

constexpr int minimumPairsForSignificance = 5;

const std::vector<evaluation::MetricDescription> &metrics()
{
    return evaluation::metricDescriptions();
}

QString significanceMark(double pValue)
{
    if (pValue < 0.01)
        return QStringLiteral("**");
    if (pValue < 0.05)
        return QStringLiteral("*");
    return {};
}

QString metricText(const evaluation::MetricDescription &metric, double value)
{
    return std::isnan(value) ? QStringLiteral("–") : qtText(evaluation::formatMetric(metric, value));
}

} // namespace

MetricsTableModel::MetricsTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void MetricsTableModel::setResult(std::shared_ptr<const evaluation::ExperimentResult> result)
{
    beginResetModel();
    mResult = std::move(result);
    endResetModel();
}

int MetricsTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !mResult ? 0 : static_cast<int>(mResult->models.size());
}

int MetricsTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(metrics().size()) + 3;
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
    return section == metricCount + 1 ? tr("Train time (s)\nsummed over folds") : tr("p vs best\n(RMSE)");
}

QVariant MetricsTableModel::data(const QModelIndex &index, int role) const
{
    if (!mResult || !index.isValid())
        return {};
    const auto &model = mResult->models[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    const int metricCount = static_cast<int>(metrics().size());
    // Fewer than 5 pairs (folds) cannot make a difference significant: no mark is shown then.
    const evaluation::PairedTest *reported = report::reportedTest(*mResult, model.name);
    const evaluation::PairedTest *test =
        reported && reported->pairs >= minimumPairsForSignificance ? reported : nullptr;
    if (role == Qt::TextAlignmentRole)
        return column == 0 ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);

    if (column == 0) {
        if (role == Qt::DisplayRole)
            return qtText(model.title) + (model.name == mResult->best ? tr(" (best)")
                                          : test                      ? significanceMark(test->pValue)
                                                                      : QString());
        return role == Qt::UserRole ? QVariant(qtText(model.title)) : QVariant();
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
        if (reported && !test)
            return tr("needs ≥ %1 folds").arg(minimumPairsForSignificance);
        return test ? QString::number(value, 'g', 3) + significanceMark(value) : QStringLiteral("–");
    }

    const auto &metric = metrics()[static_cast<std::size_t>(column - 1)];
    const double mean = model.mean.*metric.member;
    const bool best = evaluation::isBestModel(*mResult, model, metric);
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
