// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QPagedPaintDevice;
class QTextDocument;

namespace gpumem::pdfreport {

// Moves what a page break must not cut to the next page, in a document laid out with a
// page size: a table holding images (a row of charts with their captions) that would
// straddle two pages, and a heading that would be left at the foot of a page without
// the two blocks after it (its note and the first line of its table or charts).
// Returns how many it moved.
int keepTogether(QTextDocument &document);

// Draws the document's pages on device, one page each, with "page / pages" centred in
// a footer of footerHeight (device pixels) under each page's text. The document is laid
// out on device (its layout's paint device) with the page size of the device's text area
// less the footer.
void drawPages(const QTextDocument &document, QPagedPaintDevice &device, double footerHeight);

} // namespace gpumem::pdfreport
