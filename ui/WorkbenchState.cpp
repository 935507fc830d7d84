#include "ui/WorkbenchState.h"

#include "models/NeuralNetworkHyperparameters.h"

namespace gpumem::ui {

WorkbenchState::WorkbenchState(QObject *parent)
    : QObject(parent)
    , mHyperparameters(models::neuralNetworkHyperparameters())
    , mPresetName(QStringLiteral("default"))
{
}

void WorkbenchState::setTable(std::shared_ptr<const data::Table> table, const QString &path)
{
    mTable = std::move(table);
    mDataPath = path;
    mRoles.clear();
    if (mTable) {
        data::RoleRequest request;
        const auto candidates = data::targetCandidates(*mTable);
        if (!candidates.empty())
            request.target = candidates.front();
        mRoles = data::assignRoles(*mTable, request);
    }
    Q_EMIT tableChanged();
    Q_EMIT rolesChanged();
}

void WorkbenchState::setRole(std::size_t column, data::ColumnRole role)
{
    if (column >= mRoles.size() || mRoles[column] == role)
        return;
    if (role == data::ColumnRole::Target || role == data::ColumnRole::Sequence)
        for (auto &other : mRoles)
            if (other == role)
                other = data::ColumnRole::Feature;
    mRoles[column] = role;
    Q_EMIT rolesChanged();
}

void WorkbenchState::setRoles(const std::vector<data::ColumnRole> &roles)
{
    if (!mTable || roles.size() != mTable->columnCount())
        return;
    mRoles = roles;
    Q_EMIT rolesChanged();
}

data::RoleRequest WorkbenchState::roleRequest() const
{
    data::RoleRequest request;
    if (!mTable)
        return request;
    for (std::size_t column = 0; column < mRoles.size(); ++column) {
        const std::string &name = mTable->column(column).name;
        switch (mRoles[column]) {
        case data::ColumnRole::Target: request.target = name; break;
        case data::ColumnRole::Feature: request.features.push_back(name); break;
        case data::ColumnRole::Sequence: request.sequenceColumn = name; break;
        case data::ColumnRole::Ignored: request.ignored.push_back(name); break;
        }
    }
    return request;
}

std::string WorkbenchState::targetName() const
{
    return roleRequest().target;
}

void WorkbenchState::setBadCellPolicy(data::BadCellPolicy policy)
{
    mBadCellPolicy = policy;
}

std::shared_ptr<const data::Dataset> WorkbenchState::buildDataset(std::vector<std::string> &warnings) const
{
    if (!mTable)
        return nullptr;
    // assignRoles re-checks the roles the way `gpumem --target … --features …` would.
    const auto roles = data::assignRoles(*mTable, roleRequest());
    return std::make_shared<const data::Dataset>(data::Dataset::fromTable(*mTable, roles, mBadCellPolicy, warnings));
}

void WorkbenchState::setHyperparameters(const models::Hyperparameters &hyperparameters)
{
    mHyperparameters = hyperparameters;
    Q_EMIT hyperparametersChanged();
}

void WorkbenchState::setComparison(std::shared_ptr<const evaluation::ExperimentResult> result,
                                   std::shared_ptr<const data::Dataset> dataset)
{
    mComparison = std::move(result);
    mComparisonDataset = std::move(dataset);
    Q_EMIT comparisonChanged();
}

void WorkbenchState::addRun(runs::RunRecord run)
{
    if (run.name.empty())
        run.name = "run " + std::to_string(mRuns.size() + 1);
    mRuns.push_back(std::move(run));
    Q_EMIT runsChanged();
}

void WorkbenchState::setRunModelFolder(std::size_t index, const std::string &folder)
{
    if (index >= mRuns.size())
        return;
    mRuns[index].modelFolder = folder;
    Q_EMIT runsChanged();
}

void WorkbenchState::setRuns(std::vector<runs::RunRecord> runs)
{
    mRuns = std::move(runs);
    Q_EMIT runsChanged();
}

} // namespace gpumem::ui
