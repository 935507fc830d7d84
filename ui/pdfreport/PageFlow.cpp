// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pdfreport/PageFlow.h"

#include <QAbstractTextDocumentLayout>
#include <QPagedPaintDevice>
#include <QPainter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>

#include <cmath>

namespace gpumem::pdfreport {

namespace {

int pageOf(double y, double pageHeight)
{
    return static_cast<int>(std::floor(y / pageHeight));
}

bool holdsImage(const QTextDocument &document, const QTextFrame &frame)
{
    for (QTextBlock block = document.findBlock(frame.firstPosition());
         block.isValid() && block.position() <= frame.lastPosition(); block = block.next())
        for (auto fragment = block.begin(); !fragment.atEnd(); ++fragment)
            if (fragment.fragment().charFormat().isImageFormat())
                return true;
    return false;
}

// Moves the first table of images that straddles two pages to the next one.
bool moveCutChartRow(QTextDocument &document, double pageHeight)
{
    for (QTextFrame *frame : document.rootFrame()->childFrames()) {
        auto *table = qobject_cast<QTextTable *>(frame);
        if (!table || !holdsImage(document, *table))
            continue;
        const QRectF box = document.documentLayout()->frameBoundingRect(table);
        QTextTableFormat format = table->format();
        if (box.height() >= pageHeight || pageOf(box.top(), pageHeight) == pageOf(box.bottom() - 1.0, pageHeight) ||
            (format.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore))
            continue;
        format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        table->setFormat(format);
        return true;
    }
    return false;
}

// Moves the first heading that would end its page without the two blocks after it to the next page.
bool moveOrphanedHeading(QTextDocument &document, double pageHeight)
{
    const QAbstractTextDocumentLayout &layout = *document.documentLayout();
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        if (format.headingLevel() == 0 || !block.next().isValid() ||
            (format.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore))
            continue;
        // The two blocks after a heading: its note and the first line of the table or
        // charts the note introduces, or the first two lines of what follows.
        const QTextBlock after = block.next().next().isValid() ? block.next().next() : block.next();
        const QRectF heading = layout.blockBoundingRect(block);
        const QRectF next = layout.blockBoundingRect(after);
        if (pageOf(heading.top(), pageHeight) == pageOf(next.bottom() - 1.0, pageHeight) ||
            next.bottom() - heading.top() >= pageHeight)
            continue;
        format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        QTextCursor(block).setBlockFormat(format);
        return true;
    }
    return false;
}

} // namespace

int keepTogether(QTextDocument &document)
{
    const double pageHeight = document.pageSize().height();
    int moved = 0;
    // Each move shifts everything after it, so positions are measured again after each one;
    // a moved item is never moved again, so this ends.
    for (;;) {
        document.pageCount(); // finishes the layout
        if (!moveCutChartRow(document, pageHeight) && !moveOrphanedHeading(document, pageHeight))
            return moved;
        ++moved;
    }
}

void drawPages(const QTextDocument &document, QPagedPaintDevice &device, double footerHeight)
{
    QPainter painter(&device);
    const QSizeF page = document.pageSize();
    const int pages = document.pageCount();
    for (int index = 0; index < pages; ++index) {
        if (index > 0)
            device.newPage();
        const QRectF view(0.0, page.height() * index, page.width(), page.height());
        painter.save();
        painter.translate(0.0, -view.top());
        painter.setClipRect(view);
        QAbstractTextDocumentLayout::PaintContext context;
        context.clip = view;
        context.palette.setColor(QPalette::Text, Qt::black);
        document.documentLayout()->draw(&painter, context);
        painter.restore();
        painter.setFont(document.defaultFont());
        painter.drawText(QRectF(0.0, page.height(), page.width(), footerHeight), Qt::AlignCenter,
                         QStringLiteral("%1 / %2").arg(index + 1).arg(pages));
    }
}

} // namespace gpumem::pdfreport
