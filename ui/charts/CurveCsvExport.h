// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <string>

class QCustomPlot;

namespace gpumem::ui {

// The points of the curves a chart shows, as CSV (RFC 4180) with the header
// "curve,x,y,axis": one row per point of every visible curve, in the curves' order,
// with the curve's legend name, its position along the horizontal axis, its value,
// and the label of the axis the value is read on (e.g. "RMSE (MiB)"), since one chart
// may hold curves in different units. Numbers are written so that they read back exactly.
std::string curvesCsv(const QCustomPlot &chart);
// Writes curvesCsv(chart) to path (replacing it whole, or not at all); false when it cannot.
bool saveCurvesCsv(const QCustomPlot &chart, const QString &path);
// Adds "Export CSV…" to chart's context menu, proposing baseName.csv.
void installCurveCsvExport(QCustomPlot *chart, const QString &baseName);

} // namespace gpumem::ui
