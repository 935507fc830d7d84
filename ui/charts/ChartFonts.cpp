// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ChartFonts.h"

#include "ui/charts/ChartStyle.h"
#include "ui/charts/QCustomPlotInclude.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QLegend>

namespace gpumem::ui {

namespace {

QFont scaled(const QFont &base, double factor, bool bold = false)
{
    QFont font = base;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(static_cast<int>(font.pixelSize() * factor + 0.5));
    font.setBold(bold);
    return font;
}

// Titles stand out from labels; tick numbers are the least read text.
constexpr double titleFactor = 1.15;
constexpr double tickFactor = 0.9;

} // namespace

void applyChartFonts(QChart *chart, const QFont &base)
{
    if (!chart)
        return;
    chart->setTitleFont(scaled(base, titleFactor, true));
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setTitleFont(base);
        axis->setLabelsFont(scaled(base, tickFactor));
    }
    if (QLegend *legend = chart->legend())
        legend->setFont(base);
    // A chart made after a zoom change gets its lines at the zoom's thickness here too.
    applyChartStyle(chart);
}

void applyChartFonts(QCustomPlot *plot, const QFont &base)
{
    if (!plot)
        return;
    plot->setFont(base);
    for (QCPAxisRect *rect : plot->axisRects())
        for (QCPAxis *axis : rect->axes()) {
            axis->setLabelFont(base);
            axis->setTickLabelFont(scaled(base, tickFactor));
        }
    if (plot->legend)
        plot->legend->setFont(base);
    for (int element = 0; element < plot->plotLayout()->elementCount(); ++element)
        if (auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->elementAt(element)))
            title->setFont(scaled(base, titleFactor, true));
    // Labels in the plot (a capacity line's, a phase mark's) read like tick labels.
    for (int item = 0; item < plot->itemCount(); ++item)
        if (auto *label = qobject_cast<QCPItemText *>(plot->item(item)))
            label->setFont(scaled(base, tickFactor));
}

void applyChartFontsBelow(QWidget *root, const QFont &base)
{
    if (!root)
        return;
    for (QChartView *view : root->findChildren<QChartView *>())
        applyChartFonts(view->chart(), base);
    for (QCustomPlot *plot : root->findChildren<QCustomPlot *>()) {
        applyChartFonts(plot, base);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace gpumem::ui
