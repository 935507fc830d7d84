// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The `gpumem` command that runs a configuration: what the workbench's "Copy as
// command" puts on the clipboard, so a page's run can be repeated in a script or
// on a cluster. Parsed by `gpumem`, the arguments give the same configuration.

#include "workflows/CompareWorkflow.h"
#include "workflows/DataWorkflow.h"
#include "workflows/EstimateWorkflow.h"
#include "workflows/TrainWorkflow.h"

#include <string>
#include <vector>

namespace gpumem::workflows {

// The arguments after `gpumem` (the subcommand first) that compare data as
// configuration asks. The data's options are those of data that differ from
// `gpumem`'s defaults; each model's hyperparameters those that differ from the
// values `gpumem compare` starts it from, as --set MODEL.NAME=VALUE.
std::vector<std::string> argumentsOf(const DataRequest &data, const CompareConfiguration &configuration);

// The same for training one model on data and writing it to the model folder out.
std::vector<std::string> argumentsOf(const DataRequest &data, const TrainConfiguration &configuration,
                                     const std::string &out);

// The same for an estimate of a TorchScript file or a language model.
std::vector<std::string> argumentsOf(const EstimateSettings &settings);

// "gpumem" and arguments as one line a POSIX shell reads back into the same words.
std::string commandLineOf(const std::vector<std::string> &arguments);

// text as one word of a POSIX shell command: as it is when it holds only
// characters no shell treats specially, else in single quotes.
std::string shellQuoted(const std::string &text);

} // namespace gpumem::workflows
