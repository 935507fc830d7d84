// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/WorkbenchState.h"

#include "data/ColumnRoles.h"
#include "data/Table.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "ui/widgets/QtText.h"

#include <QSettings>

#include <algorithm>

namespace gpumem::ui {

namespace {

// Where the compute settings are remembered (the keys the Training page has always used).
const char *const deviceKey = "training/device";
const char *const threadsKey = "training/threads";

// The role a column falls back to when another column takes its target or sequence role.
// A former target is ignored: it was measured from the same run as the new one, so as a
// feature it would give the answer away. A former sequence becomes a feature where its
// type allows.
data::ColumnRole demotedRole(const data::Column &column, data::ColumnRole role)
{
    if (role == data::ColumnRole::Target)
        return data::ColumnRole::Ignored;
    const auto allowed = data::allowedRoles(column);
    return std::find(allowed.begin(), allowed.end(), data::ColumnRole::Feature) != allowed.end()
               ? data::ColumnRole::Feature
               : data::ColumnRole::Ignored;
}

} // namespace

WorkbenchState::WorkbenchState(QObject *parent)
    : QObject(parent)
    , mHyperparameters(models::neuralNetworkHyperparameters())
    , mPresetName(QStringLiteral("default"))
{
    const QSettings settings;
    mDevice = settings.value(deviceKey, QStringLiteral("auto")).toString();
    mThreads = std::max(1, settings.value(threadsKey, 1).toInt());
}

void WorkbenchState::setDevice(const QString &device)
{
    mDevice = device;
    QSettings().setValue(deviceKey, device);
}

void WorkbenchState::setThreads(int threads)
{
    mThreads = std::max(1, threads);
    QSettings().setValue(threadsKey, mThreads);
}

void WorkbenchState::setTable(std::shared_ptr<const data::Table> table, const QString &path)
{
    setTable(std::move(table), path, {});
}

void WorkbenchState::setTable(std::shared_ptr<const data::Table> table, const QString &path,
                              std::vector<data::ColumnRole> roles, data::ColumnNotes notes)
{
    mTable = std::move(table);
    mDataPath = path;
    mColumnNotes = std::move(notes);
    mRoles.clear();
    if (mTable)
        mRoles = roles.size() == mTable->columnCount() ? std::move(roles) : data::suggestedRoles(*mTable, mColumnNotes);
    Q_EMIT tableChanged();
    Q_EMIT rolesChanged();
}

void WorkbenchState::setRole(std::size_t column, data::ColumnRole role)
{
    setRoleOfColumns({column}, role);
}

void WorkbenchState::setRoleOfColumns(const std::vector<std::size_t> &columns, data::ColumnRole role)
{
    const bool singular = role == data::ColumnRole::Target || role == data::ColumnRole::Sequence;
    if (!mTable || columns.empty() || (singular && columns.size() != 1))
        return;
    std::vector<data::ColumnRole> roles = mRoles;
    for (const std::size_t column : columns) {
        if (column >= roles.size() || column >= mTable->columnCount())
            continue;
        const auto allowed = data::allowedRoles(mTable->column(column));
        if (std::find(allowed.begin(), allowed.end(), role) == allowed.end())
            continue;
        if (singular)
            for (std::size_t other = 0; other < roles.size(); ++other)
                if (roles[other] == role)
                    roles[other] = demotedRole(mTable->column(other), role);
        roles[column] = role;
    }
    if (roles == mRoles)
        return;
    mRoles = std::move(roles);
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
    return mTable ? workflows::roleRequestOf(*mTable, mRoles) : data::RoleRequest{};
}

std::string WorkbenchState::targetName() const
{
    return roleRequest().target;
}

void WorkbenchState::setBadCellPolicy(data::BadCellPolicy policy)
{
    mBadCellPolicy = policy;
}

workflows::DataRequest WorkbenchState::dataRequest() const
{
    workflows::DataRequest request;
    request.path = coreText(mDataPath);
    workflows::setRoleRequest(request, roleRequest());
    request.badCells = mBadCellPolicy;
    return request;
}

workflows::DataSelection WorkbenchState::selectData() const
{
    if (!mTable)
        return {};
    return workflows::selectData(mTable, roleRequest(), mBadCellPolicy);
}

std::shared_ptr<const data::Dataset> WorkbenchState::buildDataset(std::vector<std::string> &warnings) const
{
    workflows::DataSelection selected = selectData();
    warnings.insert(warnings.end(), selected.warnings.begin(), selected.warnings.end());
    return selected.dataset;
}

void WorkbenchState::setHyperparameters(const models::Hyperparameters &hyperparameters)
{
    mHyperparameters = hyperparameters;
    Q_EMIT hyperparametersChanged();
}

void WorkbenchState::setComparison(std::shared_ptr<const evaluation::ExperimentResult> result,
                                   std::shared_ptr<const data::Dataset> dataset, report::ComparisonContext context)
{
    mComparison = std::move(result);
    mComparisonDataset = std::move(dataset);
    mComparisonContext = std::move(context);
    Q_EMIT comparisonChanged();
}

void WorkbenchState::addRun(runs::RunRecord run, std::shared_ptr<models::Regressor> model)
{
    if (run.name.empty())
        run.name = "run " + std::to_string(mRuns.size() + 1);
    mRuns.push_back(std::move(run));
    mRunModels.resize(mRuns.size() - 1);
    mRunModels.push_back(std::move(model));
    Q_EMIT runsChanged();
}

std::shared_ptr<models::Regressor> WorkbenchState::runModel(std::size_t index) const
{
    return index < mRunModels.size() ? mRunModels[index] : nullptr;
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
    mRunModels.assign(mRuns.size(), nullptr);
    Q_EMIT runsChanged();
}

} // namespace gpumem::ui
