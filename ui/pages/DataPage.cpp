// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/DataPage.h"

#include "data/ColumnRoles.h"
#include "data/LikelyOutcomes.h"
#include "data/LoadCancelled.h"
#include "io/InputError.h"
#include "ui/app/BackgroundTask.h"
#include "ui/app/CancellableProgress.h"
#include "ui/app/ProgressBridge.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/ColumnCharts.h"
#include "ui/models/TableModel.h"
#include "ui/pages/DataInfoText.h"
#include "ui/widgets/ColumnRoleMenu.h"
#include "ui/widgets/ColumnSummaryText.h"
#include "ui/widgets/LikelyOutcomesBar.h"
#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/PaneSplitter.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/TableCopy.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"
#include "workflows/DataWorkflow.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace gpumem::ui {

namespace {

enum EditorColumn
{
    NameColumn,
    TypeColumn,
    RoleColumn,
    MissingColumn,
    EditorColumns
};

} // namespace

DataPage::DataPage(WorkbenchState *state, QWidget *parent)
    : QWidget(parent)
    , mState(state)
{
    setObjectName(QStringLiteral("dataPage"));
    mError = namedWidget<QLabel>(QStringLiteral("dataErrorPanel"),
                                 tr("Why the file could not be loaded: file:line:column and the reason"), this);
    mError->setStyleSheet(QStringLiteral("QLabel { background: #fde2e2; color: #8a1010; border: 1px solid #d88; "
                                         "padding: 6px; }"));
    mError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mError->hide();
    mOutcomesBar = new LikelyOutcomesBar(this);
    connect(mOutcomesBar, &LikelyOutcomesBar::ignoreRequested, this, &DataPage::ignoreLikelyOutcomes);
    mInfo = new QLabel(tr("No data loaded. Open a CSV file (Ctrl+O), drop one here, or pick a built-in dataset "
                          "from the File menu."),
                       this);
    mInfo->setObjectName(QStringLiteral("dataInfo"));
    mInfo->setWordWrap(true);

    mBadCells =
        namedWidget<QComboBox>(QStringLiteral("badCellPolicy"),
                               tr("What training and comparison do with a row whose used columns hold a missing or "
                                  "non-finite cell: stop with an error naming it (as gpumem does by default), or "
                                  "leave the row out"),
                               this);
    mBadCells->addItem(tr("Stop at a bad cell"), static_cast<int>(data::BadCellPolicy::Fail));
    mBadCells->addItem(tr("Drop rows with bad cells"), static_cast<int>(data::BadCellPolicy::DropRow));
    connect(mBadCells, &QComboBox::currentIndexChanged, this,
            [this] { mState->setBadCellPolicy(static_cast<data::BadCellPolicy>(mBadCells->currentData().toInt())); });

    mLoadProgress = new CancellableProgress(
        tr("Loading the file in the background (it is read twice: types first, then values)"), this);
    mLoadProgress->setObjectName(QStringLiteral("loadProgress"));
    mModel = new TableModel(this);
    mView = namedWidget<QTableView>(
        QStringLiteral("dataTable"),
        tr("The loaded rows. Red cells are missing or invalid; the target column is tinted blue."), this);
    mView->setModel(mModel);
    // Fixed row heights let the view skip measuring rows, which keeps a million rows smooth.
    mView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    fitRowHeightToFont();
    mView->horizontalHeader()->setDefaultSectionSize(140);
    mView->setSelectionBehavior(QAbstractItemView::SelectItems);
    installTableCopy(mView);

    mColumnEditor =
        namedWidget<QTableWidget>(QStringLiteral("columnEditor"),
                                  tr("Each column's inferred type and its role. Choose the target (what to predict), "
                                     "features, the layer-sequence column, or leave columns out. Select several "
                                     "columns to give them a role at once (right-click for a menu)."),
                                  this);
    mColumnEditor->setColumnCount(EditorColumns);
    mColumnEditor->setHorizontalHeaderLabels({tr("Column"), tr("Type"), tr("Role"), tr("Bad cells")});
    mColumnEditor->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    mColumnEditor->verticalHeader()->hide();
    mColumnEditor->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Several columns can take a role at once: select them (Shift/Ctrl), then choose a
    // role in one of their boxes or from the context menu.
    mColumnEditor->setSelectionMode(QAbstractItemView::ExtendedSelection);
    installTableCopy(mColumnEditor);
    // After installTableCopy, whose menu holds only Copy: the role menu shows Copy as well.
    mColumnEditor->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(mColumnEditor, &QWidget::customContextMenuRequested, this, &DataPage::showRoleMenu);
    connect(mColumnEditor, &QTableWidget::currentCellChanged, this, [this](int row) { showColumnSummary(row); });

    mSummary = namedWidget<QLabel>(QStringLiteral("columnSummary"),
                                   tr("Statistics of the selected column; bad cells are left out"), this);
    mSummary->setWordWrap(true);
    mSummary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    mSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    mCharts = new ColumnCharts(this);

    auto *top = new QHBoxLayout;
    top->addWidget(mInfo, 1);
    top->addWidget(mLoadProgress);
    top->addWidget(new QLabel(tr("Bad cells:"), this));
    top->addWidget(mBadCells);

    auto *side = new QWidget(this);
    auto *sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(new QLabel(tr("<b>Columns</b> — type and role"), side));
    sideLayout->addWidget(mColumnEditor, 3);
    sideLayout->addWidget(new QLabel(tr("<b>Selected column</b>"), side));
    sideLayout->addWidget(mSummary, 1);
    sideLayout->addWidget(mCharts, 2);

    auto *splitter = paneSplitter(mView, 3, side, 2, this);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mError);
    layout->addWidget(mOutcomesBar);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(&mLoader, &QFutureWatcher<LoadOutcome>::finished, this, &DataPage::finishLoading);
    connect(mState, &WorkbenchState::tableChanged, this, &DataPage::showTable);
    connect(mState, &WorkbenchState::rolesChanged, this, &DataPage::showRoles);
    installWheelOnlyWhenFocused(this);
}

DataPage::~DataPage()
{
    // The load owns only its own data; waiting keeps the watcher from outliving the page's slot.
    mLoadProgress->cancel();
    mLoader.waitForFinished();
}

void DataPage::openFile(const QString &path)
{
    if (mLoader.isRunning())
        return;
    mLoadingPath = path;
    mInfo->setText(tr("Loading %1 …").arg(QFileInfo(path).fileName()));
    const std::string file = coreText(path);
    // The page waits for the load before it (and the progress widget, its child) goes away.
    ProgressBridge *progress = mLoadProgress->observer();
    mLoader.setFuture(
        runInBackground<LoadOutcome>([file, progress, control = mLoadProgress->start()](LoadOutcome &outcome) {
            try {
                // The roles are inferred here, off the GUI thread, and handed over: a file that
                // leaves no feature column ("x,y" of text, or only the target) becomes a load
                // error instead of an exception escaping the finished handler, and the
                // previous data stays.
                workflows::OpenedData opened = workflows::openData(file, progress, control.get());
                outcome.notes = std::move(opened.notes);
                outcome.roles = std::move(opened.roles);
                outcome.table = std::move(opened.table);
            } catch (const data::LoadCancelled &) {
                outcome.cancelled = true; // not an error: the data on show stays
            }
        }));
}

bool DataPage::isLoading() const
{
    return mLoader.isRunning();
}

QString DataPage::errorText() const
{
    return mError->isVisible() || !mError->text().isEmpty() ? mError->text() : QString();
}

void DataPage::cancelLoading()
{
    if (mLoader.isRunning())
        mLoadProgress->cancel();
}

void DataPage::finishLoading()
{
    mLoadProgress->finish();
    const LoadOutcome outcome = mLoader.result();
    if (outcome.cancelled) {
        // Nothing changed: the data on show (if any) stays, without an error.
        if (mState->table())
            showTable();
        else
            mInfo->setText(tr("Loading %1 was cancelled.").arg(QFileInfo(mLoadingPath).fileName()));
        Q_EMIT loadFinished(false, mLoadingPath);
        return;
    }
    if (!outcome.table) {
        showError(outcome.error);
        if (mState->table())
            showTable();
        else
            mInfo->setText(tr("No data loaded."));
        Q_EMIT loadFinished(false, mLoadingPath);
        return;
    }
    try {
        mState->setTable(outcome.table, mLoadingPath, outcome.roles, outcome.notes);
    } catch (const std::exception &error) {
        // Not expected after the check above; an exception must still never leave a slot.
        showError(QString::fromStdString(error.what()));
        Q_EMIT loadFinished(false, mLoadingPath);
        return;
    }
    mError->clear();
    mError->hide();
    Q_EMIT loadFinished(true, mLoadingPath);
}

void DataPage::showError(const QString &message)
{
    mError->setText(message);
    mError->show();
}

void DataPage::showTable()
{
    const auto table = mState->table();
    mModel->setTable(table);
    if (!table) {
        mColumnEditor->setRowCount(0);
        return;
    }
    mInfo->setToolTip(mState->dataPath());

    mUpdatingEditor = true;
    mColumnEditor->setRowCount(static_cast<int>(table->columnCount()));
    for (std::size_t column = 0; column < table->columnCount(); ++column) {
        const data::Column &cells = table->column(column);
        const int row = static_cast<int>(column);
        auto *name = new QTableWidgetItem(QString::fromStdString(cells.name));
        name->setFlags(name->flags() & ~Qt::ItemIsEditable);
        mColumnEditor->setItem(row, NameColumn, name);
        auto *type = new QTableWidgetItem(qtText(data::columnTypeName(cells.type)));
        type->setFlags(type->flags() & ~Qt::ItemIsEditable);
        type->setToolTip(tr("Inferred from every cell of the file"));
        mColumnEditor->setItem(row, TypeColumn, type);
        auto *bad = new QTableWidgetItem(QString::number(cells.missingCount + cells.invalidCount));
        bad->setFlags(bad->flags() & ~Qt::ItemIsEditable);
        if (cells.firstBadCell)
            bad->setToolTip(tr("First at line %1: %2")
                                .arg(cells.firstBadCell->line)
                                .arg(QString::fromStdString(cells.firstBadCell->reason)));
        mColumnEditor->setItem(row, MissingColumn, bad);

        auto *roleBox = new QComboBox(mColumnEditor);
        roleBox->setObjectName(QStringLiteral("role_%1").arg(QString::fromStdString(cells.name)));
        // Only the roles core allows for the column's type are offered (a numeric column is never the sequence).
        for (const auto role : data::allowedRoles(cells)) {
            roleBox->addItem(qtText(data::columnRoleName(role)), static_cast<int>(role));
            roleBox->setItemData(roleBox->count() - 1, columnRoleHelp(role), Qt::ToolTipRole);
        }
        roleBox->setToolTip(data::holdsOneValue(cells)
                                ? tr("What column %1 is used for. It holds one value in every row, so no model "
                                     "learns from it")
                                      .arg(QString::fromStdString(cells.name))
                                : tr("What column %1 is used for").arg(QString::fromStdString(cells.name)));
        connect(roleBox, &QComboBox::activated, this, [this, column, roleBox] {
            if (mUpdatingEditor)
                return;
            // A choice in a box of the selection applies to every selected column, as spreadsheets do;
            // the target and the sequence are one column each, so those go to the box's column alone.
            const auto role = static_cast<data::ColumnRole>(roleBox->currentData().toInt());
            std::vector<std::size_t> columns = selectedColumns();
            if (isSingularRole(role) || std::find(columns.begin(), columns.end(), column) == columns.end())
                columns = {column};
            setRoleOf(columns, role);
        });
        mColumnEditor->setCellWidget(row, RoleColumn, roleBox);
    }
    // Unfocused, the wheel over a role box scrolls the table instead of changing a role.
    installWheelOnlyWhenFocused(mColumnEditor);
    mColumnEditor->resizeColumnToContents(TypeColumn);
    mColumnEditor->resizeColumnToContents(RoleColumn);
    mUpdatingEditor = false;
    showRoles();
    mColumnEditor->setCurrentCell(0, NameColumn);
}

void DataPage::showRoles()
{
    const auto table = mState->table();
    if (!table)
        return;
    const auto &roles = mState->roles();
    mModel->setRoles(roles);
    showDataInfo();
    {
        // A project file may bring its own policy.
        const QSignalBlocker blocker(mBadCells);
        mBadCells->setCurrentIndex(mBadCells->findData(static_cast<int>(mState->badCellPolicy())));
    }
    mUpdatingEditor = true;
    for (std::size_t column = 0; column < roles.size() && column < table->columnCount(); ++column)
        if (auto *box = qobject_cast<QComboBox *>(mColumnEditor->cellWidget(static_cast<int>(column), RoleColumn)))
            box->setCurrentIndex(box->findData(static_cast<int>(roles[column])));
    mUpdatingEditor = false;
    showColumnSummary(mColumnEditor->currentRow());
    askAboutLikelyOutcomes();
}

void DataPage::askAboutLikelyOutcomes()
{
    const auto table = mState->table();
    if (!table) {
        mOutcomesBar->dismiss();
        return;
    }
    const auto &roles = mState->roles();
    const std::string target = mState->targetName();
    if (mAskedTable.lock() != table || target != mAskedTarget) {
        mAskedTable = table;
        mAskedTarget = target;
        // A file with column notes names its outcomes itself, and they start ignored
        // (data::suggestedRoles), as the command line does.
        mOutcomesBar->ask(data::likelyOutcomes(*table, roles, mState->columnNotes()), target);
        return;
    }
    // Same table and target: a column the user has given another role is settled, but
    // one given back to the features is not asked about again; that was a choice.
    std::vector<std::string> features;
    for (std::size_t column = 0; column < roles.size() && column < table->columnCount(); ++column)
        if (roles[column] == data::ColumnRole::Feature)
            features.push_back(table->column(column).name);
    mOutcomesBar->keepOnly(features);
}

void DataPage::ignoreLikelyOutcomes()
{
    const auto table = mState->table();
    if (!table)
        return;
    std::vector<std::size_t> columns;
    for (const auto &outcome : mOutcomesBar->outcomes())
        if (const auto column = table->columnIndex(outcome.column))
            columns.push_back(*column);
    // The same path as a choice in the role boxes, so every page hears one rolesChanged().
    setRoleOf(columns, data::ColumnRole::Ignored);
}

void DataPage::showDataInfo()
{
    mInfo->setText(dataInfoText(*mState));
}

void DataPage::fitRowHeightToFont()
{
    mView->verticalHeader()->setDefaultSectionSize(mView->fontMetrics().height() + 6);
}

void DataPage::changeEvent(QEvent *event)
{
    // The rows have a fixed height (see the constructor), so a larger font (View ▸ Large font) needs taller rows.
    if (event->type() == QEvent::FontChange)
        fitRowHeightToFont();
    QWidget::changeEvent(event);
}

std::vector<std::size_t> DataPage::selectedColumns() const
{
    std::vector<std::size_t> columns;
    for (const QModelIndex &index : mColumnEditor->selectionModel()->selectedRows())
        columns.push_back(static_cast<std::size_t>(index.row()));
    std::sort(columns.begin(), columns.end());
    return columns;
}

void DataPage::setRoleOf(const std::vector<std::size_t> &columns, data::ColumnRole role)
{
    mState->setRoleOfColumns(columns, role);
    // A box whose column could not take the role shows the role it kept.
    showRoles();
}

void DataPage::showRoleMenu(const QPoint &position)
{
    const auto table = mState->table();
    const std::vector<std::size_t> columns = selectedColumns();
    QMenu menu(this);
    if (table && !columns.empty()) {
        addColumnRoleMenu(menu, *table, columns, [this](const std::vector<std::size_t> &taking, data::ColumnRole role) {
            setRoleOf(taking, role);
        });
        menu.addSeparator();
    }
    // Copy, which installTableCopy gave the editor, stays on the menu.
    menu.addActions(mColumnEditor->actions());
    menu.exec(mColumnEditor->viewport()->mapToGlobal(position));
}

void DataPage::showColumnSummary(int row)
{
    const auto table = mState->table();
    if (!table || row < 0 || static_cast<std::size_t>(row) >= table->columnCount())
        mSummary->clear();
    else
        mSummary->setText(columnSummaryText(table->column(static_cast<std::size_t>(row)), table->rowCount()));
    showCharts();
}

void DataPage::showCharts()
{
    const auto table = mState->table();
    const int row = mColumnEditor->currentRow();
    std::optional<std::size_t> selected;
    if (table && row >= 0 && static_cast<std::size_t>(row) < table->columnCount())
        selected = static_cast<std::size_t>(row);
    mCharts->showData(table, mState->roles(), selected);
}

bool DataPage::isAnalysing() const
{
    return mCharts->isComputing();
}

} // namespace gpumem::ui
