// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QCustomPlot;
class QWidget;

namespace gpumem::ui {

// Says what to do on a chart that has nothing to show yet ("Load a CSV (Ctrl+O) or Help ▸ Demo,
// then train") instead of empty 0–5 axes and an empty legend. While none of plot's curves or
// bars holds data, its axes, grid and legend are hidden and text shows centred, wrapped to the
// plot's width. The plot checks before every replot, so drawing data brings the axes back and
// clearing it brings the text back; call once, or again to change the text.
void setEmptyChartHint(QCustomPlot *plot, const QString &text);

// Gives text to every QCustomPlot below root that has no hint of its own (a page's charts,
// which all wait for the same thing).
void setEmptyChartHintBelow(QWidget *root, const QString &text);

// The text plot shows instead of its axes, or an empty string while it shows data.
QString shownEmptyChartHint(const QCustomPlot *plot);

} // namespace gpumem::ui
