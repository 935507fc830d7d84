// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ChartTextFit.h"

#include "ui/charts/QCustomPlotInclude.h"
#include "ui/widgets/ConnectOnce.h"

#include <QBarCategoryAxis>
#include <QChart>
#include <QFontMetrics>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace gpumem::ui {

namespace {

const char *const originalTextProperty = "gpumemOriginalText";
const char *const fittedTextProperty = "gpumemFittedText";
const char *const originalWrapProperty = "gpumemOriginalLegendWrap";
const char *const fittedChartProperty = "gpumemChartTextFitted";
const char *const originalTicksProperty = "gpumemOriginalTickCount";

// The text the chart's code gave, however often it was wrapped since: a text that differs from
// the wrapped one set last was set anew.
QString originalText(QObject *owner, const QString &current)
{
    if (owner->property(fittedTextProperty).toString() != current)
        owner->setProperty(originalTextProperty, current);
    return owner->property(originalTextProperty).toString();
}

void fitTitle(QCPTextElement *title, int width)
{
    const QString original = originalText(title, title->text());
    const QString fitted = wrappedToWidth(original, title->font(), width);
    title->setProperty(fittedTextProperty, fitted);
    if (fitted != title->text())
        title->setText(fitted);
    // Its lines' height, but no width of its own: the plot's width decides where it wraps.
    title->setMinimumSize(1, 0);
}

// A legend in the plot's rows (not inside the axes) takes as many of its columns as fit.
void fitLegend(QCPLegend *legend, int width)
{
    if (!legend || legend->fillOrder() != QCPLayoutGrid::foColumnsFirst || legend->itemCount() == 0)
        return;
    if (!legend->property(originalWrapProperty).isValid())
        legend->setProperty(originalWrapProperty, legend->wrap());
    const int most = std::max(1, legend->property(originalWrapProperty).toInt());
    int widest = 1;
    for (int index = 0; index < legend->itemCount(); ++index)
        if (QCPAbstractLegendItem *item = legend->item(index))
            widest = std::max(widest, item->minimumOuterSizeHint().width());
    const int columns = std::clamp(width / (widest + legend->columnSpacing()), 1, most);
    if (columns != legend->wrap()) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
    legend->setMinimumSize(1, 0);
}

// The tick count that spaces axis's labels apart on width pixels, as a multiple of its own step.
void thinTicks(QValueAxis *axis, qreal width)
{
    if (!axis->property(originalTicksProperty).isValid())
        axis->setProperty(originalTicksProperty, axis->tickCount());
    const int ticks = std::max(2, axis->property(originalTicksProperty).toInt());
    const QFontMetrics metrics(axis->labelsFont());
    const QByteArray format = axis->labelFormat().toLatin1();
    int widest = 0;
    for (const double value : {axis->min(), axis->max(), (axis->min() + axis->max()) / 2})
        widest = std::max(widest, metrics.horizontalAdvance(QString::asprintf(format.constData(), value)));
    // A label and an em of space between neighbours.
    const int fitting = std::max(2, static_cast<int>(width / (widest + metrics.height())) + 1);
    if (fitting >= ticks) {
        axis->setTickType(QValueAxis::TicksFixed);
        axis->setTickCount(ticks);
        return;
    }
    const double step = (axis->max() - axis->min()) / (ticks - 1);
    const int every = static_cast<int>(std::ceil((ticks - 1.0) / (fitting - 1.0)));
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(axis->min());
    axis->setTickInterval(step * every);
}

void fitNow(QChart *chart)
{
    const qreal width = chart->size().width();
    const QString original = originalText(chart, chart->title());
    // Rich text: the title item breaks lines at <br>.
    const QString fitted = QFontMetrics(chart->titleFont()).horizontalAdvance(original) > width - 24
                               ? wrappedToWidth(original, chart->titleFont(), static_cast<int>(width) - 24)
                                     .toHtmlEscaped()
                                     .replace(QLatin1Char('\n'), QStringLiteral("<br>"))
                               : original;
    chart->setProperty(fittedTextProperty, fitted);
    if (fitted != chart->title())
        chart->setTitle(fitted);
    for (QAbstractAxis *axis : chart->axes()) {
        if (auto *categories = qobject_cast<QBarCategoryAxis *>(axis))
            categories->setTruncateLabels(false);
        else if (auto *values = qobject_cast<QValueAxis *>(axis); values && values->orientation() == Qt::Horizontal)
            thinTicks(values, chart->plotArea().width());
    }
}

} // namespace

QString wrappedToWidth(const QString &text, const QFont &font, int width)
{
    const QFontMetrics metrics(font);
    QStringList lines;
    for (const QString &paragraph : text.split(QLatin1Char('\n'))) {
        QString line;
        for (const QString &word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
            if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
                lines << line;
                line = word;
            } else {
                line = longer;
            }
        }
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

void fitChartText(QCustomPlot *plot)
{
    const int width = std::max(60, plot->width() - 16);
    // Through QWidget, where the hint is public.
    const QWidget *widget = plot;
    const QSize before = widget->minimumSizeHint();
    QCPLayoutGrid *layout = plot->plotLayout();
    for (int index = 0; index < layout->elementCount(); ++index) {
        if (auto *title = qobject_cast<QCPTextElement *>(layout->elementAt(index)))
            fitTitle(title, width);
        else if (auto *legend = qobject_cast<QCPLegend *>(layout->elementAt(index)))
            fitLegend(legend, width);
    }
    // An axis title longer than its axis (a long y title on a short chart) wraps onto a second line.
    for (QCPAxisRect *rect : plot->axisRects())
        for (QCPAxis *axis : rect->axes()) {
            const int length = axis->orientation() == Qt::Vertical ? rect->height() : rect->width();
            const QString original = originalText(axis, axis->label());
            const QString fitted = length > 40 ? wrappedToWidth(original, axis->labelFont(), length - 8) : original;
            axis->setProperty(fittedTextProperty, fitted);
            if (fitted != axis->label())
                axis->setLabel(fitted);
        }
    // The page's layout asks again for the room the plot needs (taller with wrapped lines).
    if (widget->minimumSizeHint() != before)
        plot->updateGeometry();
}

void fitChartText(QChart *chart)
{
    if (!chart)
        return;
    connectOnce(fittedChartProperty, chart, &QChart::plotAreaChanged, chart, [chart] { fitNow(chart); });
    fitNow(chart);
}

} // namespace gpumem::ui
