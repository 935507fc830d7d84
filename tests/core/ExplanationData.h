// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The small tables the explanation tests (permutation importance, partial dependence)
// edit inputs of: a table, its roles and its usable rows kept together, as an
// evaluation::InputEditor needs them, and a dataset's numeric column by name.

#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"

#include <Eigen/Core>

#include <algorithm>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace gpumem::tests {

struct LoadedTable
{
    data::Table table;
    std::vector<data::ColumnRole> roles;
    std::vector<std::size_t> usable;
};

// Loads CSV text whose target is column y, every row usable (a bad cell fails the test).
inline std::unique_ptr<LoadedTable> loadedTable(const std::string &text, const std::string &name)
{
    data::Table table = data::loadTableFromText(text, name);
    data::RoleRequest request;
    request.target = "y";
    const std::vector<data::ColumnRole> roles = data::assignRoles(table, request);
    std::vector<std::string> warnings;
    std::vector<std::size_t> usable = data::selectUsableRows(table, roles, data::BadCellPolicy::Fail, warnings);
    return std::make_unique<LoadedTable>(LoadedTable{std::move(table), roles, std::move(usable)});
}

// The column called name of a dataset's numeric features.
inline Eigen::VectorXd numericColumn(const data::Dataset &dataset, const std::string &name)
{
    const auto &names = dataset.numericFeatureNames();
    const auto index = std::distance(names.begin(), std::find(names.begin(), names.end(), name));
    return dataset.numericFeatures().col(static_cast<Eigen::Index>(index));
}

} // namespace gpumem::tests
