// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QChart;
class QCustomPlot;
class QWidget;

namespace gpumem::ui {

// How thick lines and how large markers are drawn, relative to the widths and sizes each chart
// was made with: View ▸ Zoom's step over 100 %, so that a curve reads from the back of a room
// as well as its labels do. One application-wide value; 1 until the main window sets it.
double chartLineScale();
void setChartLineScale(double scale);

// Draws plot's curves, bars, markers and lines at chartLineScale(), and fits its text to its width
// (fitChartText). Curves the plot gets later follow too: the plot re-applies both before every replot.
void applyChartStyle(QCustomPlot *plot);
// Draws chart's series at chartLineScale() and fits its text to its size (a QChart is made whole,
// so it is styled once made).
void applyChartStyle(QChart *chart);

// Applies the style to every chart (QChartView and QCustomPlot) below root, replotting each.
void applyChartStyleBelow(QWidget *root);

} // namespace gpumem::ui
