// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/CapacityTable.h"

#include "calibration/CommonCapacities.h"

#include <QColor>
#include <QHeaderView>

#include <cmath>

namespace gpumem::ui {

CapacityTable::CapacityTable(QWidget *parent)
    : QTableWidget(parent)
{
    setObjectName(QStringLiteral("capacityTable"));
    setColumnCount(2);
    setHorizontalHeaderLabels({tr("GPU memory"), tr("Fits the request?")});
    verticalHeader()->hide();
    horizontalHeader()->setStretchLastSection(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setToolTip(tr("Common GPU capacities, and whether the job's request at the coverage fits"));
    setMaximumHeight(220);
    setVisible(false);
}

void CapacityTable::showRequest(double mib)
{
    const bool shown = !std::isnan(mib);
    setRowCount(shown ? static_cast<int>(calibration::kCommonCapacitiesGiB.size()) : 0);
    if (!shown)
        return;
    int row = 0;
    for (const double gib : calibration::kCommonCapacitiesGiB) {
        const bool fits = mib <= gib * 1024.0;
        auto *answer = new QTableWidgetItem(fits ? tr("fits (%L1 MiB to spare)").arg(gib * 1024.0 - mib, 0, 'f', 0)
                                                 : tr("does not fit"));
        answer->setForeground(fits ? QColor(30, 110, 40) : QColor(160, 20, 20));
        setItem(row, 0, new QTableWidgetItem(tr("%1 GiB").arg(gib)));
        setItem(row, 1, answer);
        ++row;
    }
}

} // namespace gpumem::ui
