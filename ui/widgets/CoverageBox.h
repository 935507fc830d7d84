// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDoubleSpinBox>

namespace gpumem::ui {

// A coverage editor as every page shows one: the share of jobs an upper bound
// must hold, from 0.5 to 0.999 in steps of 0.01, starting at 0.95 and disabled
// until the page has a calibration to serve it.
class CoverageBox : public QDoubleSpinBox
{
    Q_OBJECT

  public:
    CoverageBox(const QString &objectName, QWidget *parent);
};

} // namespace gpumem::ui
