// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnNotes.h"
#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/LikelyOutcomes.h"
#include "data/Table.h"
#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpumem::workflows {

// Which data a use case reads and how: the file, how its text is read, which
// column is the target, which are features, ignored or the layer sequence, and
// what happens to a row holding a bad cell. Empty role fields keep what core
// infers from the columns' types. The command line fills it from its data flags.
struct DataRequest
{
    std::string path;
    char delimiter = 0;                          // ',', ';' or '\t'; 0 detects it
    bool decimalComma = false;                   // numbers read "1,5"; false still detects it in ';' files
    std::optional<std::size_t> categoricalLimit; // text columns with more distinct values are identifiers (unset: 50)
    std::string target;
    std::vector<std::string> features; // when set, the only feature columns
    std::vector<std::string> ignored;
    std::string sequenceColumn;
    data::BadCellPolicy badCells = data::BadCellPolicy::Fail;
};

// Data selected for a use case: the table as loaded, one role per column as core
// checked them, the rows the bad-cell policy keeps (table rows, in file order),
// the dataset built from them (null where only the selection was asked), the
// feature columns that look measured with the target, and the notes for the user.
struct DataSelection
{
    std::shared_ptr<const data::Table> table;
    std::vector<data::ColumnRole> roles;
    std::vector<std::size_t> usableRows;          // the table row of each dataset row
    std::shared_ptr<const data::Dataset> dataset; // rows of usableRows, columns by roles
    std::vector<data::LikelyOutcome> likelyOutcomes;
    std::vector<std::string> warnings;
};

// Loads request's file and selects its data as every command reads it: the other
// outcomes the file's column notes name are ignored unless request names them as
// features, complete constant columns are ignored, and the likely outcomes,
// stray text cells, left-out rows and capped layer types become warnings. Builds
// no dataset (what `gpumem inspect` shows). observer and control reach the load
// (a cancelled load throws data::LoadCancelled). Throws io::InputError on bad
// input, including data that would encode into more than data::maxEncodedFeatures
// features. Any thread.
DataSelection inspectData(const DataRequest &request, runtime::ProgressObserver *observer = nullptr,
                          const runtime::OperationControl *control = nullptr);

// The same, with the dataset built from the usable rows: what training,
// comparing and sweeping learn from.
DataSelection selectData(const DataRequest &request, runtime::ProgressObserver *observer = nullptr,
                         const runtime::OperationControl *control = nullptr);

// The request that gives every column of table its role in roles (one per column):
// the target, the features, the ignored columns and the sequence, by name.
data::RoleRequest roleRequestOf(const data::Table &table, const std::vector<data::ColumnRole> &roles);

// The roles request asks for (target, features, ignored columns, sequence), and
// the same written into a request.
data::RoleRequest roleRequestOf(const DataRequest &request);
void setRoleRequest(DataRequest &request, const data::RoleRequest &roles);

// A file opened for people to choose its columns' roles (the workbench's Data
// page): the table as loaded with the default options, the notes of its column
// notes file, and the roles core suggests from both.
struct OpenedData
{
    std::shared_ptr<const data::Table> table;
    data::ColumnNotes notes;
    std::vector<data::ColumnRole> roles;
};

// Opens path for choosing roles. observer and control reach the load (a cancelled
// load throws data::LoadCancelled). Throws io::InputError on bad input, including a
// table that leaves no column to learn from. Any thread.
OpenedData openData(const std::string &path, runtime::ProgressObserver *observer = nullptr,
                    const runtime::OperationControl *control = nullptr);

// Selects the data of a table already loaded (the workbench's) under roles and
// badCells, with its dataset: the roles are checked as assignRoles checks a
// request, and the warnings name left-out rows and capped layer types only (the
// workbench shows a table's other notes where its columns are chosen). Any
// thread: it touches nothing but its arguments. Throws io::InputError as selectData does.
DataSelection selectData(std::shared_ptr<const data::Table> table, const data::RoleRequest &roles,
                         data::BadCellPolicy badCells);

} // namespace gpumem::workflows
