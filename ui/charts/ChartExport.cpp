// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ChartExport.h"

#include <QAction>
#include <QFileDialog>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace gpumem::ui {

bool saveWidgetPng(QWidget *widget, const QString &path)
{
    return widget->grab().save(path, "PNG");
}

bool saveWidgetSvg(QWidget *widget, const QString &path)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(widget->size());
    generator.setViewBox(QRect(QPoint(0, 0), widget->size()));
    generator.setTitle(widget->objectName());
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    widget->render(&painter);
    return painter.end();
}

QImage widgetImage(QWidget *widget, const QSize &size)
{
    if (!widget->isVisible() || widget->size().width() < size.width() / 2)
        widget->resize(size);
    return widget->grab().toImage();
}

void addSaveAction(QWidget *widget, const QString &text, const QString &fileName, const QString &filter,
                   std::function<bool(const QString &path)> save)
{
    auto *action = new QAction(text, widget);
    QObject::connect(action, &QAction::triggered, widget, [widget, fileName, filter, save = std::move(save)] {
        const QString path = QFileDialog::getSaveFileName(widget, QObject::tr("Save chart"), fileName, filter);
        if (!path.isEmpty())
            save(path);
    });
    widget->addAction(action);
    widget->setContextMenuPolicy(Qt::ActionsContextMenu);
}

void installChartExport(QWidget *widget, const QString &baseName)
{
    addSaveAction(widget, QObject::tr("Save chart as PNG…"), baseName + QStringLiteral(".png"),
                  QObject::tr("PNG images (*.png)"),
                  [widget](const QString &path) { return saveWidgetPng(widget, path); });
    addSaveAction(widget, QObject::tr("Save chart as SVG…"), baseName + QStringLiteral(".svg"),
                  QObject::tr("SVG drawings (*.svg)"),
                  [widget](const QString &path) { return saveWidgetSvg(widget, path); });
}

} // namespace gpumem::ui
