// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QWidget;

namespace gpumem::ui {

// Enables control when it applies to what the form describes, and otherwise
// disables it with reason added to its tooltip, so that a greyed-out control
// says why. The tooltip control had when first passed here is kept as its own.
void setApplicable(QWidget *control, bool applies, const QString &reason);
// Replaces control's own tooltip (shown while it applies); the next setApplicable adds
// its reason to this one.
void setOwnToolTip(QWidget *control, const QString &toolTip);

} // namespace gpumem::ui
