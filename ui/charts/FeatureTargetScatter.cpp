// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/FeatureTargetScatter.h"

#include "ui/charts/ChartExport.h"
#include "ui/charts/QCustomPlotInclude.h"

#include <QScopeGuard>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

namespace gpumem::ui {

namespace {

// The same sample every time a column is shown: the chart must not change when
// the user comes back to a column.
constexpr std::uint64_t sampleSeed = 1;

// Spreads the points of a category across its strip so that they do not all sit on
// one line; the golden-ratio sequence fills the strip evenly without a random draw,
// so the same table always gives the same picture.
double stripOffset(std::size_t point)
{
    const double golden = 0.6180339887498949;
    const double fraction = std::fmod(static_cast<double>(point) * golden, 1.0);
    return (fraction - 0.5) * 0.6;
}

} // namespace

FeatureTargetScatter::FeatureTargetScatter(QWidget *parent)
    : QWidget(parent)
    , mPlot(new QCustomPlot(this))
{
    mPlot->setObjectName(QStringLiteral("featureScatter"));
    mPlot->setToolTip(tr("The selected column against the target, one point a row"));
    mPlot->setMinimumHeight(200);
    mPlot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    mPlot->plotLayout()->insertRow(0);
    mTitle = new QCPTextElement(mPlot, QString());
    mPlot->plotLayout()->addElement(0, 0, mTitle);
    installChartExport(mPlot, QStringLiteral("feature_against_target"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mPlot);
    showMessage(tr("Select a column to plot it against the target."));
}

void FeatureTargetScatter::clear()
{
    mSampling.cancel();
    showMessage(tr("Select a column to plot it against the target."));
}

void FeatureTargetScatter::showColumn(std::shared_ptr<const data::Table> table, std::optional<std::size_t> feature,
                                      std::optional<std::size_t> target)
{
    mSampling.cancel();
    if (!table || !feature || *feature >= table->columnCount()) {
        clear();
        return;
    }
    const data::Column &featureColumn = table->column(*feature);
    mFeatureName = QString::fromStdString(featureColumn.name);
    if (!target || table->column(*target).type != data::ColumnType::Numeric) {
        showMessage(tr("Choose a numeric target to plot %1 against it.").arg(mFeatureName));
        return;
    }
    if (*feature == *target) {
        showMessage(tr("%1 is the target: its distribution is on the Distribution tab.").arg(mFeatureName));
        return;
    }
    switch (featureColumn.type) {
    case data::ColumnType::Numeric:
    case data::ColumnType::Categorical: break;
    case data::ColumnType::Identifier:
        showMessage(
            tr("%1 is not numeric: it names each row (an identifier), so it has no scatter.").arg(mFeatureName));
        return;
    case data::ColumnType::Sequence:
        showMessage(
            tr("%1 is not numeric: it holds a layer sequence per row, so it has no scatter.").arg(mFeatureName));
        return;
    case data::ColumnType::Empty: showMessage(tr("%1 holds no values.").arg(mFeatureName)); return;
    }
    mTargetName = QString::fromStdString(table->column(*target).name);
    mTitle->setText(tr("Drawing %1 against %2 …").arg(mFeatureName, mTargetName));
    mPlot->replot();
    mAwaitingSample = true;
    const std::size_t featureIndex = *feature, targetIndex = *target;
    // The table is immutable and shared: the worker reads it while the page may show another.
    mSampling.start([table, featureIndex, targetIndex](SampleOutcome &outcome, runtime::OperationControl *) {
        outcome.sample =
            data::featureTargetSample(table->column(featureIndex), table->column(targetIndex), maxPoints, sampleSeed);
    });
}

void FeatureTargetScatter::showSample()
{
    const SampleOutcome outcome = mSampling.take();
    // Said on every way out, after the result is on show: the page's busy bar goes by it.
    const auto ended = qScopeGuard([this] { Q_EMIT computingEnded(); });
    // A sample asked for before a message replaced it comes too late to show.
    if (!std::exchange(mAwaitingSample, false))
        return;
    const data::FeatureTargetSample &sample = outcome.sample;
    mPlot->clearGraphs();
    const bool strips = !sample.categories.empty();
    QVector<double> x(static_cast<qsizetype>(sample.feature.size())), y(x.size());
    for (std::size_t point = 0; point < sample.feature.size(); ++point) {
        x[static_cast<qsizetype>(point)] = sample.feature[point] + (strips ? stripOffset(point) : 0.0);
        y[static_cast<qsizetype>(point)] = sample.target[point];
    }
    auto *points = mPlot->addGraph();
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(40, 90, 160, 90), 4));
    // The rows come in row order, not sorted by x: the graph sorts them, as it needs to.
    points->setData(x, y);
    mPlot->xAxis->setLabel(mFeatureName);
    mPlot->yAxis->setLabel(mTargetName);
    if (strips) {
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (std::size_t category = 0; category < sample.categories.size(); ++category)
            ticker->addTick(static_cast<double>(category), QString::fromStdString(sample.categories[category]));
        mPlot->xAxis->setTicker(ticker);
    } else {
        mPlot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    const auto drawn = static_cast<qulonglong>(sample.feature.size());
    const auto usable = static_cast<qulonglong>(sample.usableRows);
    QString title = drawn < usable ? tr("%1 against %2: %L3 of %L4 rows, drawn at random")
                                         .arg(mFeatureName, mTargetName)
                                         .arg(drawn)
                                         .arg(usable)
                                   : tr("%1 against %2: all %L3 rows").arg(mFeatureName, mTargetName).arg(usable);
    if (strips)
        title += tr(" (one strip per category)");
    mTitle->setText(title);
    mPlot->rescaleAxes();
    if (strips)
        mPlot->xAxis->setRange(-0.6, static_cast<double>(sample.categories.size()) - 0.4);
    else
        mPlot->xAxis->scaleRange(1.05);
    mPlot->yAxis->scaleRange(1.05);
    mPlot->replot();
    Q_EMIT shown();
}

void FeatureTargetScatter::showMessage(const QString &message)
{
    mAwaitingSample = false;
    mPlot->clearGraphs();
    mPlot->xAxis->setLabel(QString());
    mPlot->yAxis->setLabel(QString());
    mTitle->setText(message);
    mPlot->replot();
}

int FeatureTargetScatter::pointCount() const
{
    return mPlot->graphCount() > 0 ? mPlot->graph(0)->dataCount() : 0;
}

QString FeatureTargetScatter::titleText() const
{
    return mTitle->text();
}

} // namespace gpumem::ui
