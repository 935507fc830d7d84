// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QColor;
class QCPAxis;
class QCPItemStraightLine;
class QCPItemText;
class QCustomPlot;
class QPen;

namespace gpumem::estimate {
struct GpuProfile;
}

namespace gpumem::ui {

// The parts every chart of an estimate is drawn with, on a plot made ready by
// prepareEstimatePlot (EstimateCharts.h): so that the charts of a TorchScript
// model and of a language model look and behave alike. GUI thread.

// Empties plot (graphs, bars, lines, labels) and gives its x axis linear ticks again.
void resetEstimatePlot(QCustomPlot *plot);
// Sets the title row prepareEstimatePlot made.
void setEstimatePlotTitle(QCustomPlot *plot, const QString &text);
// Shows the ranges, and keeps them as those a double-click returns to.
void setEstimatePlotHome(QCustomPlot *plot, double xLower, double xUpper, double yLower, double yUpper);
// Returns plot to the ranges setEstimatePlotHome kept.
void goEstimatePlotHome(QCustomPlot *plot);

// Adds a label in the plot's tick font (so that View ▸ Large font reaches it), clipped to the axes.
QCPItemText *addEstimatePlotLabel(QCustomPlot *plot, const QString &text, const QColor &colour);
// Adds a straight line through two points, named name for tests to find.
QCPItemStraightLine *addEstimatePlotLine(QCustomPlot *plot, const QString &name, const QPen &pen, double x1, double y1,
                                         double x2, double y2);
// Adds profile's capacity as a dashed horizontal line ("capacityLine") labelled at the right
// edge, or at the left one where the chart's lines rise to the right.
void addCapacityLine(QCustomPlot *plot, const estimate::GpuProfile &profile, bool labelAtLeft = false);
// Marks profile's capacity on a chart whose tallest value is highest MiB: its line, as
// addCapacityLine draws it; or, for a card more than three times as large, whose line
// would flatten the chart to slivers, a label at the top saying that the capacity lies
// far above. Returns the top of the value axis that shows the values and the line.
double markCapacity(QCustomPlot *plot, const estimate::GpuProfile &profile, double highest, bool labelAtLeft = false);
// Makes axis logarithmic with a tick at each power of two, labelled as a whole number.
void useDoublingTicks(QCPAxis *axis);

} // namespace gpumem::ui
