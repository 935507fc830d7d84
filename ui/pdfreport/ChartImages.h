// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QImage>

#include <string>

namespace gpumem::pdfreport {

// Returns the SVG drawing (one of the report's charts, which carry their own style)
// rendered on white at scale times its own size; a null image when QtSvg cannot read it.
QImage svgImage(const std::string &svg, double scale);

} // namespace gpumem::pdfreport
