// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace gpumem::pdfreport {

// Makes sure a QGuiApplication runs, which Qt's fonts, text layout and PDF writer need.
// The workbench has one; in `gpumem` one is made on Qt's offscreen platform (no display
// needed) on first use and kept until the program exits. Call on the main thread.
void ensureGuiApplication();

} // namespace gpumem::pdfreport
