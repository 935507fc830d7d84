// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page's charts: laid out in grids as wide as the page allows, and
// the tabs that explain the models (importance, partial dependence, the clicked job).
#include "ui/pages/ComparePage.h"

#include "ui/app/WorkbenchState.h"
#include "ui/charts/ChartExport.h"
#include "ui/charts/ChartFonts.h"
#include "ui/charts/ImportanceChart.h"
#include "ui/charts/PartialDependenceChart.h"
#include "ui/models/MetricsTableModel.h"
#include "ui/widgets/JobRowPanel.h"
#include "ui/widgets/QtText.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace gpumem::ui {

namespace {

// A chart narrower than this cuts its title; the grids put as many side by side as fit.
constexpr int minimumChartWidth = 330;
constexpr int chartSpacing = 12;    // between charts in a grid
constexpr int chartAreaMargin = 28; // the tab frame, the scroll area and its vertical scroll bar

} // namespace

void ComparePage::clearCharts()
{
    mPlacements.clear();
    for (QChartView *view : mChartViews)
        delete view;
    mChartViews.clear();
}

QChartView *ComparePage::addChart(QChart *chart, QGridLayout *grid, int index, int columns, const QString &name)
{
    // A chart takes its text sizes from the application font, so it follows View ▸ Large font.
    applyChartFonts(chart, QApplication::font());
    auto *view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(minimumChartWidth, 280);
    view->setObjectName(name);
    view->setToolTip(tr("Right-click to save this chart as PNG or SVG"));
    installChartExport(view, name);
    mChartViews.push_back(view);
    mPlacements.push_back({view, grid, index, columns});
    placeChart(mPlacements.back());
    return view;
}

int ComparePage::chartColumns(int most) const
{
    // As many columns as the results area holds without a horizontal scroll bar.
    const int available = mResults->width() - 2 * chartAreaMargin;
    return std::clamp(available / (minimumChartWidth + chartSpacing), 1, std::max(1, most));
}

void ComparePage::placeChart(const ChartPlacement &placement)
{
    const int columns = chartColumns(placement.mostColumns);
    placement.grid->removeWidget(placement.view);
    placement.grid->addWidget(placement.view, placement.index / columns, placement.index % columns);
}

void ComparePage::changeEvent(QEvent *event)
{
    // View ▸ Large font: the tables' columns were sized for the old font.
    // Later, not now: the headers take the new font after the page does, and columns sized to the
    // old font's header text cut it ("der-prediction ra").
    if (event->type() == QEvent::FontChange)
        QTimer::singleShot(0, this, &ComparePage::fitTables);
    QWidget::changeEvent(event);
}

void ComparePage::fitTables()
{
    mMetricsView->resizeColumnsToContents();
    mWorstView->resizeColumnsToContents();
    // Every model's row in view (up to ten) under the two-line header and above the sideways scroll bar.
    const int rows = std::min(mMetrics->rowCount(), 10);
    mMetricsView->setMinimumHeight(mMetricsView->horizontalHeader()->sizeHint().height() +
                                   rows * mMetricsView->verticalHeader()->defaultSectionSize() +
                                   mMetricsView->horizontalScrollBar()->sizeHint().height() +
                                   2 * mMetricsView->frameWidth());
}

void ComparePage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    for (const ChartPlacement &placement : mPlacements)
        placeChart(placement);
}

void ComparePage::showExplanations()
{
    const auto result = mState->comparison();
    const bool shown = result && !result->models.empty();
    mJobRow->setComparison(shown ? result : nullptr, mState->comparisonDataset(), mState->table(),
                           mState->comparisonContext().features);
    mPartialDependence->setResult(shown ? result : nullptr);
    const bool explained = shown && !result->inputs.empty();
    mImportanceHint->setVisible(!explained);
    mImportanceHint->setText(shown ? tr("This comparison measured no importance: it was saved without it. Run it "
                                        "again to measure it.")
                                   : tr("Run the comparison to see which inputs each model relies on: how much its "
                                        "RMSE grows when one input's values are shuffled among the test jobs."));
    if (!explained)
        return;
    // One scale for every model: a longer bar is a larger loss of accuracy, whichever chart it is in.
    const ImportanceAxis axis = importanceAxis(*result);
    int index = 0;
    for (const auto &model : result->models)
        addChart(importanceChart(qtText(model.title), model.importance, axis), mImportanceGrid, index++, 3,
                 QStringLiteral("importance_%1").arg(qtText(model.name)))
            ->setMinimumHeight(importanceChartHeight(result->inputs.size()));
}

} // namespace gpumem::ui
