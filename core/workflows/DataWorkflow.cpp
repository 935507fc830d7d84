// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/DataWorkflow.h"

#include "data/ColumnNotes.h"
#include "data/EncodingLimits.h"
#include "data/RoleNotes.h"
#include "data/TableLoader.h"

#include <algorithm>

namespace gpumem::workflows {

namespace {

bool contains(const std::vector<std::string> &names, const std::string &name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

data::TableLoadOptions loadOptionsOf(const DataRequest &request)
{
    data::TableLoadOptions options;
    options.delimiter = request.delimiter;
    if (request.categoricalLimit)
        options.categoricalLimit = *request.categoricalLimit;
    // Left unset rather than false, so that a ';' file's decimal commas are still detected.
    if (request.decimalComma)
        options.decimalComma = true;
    return options;
}

} // namespace

DataSelection inspectData(const DataRequest &request, runtime::ProgressObserver *observer,
                          const runtime::OperationControl *control)
{
    data::RoleRequest roles = roleRequestOf(request);
    // As the workbench's Data page: a column of one value has nothing to teach any model.
    roles.ignoreConstantColumns = true;

    DataSelection selection;
    selection.table =
        std::make_shared<const data::Table>(data::loadTable(request.path, loadOptionsOf(request), observer, control));
    const data::Table &table = *selection.table;
    // The other outcomes the data's notes name are ignored unless the features ask for them.
    const data::ColumnNotes notes = data::readColumnNotes(request.path);
    std::vector<std::string> others;
    for (const auto &name : data::otherOutcomes(table, notes, roles.target))
        if (!contains(roles.features, name) && !contains(roles.ignored, name))
            others.push_back(name);
    roles.ignored.insert(roles.ignored.end(), others.begin(), others.end());
    selection.roles = data::assignRoles(table, roles);
    selection.warnings = table.nonNumericCellNotes();
    if (!others.empty())
        selection.warnings.push_back(data::otherOutcomesNote(others, notes));
    // A file with notes names its outcomes itself; a column the request names as a
    // feature is kept on purpose and needs no word.
    for (auto &outcome : data::likelyOutcomes(table, selection.roles, notes))
        if (!contains(roles.features, outcome.column))
            selection.likelyOutcomes.push_back(std::move(outcome));
    if (!selection.likelyOutcomes.empty())
        selection.warnings.push_back(data::likelyOutcomesNote(selection.likelyOutcomes));
    const auto constants = data::ignoredConstantColumns(table, selection.roles, roles.ignored);
    if (!constants.empty())
        selection.warnings.push_back(data::constantColumnsNote(constants));
    selection.usableRows = data::selectUsableRows(table, selection.roles, request.badCells, selection.warnings);
    // Checked here too, so that inspecting refuses what training would, before any model is built.
    const auto encodingWarnings = data::checkEncodingLimits(table, selection.roles, selection.usableRows);
    selection.warnings.insert(selection.warnings.end(), encodingWarnings.begin(), encodingWarnings.end());
    return selection;
}

DataSelection selectData(const DataRequest &request, runtime::ProgressObserver *observer,
                         const runtime::OperationControl *control)
{
    DataSelection selection = inspectData(request, observer, control);
    // The dataset's own notes are the encoding warnings inspectData already gave.
    selection.dataset = std::make_shared<const data::Dataset>(
        data::Dataset::fromTable(*selection.table, selection.roles, selection.usableRows));
    return selection;
}

data::RoleRequest roleRequestOf(const data::Table &table, const std::vector<data::ColumnRole> &roles)
{
    data::RoleRequest request;
    for (std::size_t column = 0; column < roles.size() && column < table.columnCount(); ++column) {
        const std::string &name = table.column(column).name;
        switch (roles[column]) {
        case data::ColumnRole::Target: request.target = name; break;
        case data::ColumnRole::Feature: request.features.push_back(name); break;
        case data::ColumnRole::Sequence: request.sequenceColumn = name; break;
        case data::ColumnRole::Ignored: request.ignored.push_back(name); break;
        }
    }
    return request;
}

DataSelection selectData(std::shared_ptr<const data::Table> table, const data::RoleRequest &roles,
                         data::BadCellPolicy badCells)
{
    DataSelection selection;
    selection.table = std::move(table);
    selection.roles = data::assignRoles(*selection.table, roles);
    selection.usableRows = data::selectUsableRows(*selection.table, selection.roles, badCells, selection.warnings);
    data::Dataset dataset = data::Dataset::fromTable(*selection.table, selection.roles, selection.usableRows);
    selection.warnings.insert(selection.warnings.end(), dataset.warnings().begin(), dataset.warnings().end());
    selection.dataset = std::make_shared<const data::Dataset>(std::move(dataset));
    return selection;
}

OpenedData openData(const std::string &path, runtime::ProgressObserver *observer,
                    const runtime::OperationControl *control)
{
    OpenedData opened;
    opened.table = std::make_shared<const data::Table>(data::loadTable(path, {}, observer, control));
    opened.notes = data::readColumnNotes(path);
    opened.roles = data::suggestedRoles(*opened.table, opened.notes);
    return opened;
}

data::RoleRequest roleRequestOf(const DataRequest &request)
{
    data::RoleRequest roles;
    roles.target = request.target;
    roles.features = request.features;
    roles.ignored = request.ignored;
    roles.sequenceColumn = request.sequenceColumn;
    return roles;
}

void setRoleRequest(DataRequest &request, const data::RoleRequest &roles)
{
    request.target = roles.target;
    request.features = roles.features;
    request.ignored = roles.ignored;
    request.sequenceColumn = roles.sequenceColumn;
}

} // namespace gpumem::workflows
