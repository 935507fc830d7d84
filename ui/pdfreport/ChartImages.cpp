// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pdfreport/ChartImages.h"

#include <QByteArray>
#include <QPainter>
#include <QSvgRenderer>

#include <cmath>

namespace gpumem::pdfreport {

QImage svgImage(const std::string &svg, double scale)
{
    QSvgRenderer renderer(QByteArray::fromStdString(svg));
    if (!renderer.isValid())
        return {};
    const QRectF box = renderer.viewBoxF();
    const QSize size(static_cast<int>(std::ceil(box.width() * scale)),
                     static_cast<int>(std::ceil(box.height() * scale)));
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    renderer.render(&painter);
    return image;
}

} // namespace gpumem::pdfreport
