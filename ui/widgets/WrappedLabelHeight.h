// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QLabel;

namespace gpumem::ui {

// Keeps a word-wrapped label at least as tall as its lines at its width. A splitter does not
// ask a label for its height at a width, so in a large font the label's last lines were cut;
// this follows the label's resizes and font changes. Call fitWrappedLabelHeight after setText.
void keepWrappedLabelWhole(QLabel *label);
void fitWrappedLabelHeight(QLabel *label);

} // namespace gpumem::ui
