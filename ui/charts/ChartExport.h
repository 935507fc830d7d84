// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QImage>
#include <QString>

#include <functional>

class QWidget;

namespace gpumem::ui {

// Saves what widget shows (a chart with its legend and axis labels) as a PNG
// image; returns false when the file cannot be written.
bool saveWidgetPng(QWidget *widget, const QString &path);
// Saves widget as an SVG drawing (vector where the widget paints vectors).
bool saveWidgetSvg(QWidget *widget, const QString &path);
// Returns widget rendered at size (laid out at that size first when hidden).
QImage widgetImage(QWidget *widget, const QSize &size);
// Gives widget a context menu with "Save as PNG…" and "Save as SVG…".
void installChartExport(QWidget *widget, const QString &baseName);
// Adds to widget's context menu an action named text that asks where to save
// (proposing fileName, offering filter) and saves there with save, which returns
// whether it could write the file.
void addSaveAction(QWidget *widget, const QString &text, const QString &fileName, const QString &filter,
                   std::function<bool(const QString &path)> save);

} // namespace gpumem::ui
