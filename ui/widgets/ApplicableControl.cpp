// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/ApplicableControl.h"

#include <QVariant>
#include <QWidget>

namespace gpumem::ui {

namespace {
// The control's own tooltip, kept apart so that reasons never pile up on it.
const char *const ownToolTipProperty = "applicableOwnToolTip";
} // namespace

void setApplicable(QWidget *control, bool applies, const QString &reason)
{
    QVariant own = control->property(ownToolTipProperty);
    if (!own.isValid()) {
        own = control->toolTip();
        control->setProperty(ownToolTipProperty, own);
    }
    control->setEnabled(applies);
    const QString ownText = own.toString();
    control->setToolTip(applies || reason.isEmpty()
                            ? ownText
                            : (ownText.isEmpty() ? reason : ownText + QStringLiteral("\n\n") + reason));
}

void setOwnToolTip(QWidget *control, const QString &toolTip)
{
    control->setProperty(ownToolTipProperty, toolTip);
    control->setToolTip(toolTip);
}

} // namespace gpumem::ui
