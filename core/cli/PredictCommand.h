#pragma once

#include "data/ColumnRoles.h"
#include "data/Table.h"
#include "models/NeuralNetworkRegressor.h"

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// `gpumem predict MODEL_DIR DATA.csv [--out PRED.csv]`: one output row per input
// row, in order, with `prediction` (and `actual`, `error` when the file has the
// target). Refuses data that lacks a column of the model's schema, naming it.
// Returns the process exit code.
int runPredict(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

// The roles a saved model's schema asks of table: its features, its sequence column
// and, when the file has it as a number, its target. Throws io::InputError naming a
// column the model needs but table lacks, or one that is no longer numeric.
data::RoleRequest rolesForModel(const models::ModelSchema &schema, const data::Table &table);

} // namespace gpumem::cli
