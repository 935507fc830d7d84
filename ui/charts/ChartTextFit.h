// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QChart;
class QCustomPlot;
class QFont;

namespace gpumem::ui {

// text broken at spaces into lines of at most width pixels in font (a longer word keeps a line).
QString wrappedToWidth(const QString &text, const QFont &font, int width);

// Keeps plot's titles and legend inside the width it has, so that a large font never makes a
// chart (and with it the page) wider than the window: titles wrap onto more lines and a legend
// below the axes takes fewer columns. Called before each replot (applyChartStyle installs it).
void fitChartText(QCustomPlot *plot);

// The same for a QChart, once made: its title wraps, category labels (model names) take the
// room they need rather than end in "...", and a value axis thins its ticks to round steps
// that fit, rather than elide them ("10..20..30"). Follows the chart's later resizes.
void fitChartText(QChart *chart);

} // namespace gpumem::ui
