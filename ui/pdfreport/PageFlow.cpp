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
#include <functional>
#include <optional>

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

// The vertical extent of row of table: from the top of its cells' first lines to the foot of their last.
QRectF rowExtent(const QTextDocument &document, const QTextTable &table, int row)
{
    const QAbstractTextDocumentLayout &layout = *document.documentLayout();
    QRectF extent;
    for (int column = 0; column < table.columns(); ++column) {
        const QTextTableCell cell = table.cellAt(row, column);
        if (cell.row() != row)
            continue; // a cell spanning from a row above
        for (QTextBlock block = document.findBlock(cell.firstPosition());
             block.isValid() && block.position() <= cell.lastPosition(); block = block.next())
            extent = extent.isNull() ? layout.blockBoundingRect(block) : extent.united(layout.blockBoundingRect(block));
    }
    return extent;
}

bool cutByPageBreak(const QRectF &extent, double pageHeight)
{
    return !extent.isNull() && extent.height() < pageHeight &&
           pageOf(extent.top(), pageHeight) != pageOf(extent.bottom() - 1.0, pageHeight);
}

// The height of table's rows laid out on one page: its rows' text, without the gaps that page breaks open.
double naturalHeight(const QTextDocument &document, const QTextTable &table)
{
    double height = 0.0;
    for (int row = 0; row < table.rows(); ++row)
        height += rowExtent(document, table, row).height();
    return height;
}

// A change that moves what a page break would cut to the next page, and where it starts
// in the document: the moves are made in document order, since each one shifts what follows.
struct Move
{
    int position = 0;
    std::function<void()> apply;
};

void startPage(QTextTable &table)
{
    QTextTableFormat format = table.format();
    format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
    table.setFormat(format);
}

// The first table that straddles two pages and should not: a table of images (a row of
// charts with their captions), or one whose rows take at most a third of a page, which
// reads better whole (the environment's, the worst rows'). It moves to the next page.
std::optional<Move> cutWholeTable(QTextDocument &document, double pageHeight)
{
    for (QTextFrame *frame : document.rootFrame()->childFrames()) {
        auto *table = qobject_cast<QTextTable *>(frame);
        if (!table || (table->format().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore))
            continue;
        const QRectF box = document.documentLayout()->frameBoundingRect(table);
        if ((naturalHeight(document, *table) > pageHeight / 3.0 && !holdsImage(document, *table)) ||
            box.height() >= pageHeight || pageOf(box.top(), pageHeight) == pageOf(box.bottom() - 1.0, pageHeight))
            continue;
        return Move{table->firstPosition(), [table] { startPage(*table); }};
    }
    return std::nullopt;
}

// The first table row that a page break cuts (Qt moves a row only when none of its cells'
// first lines fits). It moves to the next page: the row above it grows, without its rule,
// to the page's foot, so that the row starts past it and Qt places it at the next page's
// top. A cut first row moves its whole table.
std::optional<Move> cutTableRow(QTextDocument &document, double pageHeight)
{
    for (QTextFrame *frame : document.rootFrame()->childFrames()) {
        auto *table = qobject_cast<QTextTable *>(frame);
        if (!table)
            continue;
        for (int row = 0; row < table->rows(); ++row) {
            const QRectF extent = rowExtent(document, *table, row);
            if (!cutByPageBreak(extent, pageHeight))
                continue;
            const int position = table->cellAt(row, 0).firstPosition();
            if (row <= table->format().headerRowCount()) {
                if (table->format().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore)
                    continue;
                return Move{position, [table] { startPage(*table); }};
            }
            // Past the page's foot by a hundredth of a page, more than the cells' padding above their text.
            const double pageFoot = (pageOf(extent.top(), pageHeight) + 1) * pageHeight;
            const double gap = pageFoot - extent.top() + 0.01 * pageHeight;
            return Move{position, [table, row, gap] {
                            for (int column = 0; column < table->columns(); ++column) {
                                QTextTableCell above = table->cellAt(row - 1, column);
                                QTextTableCellFormat format = above.format().toTableCellFormat();
                                format.setBottomPadding(format.bottomPadding() + gap);
                                format.setBottomBorder(0.0);
                                above.setFormat(format);
                            }
                        }};
        }
    }
    return std::nullopt;
}

// The first heading that would end its page without the two blocks after it. It moves to
// the next page, and a table it introduces that was moved there follows it again: left to
// start a page of its own, that table would leave the heading alone.
std::optional<Move> orphanedHeading(QTextDocument &document, double pageHeight)
{
    const QAbstractTextDocumentLayout &layout = *document.documentLayout();
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || !block.next().isValid() ||
            (block.blockFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore))
            continue;
        // The two blocks after a heading: its note and the first line of the table or
        // charts the note introduces, or the first two lines of what follows.
        const QTextBlock after = block.next().next().isValid() ? block.next().next() : block.next();
        const QRectF heading = layout.blockBoundingRect(block);
        const QRectF next = layout.blockBoundingRect(after);
        if (pageOf(heading.top(), pageHeight) == pageOf(next.bottom() - 1.0, pageHeight) ||
            next.bottom() - heading.top() >= pageHeight)
            continue;
        return Move{block.position(), [&document, block, after] {
                        QTextBlockFormat format = block.blockFormat();
                        format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
                        QTextCursor(block).setBlockFormat(format);
                        for (QTextFrame *frame : document.rootFrame()->childFrames()) {
                            auto *table = qobject_cast<QTextTable *>(frame);
                            if (!table || table->firstPosition() <= block.position() ||
                                table->firstPosition() > after.position())
                                continue;
                            QTextTableFormat tableFormat = table->format();
                            tableFormat.setPageBreakPolicy(QTextFormat::PageBreak_Auto);
                            table->setFormat(tableFormat);
                        }
                    }};
    }
    return std::nullopt;
}

} // namespace

int keepTogether(QTextDocument &document)
{
    const double pageHeight = document.pageSize().height();
    int moved = 0;
    // Each move shifts everything after it, so positions are measured again after each one.
    // A moved item starts a page and is not cut again (a table that follows its moved
    // heading fits under it), so this ends; the bound is a guard.
    for (int round = 0; round < 1000; ++round) {
        document.pageCount(); // finishes the layout
        std::optional<Move> first;
        for (std::optional<Move> move : {cutWholeTable(document, pageHeight), cutTableRow(document, pageHeight),
                                         orphanedHeading(document, pageHeight)})
            if (move && (!first || move->position < first->position))
                first = std::move(move);
        if (!first)
            return moved;
        first->apply();
        ++moved;
    }
    return moved;
}

int cutTableRows(const QTextDocument &document)
{
    document.pageCount(); // finishes the layout
    const double pageHeight = document.pageSize().height();
    int cut = 0;
    for (QTextFrame *frame : document.rootFrame()->childFrames())
        if (const auto *table = qobject_cast<const QTextTable *>(frame))
            for (int row = 0; row < table->rows(); ++row)
                cut += cutByPageBreak(rowExtent(document, *table, row), pageHeight) ? 1 : 0;
    return cut;
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
