// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace gpumem::ui {

// Returns the CSV files (plain or gzip-compressed) shipped with the workbench, found at run time in the
// installed share/gpumem-workbench/datasets folder and in the source tree's
// datasets/ folder (GPUMEM_DATASET_DIR overrides both). Sorted by file name.
QStringList builtInDatasets();

// A dataset's name: its file name without .csv or .csv.gz.
QString datasetName(const QString &path);

// Returns the built-in dataset whose name (datasetName) is name, or an empty string.
QString builtInDataset(const QString &name);

} // namespace gpumem::ui
