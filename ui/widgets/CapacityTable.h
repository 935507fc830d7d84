// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QTableWidget>

namespace gpumem::ui {

// A table of common GPU memory sizes (8 to 141 GiB) saying, for a job's memory request,
// which of them it fits and with how much to spare. Hidden until a request is shown.
class CapacityTable : public QTableWidget
{
    Q_OBJECT

  public:
    explicit CapacityTable(QWidget *parent = nullptr);

    // Shows which sizes hold a request of mib MiB; NaN empties the table.
    void showRequest(double mib);
};

} // namespace gpumem::ui
