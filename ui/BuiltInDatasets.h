// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace gpumem::ui {

// Returns the CSV files shipped with the workbench, found at run time in the
// installed share/gpumem-workbench/datasets folder and in the source tree's
// datasets/ folder (GPUMEM_DATASET_DIR overrides both). Sorted by file name.
QStringList builtInDatasets();

// Returns the built-in dataset whose file name (without .csv) is name, or an empty string.
QString builtInDataset(const QString &name);

} // namespace gpumem::ui
