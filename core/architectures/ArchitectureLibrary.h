// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "architectures/ArchitectureConfig.h"

#include <string>
#include <vector>

namespace gpumem::architectures {

// The names of the shipped architectures (resources/architectures/NAME.json, found
// in $GPUMEM_ARCHITECTURE_DIR, the installed share/gpumem-workbench/architectures,
// then the source tree's), lower-case and sorted.
std::vector<std::string> architectureNames();

// Returns the shipped architecture named nameOrFile (case-insensitive), named as the
// library names it; otherwise reads nameOrFile as a config.json, or as a model's
// folder holding one. Throws io::InputError on one line: the file's problem, or,
// for a name that is neither shipped nor a file, the shipped names.
ArchitectureConfig resolveArchitecture(const std::string &nameOrFile);

} // namespace gpumem::architectures
