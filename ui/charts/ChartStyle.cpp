// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ChartStyle.h"

#include "ui/charts/ChartTextFit.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/widgets/ConnectOnce.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QScatterSeries>
#include <QXYSeries>

#include <cmath>

namespace gpumem::ui {

namespace {

const char *const scaleProperty = "gpumemChartLineScale";
const char *const hookedProperty = "gpumemChartStyleHooked";

// A width or size as scale times the one the chart's own code gave it. The value set last is
// remembered next to the original: a value that differs from it was set anew by the chart's code
// (a curve redrawn, highlighted) and becomes the new original, so scaling never compounds.
double scaledValue(QObject *owner, const char *name, double current)
{
    const QByteArray original = QByteArrayLiteral("gpumemOriginal") + name;
    const QByteArray applied = QByteArrayLiteral("gpumemApplied") + name;
    const QVariant last = owner->property(applied.constData());
    double base = current;
    if (last.isValid() && std::abs(last.toDouble() - current) < 1e-9)
        base = owner->property(original.constData()).toDouble();
    // A zero-width pen is Qt's one-pixel cosmetic pen: it thickens from one pixel.
    const double scale = chartLineScale();
    const double result = base == 0.0 && scale != 1.0 ? scale : base * scale;
    owner->setProperty(original.constData(), base);
    owner->setProperty(applied.constData(), result);
    return result;
}

QPen scaledPen(QObject *owner, QPen pen)
{
    if (pen.style() != Qt::NoPen)
        pen.setWidthF(scaledValue(owner, "PenWidth", pen.widthF()));
    return pen;
}

QCPScatterStyle scaledMarker(QObject *owner, QCPScatterStyle marker)
{
    if (!marker.isNone())
        marker.setSize(scaledValue(owner, "MarkerSize", marker.size()));
    return marker;
}

void styleNow(QCustomPlot *plot)
{
    for (int index = 0; index < plot->plottableCount(); ++index) {
        QCPAbstractPlottable *plottable = plot->plottable(index);
        plottable->setPen(scaledPen(plottable, plottable->pen()));
        if (auto *graph = qobject_cast<QCPGraph *>(plottable))
            graph->setScatterStyle(scaledMarker(graph, graph->scatterStyle()));
        else if (auto *curve = qobject_cast<QCPCurve *>(plottable))
            curve->setScatterStyle(scaledMarker(curve, curve->scatterStyle()));
    }
    // Marks drawn as items: capacity lines, phase marks.
    for (int index = 0; index < plot->itemCount(); ++index) {
        QCPAbstractItem *item = plot->item(index);
        if (auto *line = qobject_cast<QCPItemStraightLine *>(item))
            line->setPen(scaledPen(line, line->pen()));
        else if (auto *segment = qobject_cast<QCPItemLine *>(item))
            segment->setPen(scaledPen(segment, segment->pen()));
    }
    // Larger text must not widen the plot past the room it has.
    fitChartText(plot);
}

} // namespace

double chartLineScale()
{
    const QVariant scale = qApp ? qApp->property(scaleProperty) : QVariant();
    return scale.isValid() ? scale.toDouble() : 1.0;
}

void setChartLineScale(double scale)
{
    if (qApp)
        qApp->setProperty(scaleProperty, scale);
}

void applyChartStyle(QCustomPlot *plot)
{
    if (!plot)
        return;
    connectOnce(hookedProperty, plot, &QCustomPlot::beforeReplot, plot, [plot] { styleNow(plot); });
    styleNow(plot);
}

void applyChartStyle(QChart *chart)
{
    if (!chart)
        return;
    for (QAbstractSeries *series : chart->series()) {
        if (auto *scatter = qobject_cast<QScatterSeries *>(series))
            scatter->setMarkerSize(scaledValue(scatter, "MarkerSize", scatter->markerSize()));
        else if (auto *line = qobject_cast<QXYSeries *>(series))
            line->setPen(scaledPen(line, line->pen()));
        else if (auto *bars = qobject_cast<QAbstractBarSeries *>(series))
            for (QBarSet *set : bars->barSets())
                set->setPen(scaledPen(set, set->pen()));
    }
    fitChartText(chart);
}

void applyChartStyleBelow(QWidget *root)
{
    if (!root)
        return;
    for (QChartView *view : root->findChildren<QChartView *>())
        applyChartStyle(view->chart());
    for (QCustomPlot *plot : root->findChildren<QCustomPlot *>()) {
        applyChartStyle(plot);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace gpumem::ui
