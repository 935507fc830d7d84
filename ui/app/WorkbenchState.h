// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnNotes.h"
#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/Table.h"
#include "evaluation/Experiment.h"
#include "models/Hyperparameters.h"
#include "report/ComparisonReport.h"
#include "runs/RunRecord.h"
#include "workflows/DataWorkflow.h"

#include <QObject>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace gpumem::models {
class Regressor;
}

namespace gpumem::ui {

// What the pages share: the loaded table and its column roles, the neural
// network's hyperparameters and compute settings, and the last comparison.
// Lives on the GUI thread and is only touched there; workers receive copies
// (or shared pointers to immutable tables and datasets), never this object.
class WorkbenchState : public QObject
{
    Q_OBJECT

  public:
    explicit WorkbenchState(QObject *parent = nullptr);

    // The table on show, or null before a file is loaded. Immutable once set.
    std::shared_ptr<const data::Table> table() const { return mTable; }
    QString dataPath() const { return mDataPath; }
    // Replaces the table, with roles inferred by core (defaults and the most likely target).
    void setTable(std::shared_ptr<const data::Table> table, const QString &path);
    // The same with roles already inferred for table by data::suggestedRoles (a loader's
    // worker does it off the GUI thread, with the file's column notes); roles of another
    // column count are inferred again.
    void setTable(std::shared_ptr<const data::Table> table, const QString &path, std::vector<data::ColumnRole> roles,
                  data::ColumnNotes notes = {});
    // What the data file says about its columns (data/ColumnNotes.h); empty when nothing.
    const data::ColumnNotes &columnNotes() const { return mColumnNotes; }

    const std::vector<data::ColumnRole> &roles() const { return mRoles; }
    // Sets one column's role, as setRoleOfColumns({column}, role) does; making a column
    // the target (or the sequence) turns the previous one into an ignored column (a former
    // target is a measurement of the run, the answer for the new one) or a feature (a former
    // sequence that can be one), since a dataset has one of each.
    void setRole(std::size_t column, data::ColumnRole role);
    // Gives role to every column listed, with one rolesChanged(). The target and the
    // sequence name one column each, so for those only a single column is accepted;
    // columns whose type cannot take the role (data::allowedRoles) keep theirs.
    void setRoleOfColumns(const std::vector<std::size_t> &columns, data::ColumnRole role);
    // Replaces every role (e.g. from a project file); the size must match the table.
    void setRoles(const std::vector<data::ColumnRole> &roles);
    // The roles as a request names them: the target, features, ignored columns and sequence.
    data::RoleRequest roleRequest() const;
    // The data on show as the data workflow's request: its file, roles and bad-cell
    // policy (the file read with what it declares, as the workbench loads it).
    workflows::DataRequest dataRequest() const;
    // Returns the target column's name, or an empty string.
    std::string targetName() const;

    data::BadCellPolicy badCellPolicy() const { return mBadCellPolicy; }
    void setBadCellPolicy(data::BadCellPolicy policy);

    // The data the roles select, with its dataset and warnings, as core's data workflow
    // checks it (workflows::selectData); empty without a table. Throws io::InputError
    // (e.g. a non-numeric target, a bad cell under the fail policy). A worker that needs
    // it off the GUI thread calls workflows::selectData with table(), roleRequest() and
    // badCellPolicy(), since this object stays on that thread.
    workflows::DataSelection selectData() const;
    // The dataset of selectData(), its warnings appended to warnings.
    std::shared_ptr<const data::Dataset> buildDataset(std::vector<std::string> &warnings) const;

    const models::Hyperparameters &hyperparameters() const { return mHyperparameters; }
    void setHyperparameters(const models::Hyperparameters &hyperparameters);
    QString presetName() const { return mPresetName; }
    void setPresetName(const QString &name) { mPresetName = name; }

    // Where trainings compute ("auto", "cpu" or "cuda") and with how many CPU threads:
    // the Training page's choice, which the Runs page's sweeps follow. Remembered
    // across sessions (QSettings), read when the state is made.
    QString device() const { return mDevice; }
    void setDevice(const QString &device);
    int threads() const { return mThreads; }
    void setThreads(int threads);

    // The last finished comparison, or null.
    std::shared_ptr<const evaluation::ExperimentResult> comparison() const { return mComparison; }
    // The dataset the comparison ran on (its actual values and row lines), or null.
    std::shared_ptr<const data::Dataset> comparisonDataset() const { return mComparisonDataset; }
    // What the comparison ran on and with, as workflows::compare described it: the
    // header of its reports, whatever the forms show now.
    const report::ComparisonContext &comparisonContext() const { return mComparisonContext; }
    void setComparison(std::shared_ptr<const evaluation::ExperimentResult> result,
                       std::shared_ptr<const data::Dataset> dataset, report::ComparisonContext context = {});

    // Every training run of this session and of the project, oldest first.
    const std::vector<runs::RunRecord> &runs() const { return mRuns; }
    // Keeps a finished run, and its trained model (null for a run that kept none) for
    // this session, so that it can still be saved later; one without a name is called "run N".
    void addRun(runs::RunRecord run, std::shared_ptr<models::Regressor> model = nullptr);
    // The trained model of run number index (0-based) while the workbench is open, or
    // null (a run read from a project file, or one that kept no model).
    std::shared_ptr<models::Regressor> runModel(std::size_t index) const;
    // Records where run number index (0-based) was saved as a model folder.
    void setRunModelFolder(std::size_t index, const std::string &folder);
    // Replaces every run (e.g. from a project file); their models are not in memory.
    void setRuns(std::vector<runs::RunRecord> runs);

  Q_SIGNALS:
    void tableChanged();
    void rolesChanged();
    void hyperparametersChanged();
    void comparisonChanged();
    void runsChanged();

  private:
    std::shared_ptr<const data::Table> mTable;
    QString mDataPath;
    data::ColumnNotes mColumnNotes;
    std::vector<data::ColumnRole> mRoles;
    data::BadCellPolicy mBadCellPolicy = data::BadCellPolicy::Fail;
    models::Hyperparameters mHyperparameters;
    QString mPresetName;
    QString mDevice;
    int mThreads = 1;
    std::shared_ptr<const evaluation::ExperimentResult> mComparison;
    std::shared_ptr<const data::Dataset> mComparisonDataset;
    report::ComparisonContext mComparisonContext;
    std::vector<runs::RunRecord> mRuns;
    std::vector<std::shared_ptr<models::Regressor>> mRunModels; // one per run; null where none is in memory
};

} // namespace gpumem::ui
