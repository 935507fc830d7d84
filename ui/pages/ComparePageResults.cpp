// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page's result tabs: the metric charts over the metrics table, the
// predicted-versus-actual charts over the clicked job, the residual charts, the
// bound's curves, each model's importance, the partial dependences and the worst rows.
#include "ui/pages/ComparePage.h"

#include "report/SignificanceLegend.h"
#include "ui/charts/PartialDependenceChart.h"
#include "ui/models/MetricsTableModel.h"
#include "ui/models/WorstRowsModel.h"
#include "ui/widgets/FrozenColumnTableView.h"
#include "ui/widgets/JobRowPanel.h"
#include "ui/widgets/ScreenFit.h"
#include "ui/widgets/TableCopy.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace gpumem::ui {

void ComparePage::buildResults()
{
    // A scrolling page named name that lays out its charts in a new grid.
    const auto gridPage = [](QGridLayout *&grid, const QString &name) {
        auto *page = new QWidget;
        grid = new QGridLayout(page);
        QScrollArea *scroll = scrollingPage(page);
        scroll->setObjectName(name);
        return scroll;
    };
    // Both tables sort on the number each cell holds in Qt::UserRole, not on its text.
    const auto sortableTable = [this](QTableView *view, const QString &name, const QString &toolTip,
                                      QAbstractItemModel *model) {
        view->setObjectName(name);
        view->setToolTip(toolTip);
        auto *proxy = new QSortFilterProxyModel(this);
        proxy->setSourceModel(model);
        proxy->setSortRole(Qt::UserRole);
        view->setModel(proxy);
        view->setSortingEnabled(true);
        installTableCopy(view);
        return view;
    };
    mMetrics = new MetricsTableModel(this);
    // The model names stay in view while the many metric columns scroll sideways.
    mMetricsView = sortableTable(new FrozenColumnTableView(this), QStringLiteral("metricsTable"),
                                 tr("Mean ± standard deviation over folds; the best value per metric is "
                                    "highlighted. The p column tests RMSE against the best model's: %1")
                                     .arg(QString::fromStdString(report::significanceMarksLegend())),
                                 mMetrics);
    mMetricsView->sortByColumn(-1, Qt::AscendingOrder); // the comparison's order until a header is clicked
    mMetricsView->verticalHeader()->hide();
    mResults = new QTabWidget(this);
    auto *metricsPage = new QWidget;
    auto *metricsLayout = new QVBoxLayout(metricsPage);
    auto *chartArea = gridPage(mMetricGrid, QStringLiteral("metricCharts"));
    metricsLayout->addWidget(chartArea, 3);
    metricsLayout->addWidget(mMetricsView, 1);
    mResults->addTab(metricsPage, tr("Metrics"));
    // The clicked job's panel stays under the charts while they scroll.
    auto *scatterPage = new QWidget;
    auto *scatterLayout = new QVBoxLayout(scatterPage);
    scatterLayout->setContentsMargins(0, 0, 0, 0);
    scatterLayout->addWidget(gridPage(mScatterGrid, QStringLiteral("scatterCharts")), 1);
    mJobRow = new JobRowPanel(scatterPage);
    scatterLayout->addWidget(mJobRow);
    mResults->addTab(scatterPage, tr("Predicted vs actual"));
    mResults->addTab(gridPage(mResidualGrid, QStringLiteral("residualCharts")), tr("Residuals"));
    mResults->addTab(gridPage(mBoundGrid, QStringLiteral("boundCharts")), tr("Out-of-memory risk"));
    // Without a bound the tab would be blank: it says how to get one instead.
    mBoundHint = new QLabel(tr("The out-of-memory risk charts an upper bound of each model's predictions: tick "
                               "'Upper bound at coverage' above and run the comparison."),
                            this);
    mBoundHint->setObjectName(QStringLiteral("boundHint"));
    mBoundHint->setWordWrap(true);
    mBoundHint->setAlignment(Qt::AlignCenter);
    mBoundGrid->addWidget(mBoundHint, 1, 0);
    mResults->addTab(gridPage(mImportanceGrid, QStringLiteral("importanceCharts")), tr("Importance"));
    mImportanceHint = new QLabel(this);
    mImportanceHint->setObjectName(QStringLiteral("importanceHint"));
    mImportanceHint->setWordWrap(true);
    mImportanceHint->setAlignment(Qt::AlignCenter);
    mImportanceGrid->addWidget(mImportanceHint, 1, 0);
    mPartialDependence = new PartialDependencePane(this);
    mResults->addTab(mPartialDependence, tr("Partial dependence"));
    mWorst = new WorstRowsModel(this);
    mWorstView = sortableTable(new QTableView(this), QStringLiteral("worstTable"),
                               tr("Jobs whose memory was predicted too low (they would run out of memory), largest "
                                  "shortfall first; click a header to sort"),
                               mWorst);
    mWorstView->horizontalHeader()->setStretchLastSection(true);
    mResults->addTab(mWorstView, tr("Worst under-predictions"));
    mResults->setObjectName(QStringLiteral("compareResults"));
}

} // namespace gpumem::ui
