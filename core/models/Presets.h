// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/Hyperparameters.h"

#include <string>
#include <vector>

namespace gpumem::models {

// The network's hyperparameter presets: JSON objects of values (resources/presets),
// found in GPUMEM_PRESET_DIR, then the installed share/gpumem-workbench/presets
// next to the running program, then the source tree. Shared by `--preset` and the
// workbench's preset box.

// Returns the file of a named preset. Throws io::InputError listing the presets
// found when none is called name.
std::string presetPath(const std::string &name);

// Returns the names of the presets found, sorted.
std::vector<std::string> presetNames();

// Applies the JSON object in the file at path (a preset or a --config file) to
// the network's hyperparameters, first refusing any name they do not have, listing the known
// ones. Throws io::InputError naming path.
void applyHyperparameterFile(Hyperparameters &hyperparameters, const std::string &path);

// Returns hyperparameters' values as a preset file holds them (what
// applyHyperparameterFile reads back), ending in a newline. Two sets of values are
// the same when their texts are.
std::string presetFileText(const Hyperparameters &hyperparameters);

// Writes presetFileText(hyperparameters) to path, atomically. Throws io::InputError naming path.
void savePresetFile(const Hyperparameters &hyperparameters, const std::string &path);

} // namespace gpumem::models
