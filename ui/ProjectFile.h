#pragma once

#include <QString>

namespace gpumem::ui {

class WorkbenchState;

// Writes the whole experiment as one JSON project file, atomically: the data
// file (absolute and relative to the project), bad-cell policy and column roles,
// the neural network's preset and hyperparameters, and the last comparison
// (metrics per model and fold, out-of-fold predictions, significance).
// Throws io::InputError when the file cannot be written.
void writeProjectFile(const QString &path, const WorkbenchState &state);

// Reads a project file into state: loads the data file it names (synchronously),
// applies its roles, hyperparameters and comparison. Throws io::InputError
// naming the file (and line and column for malformed JSON) on failure.
void readProjectFile(const QString &path, WorkbenchState &state);

} // namespace gpumem::ui
