// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnNotes.h"
#include "data/ColumnRoles.h"

#include <QFutureWatcher>
#include <QWidget>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

class QComboBox;
class QEvent;
class QLabel;
class QPoint;
class QTableView;
class QTableWidget;

namespace gpumem::data {
class Table;
enum class ColumnRole;
} // namespace gpumem::data

namespace gpumem::ui {

class CancellableProgress;
class ColumnCharts;
class LikelyOutcomesBar;
class TableModel;
class WorkbenchState;

// The data page: the loaded table in a lazy view, a column editor for roles
// (prefilled from core's inference; several selected columns take a role at once),
// statistics of the selected column, charts (the target's histogram, the selected
// column against the target, each feature's correlation with it), a bar asking about
// features that look measured by the target's run (data::likelyOutcomes) and a
// one-line error panel for files core rejects.
// Loading and the charts' work run on pool threads; the page stays usable meanwhile.
class DataPage : public QWidget
{
    Q_OBJECT

  public:
    explicit DataPage(WorkbenchState *state, QWidget *parent = nullptr);
    ~DataPage() override;

    // Starts loading path in the background; loadFinished() tells the outcome.
    void openFile(const QString &path);
    bool isLoading() const;
    // Whether the charts of the data on show are still being computed (on pool threads).
    bool isAnalysing() const;
    // Stops a running load; the data on show stays and loadFinished(false, …) follows.
    void cancelLoading();
    // The message of the last failed load, or an empty string.
    QString errorText() const;

  Q_SIGNALS:
    void loadFinished(bool succeeded, const QString &path);

  protected:
    void changeEvent(QEvent *event) override;

  private:
    struct LoadOutcome
    {
        std::shared_ptr<const data::Table> table;
        std::vector<data::ColumnRole> roles; // inferred in the worker, handed to WorkbenchState
        data::ColumnNotes notes;             // what the file's notes say about its columns
        QString error;
        bool cancelled = false;
    };

    void finishLoading();
    void showTable();
    void showRoles();
    // The file's name and size, and which constant columns are ignored.
    void showDataInfo();
    void showColumnSummary(int column);
    // The rows selected in the column editor, which are the table's column indices, in order.
    std::vector<std::size_t> selectedColumns() const;
    void setRoleOf(const std::vector<std::size_t> &columns, data::ColumnRole role);
    void showRoleMenu(const QPoint &position);
    // Asks about the features that look measured by the target's run when a table is
    // shown or its target changes; otherwise only drops those given another role.
    void askAboutLikelyOutcomes();
    void ignoreLikelyOutcomes();
    void fitRowHeightToFont();
    // The charts for the data on show and the column selected in the editor.
    void showCharts();
    void showError(const QString &message);

    WorkbenchState *mState;
    TableModel *mModel;
    QTableView *mView;
    QTableWidget *mColumnEditor;
    QLabel *mInfo;
    QLabel *mError;
    LikelyOutcomesBar *mOutcomesBar;
    // The table and target the bar last asked about: it asks again only for another one.
    std::weak_ptr<const data::Table> mAskedTable;
    std::string mAskedTarget;
    QLabel *mSummary;
    QComboBox *mBadCells;
    CancellableProgress *mLoadProgress; // the load's bar and Cancel; hears the load on its worker thread
    ColumnCharts *mCharts;
    QFutureWatcher<LoadOutcome> mLoader;
    QString mLoadingPath;
    bool mUpdatingEditor = false;
};

} // namespace gpumem::ui
