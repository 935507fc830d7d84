// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/EmptyChartHint.h"

#include "ui/charts/ChartTextFit.h"
#include "ui/charts/QCustomPlotInclude.h"

namespace gpumem::ui {

namespace {

const char *const hintProperty = "gpumemEmptyChartHint";
const char *const hiddenProperty = "gpumemHiddenByEmptyChartHint";
const auto hintName = QStringLiteral("emptyChartHint");

bool holdsData(QCustomPlot *plot)
{
    for (int index = 0; index < plot->plottableCount(); ++index) {
        QCPAbstractPlottable *plottable = plot->plottable(index);
        // A plottable without one-dimensional data (a colour map) counts as drawn.
        if (!plottable->interface1D() || plottable->interface1D()->dataCount() > 0)
            return true;
    }
    return false;
}

// Hides what an empty plot would show as dummy axes; marks each so that only those come back.
void hide(QCPLayerable *layerable)
{
    if (layerable && layerable->visible()) {
        layerable->setVisible(false);
        layerable->setProperty(hiddenProperty, true);
    }
}

void showAgain(QCPLayerable *layerable)
{
    if (layerable && layerable->property(hiddenProperty).toBool()) {
        layerable->setVisible(true);
        layerable->setProperty(hiddenProperty, false);
    }
}

QCPItemText *hintItem(const QCustomPlot *plot)
{
    return plot->findChild<QCPItemText *>(hintName);
}

void update(QCustomPlot *plot)
{
    const QString text = plot->property(hintProperty).toString();
    const bool empty = !text.isEmpty() && !holdsData(plot);
    QCPItemText *hint = hintItem(plot);
    for (QCPAxisRect *rect : plot->axisRects())
        for (QCPAxis *axis : rect->axes()) {
            empty ? hide(axis) : showAgain(axis);
            empty ? hide(axis->grid()) : showAgain(axis->grid());
        }
    empty ? hide(plot->legend) : showAgain(plot->legend);
    if (!empty) {
        if (hint)
            plot->removeItem(hint);
        return;
    }
    if (!hint) {
        hint = new QCPItemText(plot);
        hint->setObjectName(hintName);
        hint->position->setType(QCPItemPosition::ptAxisRectRatio);
        hint->position->setCoords(0.5, 0.5);
        hint->setPositionAlignment(Qt::AlignCenter);
        hint->setTextAlignment(Qt::AlignCenter);
        hint->setClipToAxisRect(false);
        hint->setColor(QColor(90, 90, 90));
    }
    QFont font = plot->font();
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * 1.15);
    hint->setFont(font);
    // The plot's width less a margin: the axis rect may still have the room the hidden axes took.
    hint->setText(wrappedToWidth(text, font, std::max(120, plot->width() - 24)));
}

} // namespace

void setEmptyChartHint(QCustomPlot *plot, const QString &text)
{
    if (!plot)
        return;
    if (!plot->property(hintProperty).isValid())
        QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { update(plot); });
    plot->setProperty(hintProperty, text);
    update(plot);
}

void setEmptyChartHintBelow(QWidget *root, const QString &text)
{
    for (QCustomPlot *plot : root->findChildren<QCustomPlot *>())
        if (!plot->property(hintProperty).isValid())
            setEmptyChartHint(plot, text);
}

QString shownEmptyChartHint(const QCustomPlot *plot)
{
    const QCPItemText *hint = plot ? hintItem(plot) : nullptr;
    // As written, not as wrapped to the plot's width.
    return hint ? plot->property(hintProperty).toString() : QString();
}

} // namespace gpumem::ui
