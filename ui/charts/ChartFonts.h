// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>

class QChart;
class QCustomPlot;
class QWidget;

namespace gpumem::ui {

// Sets a chart's text from base, normally the application font: the title bold
// and a little larger, axis titles and the legend at base, tick labels a little
// smaller. Charts keep the fonts they were made with otherwise, so this is what
// makes View ▸ Zoom reach titles, labels and legends. A QChart also gets its lines and markers
// at the zoom's thickness (applyChartStyle), since pages make one whole and call this once.
void applyChartFonts(QChart *chart, const QFont &base);
void applyChartFonts(QCustomPlot *plot, const QFont &base);

// Applies base to every chart (QChartView and QCustomPlot) below root, replotting each.
void applyChartFontsBelow(QWidget *root, const QFont &base);

} // namespace gpumem::ui
