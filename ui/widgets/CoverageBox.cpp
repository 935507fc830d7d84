// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/CoverageBox.h"

namespace gpumem::ui {

CoverageBox::CoverageBox(const QString &objectName, QWidget *parent)
    : QDoubleSpinBox(parent)
{
    setObjectName(objectName);
    // Calibrations refuse coverages they cannot serve; these limits keep the editor within sensible ones.
    setRange(0.5, 0.999);
    setDecimals(3);
    setSingleStep(0.01);
    setValue(0.95);
    setEnabled(false);
    setToolTip(tr("Coverage: the share of jobs whose real peak must stay below the requested memory"));
}

} // namespace gpumem::ui
