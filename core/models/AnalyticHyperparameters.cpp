// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/AnalyticHyperparameters.h"

namespace gpumem::models {

HyperparameterSpec assumedOptimizerSpec()
{
    return {"assumed_optimizer",
            HyperparameterType::Choice,
            std::string("adam"),
            0.0,
            0.0,
            {"sgd", "sgd_momentum", "adam", "adamw"},
            "",
            "The optimizer of rows without an optimizer column (GPUMemNet-style MLP rows)."};
}

} // namespace gpumem::models
