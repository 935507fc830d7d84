// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/ChartExport.h"

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

void installChartExport(QWidget *widget, const QString &baseName)
{
    auto *png = new QAction(QObject::tr("Save chart as PNG…"), widget);
    QObject::connect(png, &QAction::triggered, widget, [widget, baseName] {
        const QString path = QFileDialog::getSaveFileName(
            widget, QObject::tr("Save chart"), baseName + QStringLiteral(".png"), QObject::tr("PNG images (*.png)"));
        if (!path.isEmpty())
            saveWidgetPng(widget, path);
    });
    auto *svg = new QAction(QObject::tr("Save chart as SVG…"), widget);
    QObject::connect(svg, &QAction::triggered, widget, [widget, baseName] {
        const QString path = QFileDialog::getSaveFileName(
            widget, QObject::tr("Save chart"), baseName + QStringLiteral(".svg"), QObject::tr("SVG drawings (*.svg)"));
        if (!path.isEmpty())
            saveWidgetSvg(widget, path);
    });
    widget->addAction(png);
    widget->addAction(svg);
    widget->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace gpumem::ui
