// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/RunsChart.h"

#include "ui/charts/ChartExport.h"
#include "ui/charts/CurveCsvExport.h"
#include "ui/charts/QCustomPlotInclude.h"

#include <QVBoxLayout>

namespace gpumem::ui {

RunsChart::RunsChart(const QString &objectName, const QString &title, const QString &fileStem, QWidget *parent)
    : QWidget(parent)
    , mChart(new QCustomPlot(this))
{
    mChart->setObjectName(objectName);
    mChart->setMinimumSize(280, 200);
    mChart->plotLayout()->insertRow(0);
    mChart->plotLayout()->addElement(0, 0, new QCPTextElement(mChart, title));
    installChartExport(mChart, fileStem);
    installCurveCsvExport(mChart, fileStem);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mChart, 1);
}

void RunsChart::addControls(QLayout *controls)
{
    // The plot was added first, in the constructor: the controls go above it.
    static_cast<QVBoxLayout *>(layout())->insertLayout(0, controls);
}

} // namespace gpumem::ui
