// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ColumnCharts.h"

#include "ui/charts/ChartExport.h"
#include "ui/charts/ColumnHistogram.h"
#include "ui/charts/FeatureTargetScatter.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/charts/TargetCorrelationsView.h"
#include "ui/widgets/NamedWidget.h"

#include <QProgressBar>

#include <algorithm>

namespace gpumem::ui {

ColumnCharts::ColumnCharts(QWidget *parent)
    : QTabWidget(parent)
{
    setObjectName(QStringLiteral("columnCharts"));
    mHistogram =
        namedWidget<QCustomPlot>(QStringLiteral("targetHistogram"), tr("How the target values are distributed"), this);
    mHistogram->setMinimumHeight(200);
    mHistogram->xAxis->setLabel(tr("target"));
    mHistogram->yAxis->setLabel(tr("rows"));
    mHistogram->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    installChartExport(mHistogram, QStringLiteral("target_histogram"));
    mScatter = new FeatureTargetScatter(this);
    mCorrelations = new TargetCorrelationsView(this);
    addTab(mHistogram, tr("Distribution"));
    setTabToolTip(DistributionTab, tr("How the target's values are distributed"));
    addTab(mScatter, tr("Against target"));
    setTabToolTip(ScatterTab, tr("The column selected above against the target"));
    addTab(mCorrelations, tr("Correlations"));
    setTabToolTip(CorrelationsTab, tr("Each numeric feature's correlation with the target"));

    // Range 0–0 makes the bar a busy indicator: what is computed has no steps to count.
    mBusy = namedWidget<QProgressBar>(QStringLiteral("chartsBusy"), tr("The charts are being computed"), this);
    mBusy->setRange(0, 0);
    mBusy->setMaximumWidth(80);
    mBusy->setMaximumHeight(14);
    mBusy->setTextVisible(false);
    mBusy->hide();
    setCornerWidget(mBusy, Qt::TopRightCorner);
    connect(mScatter, &FeatureTargetScatter::computingEnded, this, &ColumnCharts::updateBusy);
    connect(mCorrelations, &TargetCorrelationsView::computingEnded, this, &ColumnCharts::updateBusy);
}

void ColumnCharts::showData(const std::shared_ptr<const data::Table> &table, const std::vector<data::ColumnRole> &roles,
                            std::optional<std::size_t> selected)
{
    const bool sameTable = table && mShownTable.lock() == table;
    const bool sameRoles = sameTable && roles == mShownRoles;
    if (sameRoles && selected == mShownColumn)
        return;
    std::optional<std::size_t> target;
    if (const auto found = std::find(roles.begin(), roles.end(), data::ColumnRole::Target); found != roles.end())
        target = static_cast<std::size_t>(found - roles.begin());
    if (!sameRoles) {
        showHistogram(table.get(), target);
        mCorrelations->showCorrelations(table, roles);
    }
    mScatter->showColumn(table, selected, target);
    mShownTable = table;
    mShownRoles = roles;
    mShownColumn = selected;
    updateBusy();
}

bool ColumnCharts::isComputing() const
{
    return mScatter->isComputing() || mCorrelations->isComputing();
}

void ColumnCharts::showHistogram(const data::Table *table, std::optional<std::size_t> target)
{
    // One pass over the target's values: milliseconds even for a million rows, so it stays here.
    mHistogram->clearPlottables();
    if (!table || !target || table->column(*target).type != data::ColumnType::Numeric) {
        mHistogram->replot();
        return;
    }
    drawHistogram(mHistogram, table->column(*target));
}

void ColumnCharts::updateBusy()
{
    const bool computing = isComputing();
    mBusy->setVisible(computing);
    if (!computing)
        Q_EMIT settled();
}

} // namespace gpumem::ui
