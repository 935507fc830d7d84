// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QPagedPaintDevice;
class QTextDocument;

namespace gpumem::pdfreport {

// Moves what a page break must not cut to the next page, in a document laid out with a
// page size: a table that would straddle two pages and holds images (a row of charts with
// their captions) or rows taking at most a third of a page; a row of a longer table whose
// lines would (the table's header row repeats on the next page); and a heading that would
// be left at the foot of a page without the two blocks after it (its note and the first
// line of its table or charts). Returns how many it moved.
int keepTogether(QTextDocument &document);

// Returns how many rows of the document's tables a page break cuts (rows taller than a
// page, which cannot help it, are not counted): 0 after keepTogether().
int cutTableRows(const QTextDocument &document);

// Draws the document's pages on device, one page each, with "page / pages" centred in
// a footer of footerHeight (device pixels) under each page's text. The document is laid
// out on device (its layout's paint device) with the page size of the device's text area
// less the footer.
void drawPages(const QTextDocument &document, QPagedPaintDevice &device, double footerHeight);

} // namespace gpumem::pdfreport
