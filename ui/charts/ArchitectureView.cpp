// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/ArchitectureView.h"

#include <QLocale>
#include <QPainter>
#include <QPainterPath>

namespace gpumem::ui {

namespace {

QColor boxColour(const QString &name)
{
    const QString lower = name.toLower();
    if (lower.contains(QStringLiteral("gru")))
        return {255, 228, 196};
    if (lower.contains(QStringLiteral("transformer")) || lower.contains(QStringLiteral("encoder")))
        return {210, 228, 255};
    if (lower.contains(QStringLiteral("embed")) || lower.contains(QStringLiteral("token")))
        return {218, 242, 218};
    if (lower.contains(QStringLiteral("pool")))
        return {240, 225, 250};
    return {240, 240, 240};
}

} // namespace

ArchitectureView::ArchitectureView(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("architectureView"));
    setToolTip(tr("The network the current hyperparameters build, from the input tokens (top) to the predicted "
                  "memory (bottom): each block's sizes, output tensor shape and parameter count"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ArchitectureView::setBlocks(const std::vector<ArchitectureBox> &blocks, const QString &caption)
{
    mBlocks = blocks;
    mCaption = caption;
    mMessage.clear();
    updateGeometry();
    update();
}

void ArchitectureView::setMessage(const QString &message)
{
    mBlocks.clear();
    mMessage = message;
    update();
}

std::int64_t ArchitectureView::totalParameters() const
{
    std::int64_t total = 0;
    for (const auto &block : mBlocks)
        total += block.parameters;
    return total;
}

QSize ArchitectureView::sizeHint() const
{
    const int line = fontMetrics().lineSpacing();
    // Room for a caption of two lines.
    return {520, static_cast<int>(mBlocks.size()) * (3 * line + 34) + 5 * line};
}

QSize ArchitectureView::minimumSizeHint() const
{
    return {320, 200};
}

void ArchitectureView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().base());
    const QFontMetrics metrics = fontMetrics();
    const int line = metrics.lineSpacing();
    const int margin = line;
    if (!mMessage.isEmpty()) {
        painter.setPen(QColor(150, 20, 20));
        painter.drawText(rect().adjusted(margin, margin, -margin, -margin), Qt::TextWordWrap | Qt::AlignTop, mMessage);
        return;
    }
    if (mBlocks.empty())
        return;

    const int count = static_cast<int>(mBlocks.size());
    const int boxWidth = std::min(width() - 2 * margin, 640);
    const int left = (width() - boxWidth) / 2;
    // The caption wraps: an ensemble's, or a long data file's name, takes more than one line.
    const QRect captionRect =
        metrics.boundingRect(QRect(left, margin, boxWidth, 10 * line), Qt::AlignLeft | Qt::TextWordWrap, mCaption);
    const int captionHeight = captionRect.height() + 6;
    const int totalHeight = line + 8;
    const int arrow = 18;
    const int available = height() - 2 * margin - captionHeight - totalHeight;
    // Boxes fit their three lines; tall windows get more space between them, not emptier boxes.
    const int boxHeight = 3 * line + 12;
    const int spare = std::max(0, available - count * boxHeight - (count - 1) * arrow);
    const int gap = std::min(spare / std::max(1, count), 2 * line);
    int top = margin;

    QFont bold = font();
    bold.setBold(true);
    painter.setPen(palette().text().color());
    painter.drawText(QRect(left, top, boxWidth, captionRect.height()), Qt::AlignLeft | Qt::TextWordWrap, mCaption);
    top += captionHeight;

    const QLocale locale;
    for (int index = 0; index < count; ++index) {
        const ArchitectureBox &block = mBlocks[static_cast<std::size_t>(index)];
        const QRect box(left, top, boxWidth, boxHeight);
        QPainterPath path;
        path.addRoundedRect(box, 8, 8);
        painter.fillPath(path, boxColour(block.name));
        painter.setPen(QPen(QColor(90, 90, 90), 1.2));
        painter.drawPath(path);

        const QRect inner = box.adjusted(10, 4, -10, -4);
        painter.setFont(bold);
        painter.setPen(Qt::black);
        painter.drawText(inner, Qt::AlignLeft | Qt::AlignTop, block.name);
        painter.drawText(inner, Qt::AlignRight | Qt::AlignTop,
                         tr("%1 parameters").arg(locale.toString(static_cast<qlonglong>(block.parameters))));
        painter.setFont(font());
        painter.drawText(inner.adjusted(0, line, 0, 0), Qt::AlignLeft | Qt::AlignTop,
                         metrics.elidedText(block.detail, Qt::ElideRight, inner.width()));
        painter.setPen(QColor(30, 60, 120));
        painter.drawText(inner.adjusted(0, 2 * line, 0, 0), Qt::AlignLeft | Qt::AlignTop,
                         tr("output %1").arg(block.outputShape));

        top += boxHeight;
        if (index + 1 < count) {
            const int x = left + boxWidth / 2;
            const int link = arrow + gap;
            painter.setPen(QPen(QColor(90, 90, 90), 1.5));
            painter.drawLine(x, top + 2, x, top + link - 3);
            QPolygon head;
            head << QPoint(x - 5, top + link - 9) << QPoint(x + 5, top + link - 9) << QPoint(x, top + link - 2);
            painter.setBrush(QColor(90, 90, 90));
            painter.drawPolygon(head);
            painter.setBrush(Qt::NoBrush);
            top += link;
        }
    }
    painter.setFont(bold);
    painter.setPen(palette().text().color());
    painter.drawText(
        QRect(left, top + 6, boxWidth, line), Qt::AlignRight,
        tr("Total: %1 trainable parameters").arg(locale.toString(static_cast<qlonglong>(totalParameters()))));
}

} // namespace gpumem::ui
