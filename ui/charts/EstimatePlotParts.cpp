// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/EstimatePlotParts.h"

#include "estimate/GpuProfile.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/widgets/QtText.h"

#include <QCoreApplication>

#include <algorithm>

namespace gpumem::ui {

namespace {
const char *const homeProperty = "estimateHomeRanges";
} // namespace

void resetEstimatePlot(QCustomPlot *plot)
{
    plot->clearPlottables();
    plot->clearItems();
    plot->xAxis->setScaleType(QCPAxis::stLinear);
    plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    plot->xAxis->setNumberFormat(QStringLiteral("gbd"));
    plot->xAxis->setNumberPrecision(6);
}

void setEstimatePlotTitle(QCustomPlot *plot, const QString &text)
{
    // The title is the plot layout's first row, made once by prepareEstimatePlot.
    if (auto *title = qobject_cast<QCPTextElement *>(plot->plotLayout()->elementAt(0)))
        title->setText(text);
}

void setEstimatePlotHome(QCustomPlot *plot, double xLower, double xUpper, double yLower, double yUpper)
{
    plot->setProperty(homeProperty, QVariantList{xLower, xUpper, yLower, yUpper});
    plot->xAxis->setRange(xLower, xUpper);
    plot->yAxis->setRange(yLower, yUpper);
    plot->replot();
}

void goEstimatePlotHome(QCustomPlot *plot)
{
    const QVariantList home = plot->property(homeProperty).toList();
    if (home.size() != 4)
        return;
    plot->xAxis->setRange(home[0].toDouble(), home[1].toDouble());
    plot->yAxis->setRange(home[2].toDouble(), home[3].toDouble());
    plot->replot();
}

QCPItemText *addEstimatePlotLabel(QCustomPlot *plot, const QString &text, const QColor &colour)
{
    auto *label = new QCPItemText(plot);
    label->setText(text);
    label->setColor(colour);
    label->setFont(plot->xAxis->tickLabelFont());
    label->setPadding(QMargins(4, 2, 4, 2));
    label->setClipToAxisRect(true);
    return label;
}

QCPItemStraightLine *addEstimatePlotLine(QCustomPlot *plot, const QString &name, const QPen &pen, double x1, double y1,
                                         double x2, double y2)
{
    auto *line = new QCPItemStraightLine(plot);
    line->setObjectName(name);
    line->setPen(pen);
    line->point1->setCoords(x1, y1);
    line->point2->setCoords(x2, y2);
    return line;
}

void addCapacityLine(QCustomPlot *plot, const estimate::GpuProfile &profile, bool labelAtLeft)
{
    const QColor capacityColour(160, 20, 20);
    addEstimatePlotLine(plot, QStringLiteral("capacityLine"), QPen(capacityColour, 1.5, Qt::DashLine), 0.0,
                        profile.capacityMib, 1.0, profile.capacityMib);
    QCPItemText *label = addEstimatePlotLabel(plot,
                                              QCoreApplication::translate("EstimateCharts", "%1 capacity: %L2 MiB")
                                                  .arg(qtText(profile.name))
                                                  .arg(profile.capacityMib, 0, 'f', 0),
                                              capacityColour);
    label->setObjectName(QStringLiteral("capacityLabel"));
    label->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(labelAtLeft ? 0.01 : 0.99, profile.capacityMib);
    label->setPositionAlignment((labelAtLeft ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignBottom);
    // Readable where a line or a bar passes behind it.
    label->setBrush(QColor(255, 255, 255, 210));
}

double markCapacity(QCustomPlot *plot, const estimate::GpuProfile &profile, double highest, bool labelAtLeft)
{
    constexpr double kCapacityShownUpTo = 3.0;
    if (!(highest > 0.0) || profile.capacityMib <= kCapacityShownUpTo * highest) {
        addCapacityLine(plot, profile, labelAtLeft);
        return std::max(highest, profile.capacityMib) * 1.15;
    }
    QCPItemText *above =
        addEstimatePlotLabel(plot,
                             QCoreApplication::translate("EstimateCharts", "%1 capacity: %L2 MiB, far above this chart")
                                 .arg(qtText(profile.name))
                                 .arg(profile.capacityMib, 0, 'f', 0),
                             QColor(160, 20, 20));
    above->setObjectName(QStringLiteral("capacityLabel"));
    above->position->setType(QCPItemPosition::ptAxisRectRatio);
    above->position->setCoords(labelAtLeft ? 0.01 : 0.99, 0.01);
    above->setPositionAlignment((labelAtLeft ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    return highest * 1.2;
}

void useDoublingTicks(QCPAxis *axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    auto doublings = QSharedPointer<QCPAxisTickerLog>::create();
    doublings->setLogBase(2.0);
    doublings->setSubTickCount(0);
    axis->setTicker(doublings);
    axis->setNumberFormat(QStringLiteral("f"));
    axis->setNumberPrecision(0);
}

} // namespace gpumem::ui
