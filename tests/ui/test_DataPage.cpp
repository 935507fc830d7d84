// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "UiTestSupport.h"
#include "ui/app/MainWindow.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/pages/DataPage.h"
#include "ui/widgets/LikelyOutcomesBar.h"
#include "ui/widgets/TableCopy.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDir>
#include <QFile>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using gpumem::data::ColumnRole;

class TestDataPage : public QObject
{
    Q_OBJECT

  private:
    // The run-statistics file (writeRunStatisticsCsv) most tests load, written once.
    QTemporaryDir mFolder;
    QString mRunStatistics;

    // A Data page on a workbench state of its own, shown as the workbench shows it.
    struct ShownDataPage
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::DataPage page{&state};
        ShownDataPage() { page.show(); }
    };

    // Opens path in page and waits for the background load.
    static bool load(gpumem::ui::DataPage &page, const QString &path)
    {
        QSignalSpy finished(&page, &gpumem::ui::DataPage::loadFinished);
        page.openFile(path);
        if (!finished.wait(20000) && finished.isEmpty())
            return false;
        return finished.at(0).at(0).toBool();
    }

    // A file shaped like GPUMemNet's: the target, then two statistics measured while each job ran.
    static QString writeRunStatisticsCsv(const QTemporaryDir &folder)
    {
        const QString path = folder.filePath(QStringLiteral("gpumemnet.csv"));
        const bool written = gpumem::tests::writeFile(path, "Model,Batch Size,Total Parameters,Max GPU Memory (MiB),"
                                                            "Avg GPUTL,Avg SMACT\n"
                                                            "mlp,32,120000,1545,41.5,0.31\n"
                                                            "mlp,64,120000,1790,55.0,0.42\n"
                                                            "cnn,32,480000,2210,38.0,0.29\n"
                                                            "cnn,128,480000,3905,77.5,0.61\n"
                                                            "mlp,128,960000,3020,49.0,0.35\n"
                                                            "cnn,64,960000,2875,63.5,0.52\n");
        return written ? path : QString();
    }

    // Selects rows of the column editor as Ctrl+clicks on their names do.
    static void selectEditorRows(QTableWidget *editor, std::initializer_list<int> rows)
    {
        editor->clearSelection();
        for (const int row : rows)
            editor->selectionModel()->select(editor->model()->index(row, 0),
                                             QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }

    // Right-clicks the column editor at row, as a user does, and hands the menu to use
    // while it is open. Returns whether a menu came up.
    template <typename UseMenu> static bool rightClickEditor(QTableWidget *editor, int row, UseMenu useMenu)
    {
        bool shown = false;
        QTimer::singleShot(0, editor, [&] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            if (!menu)
                return;
            shown = true;
            useMenu(menu);
            menu->close();
        });
        const QPoint position = editor->visualItemRect(editor->item(row, 0)).center();
        QContextMenuEvent event(QContextMenuEvent::Mouse, position, editor->viewport()->mapToGlobal(position));
        QApplication::sendEvent(editor->viewport(), &event);
        return shown;
    }

    // Picks role in a column's role box, as a click on the entry does.
    static void chooseRole(QComboBox *box, const QString &role)
    {
        const int index = box->findText(role);
        box->setCurrentIndex(index);
        Q_EMIT box->activated(index);
    }

  private Q_SLOTS:
    void initTestCase()
    {
        gpumem::tests::isolateSettings("test_DataPage");
        mRunStatistics = writeRunStatisticsCsv(mFolder);
        QVERIFY(!mRunStatistics.isEmpty());
    }

    void loadsCsvIntoLazyTable()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, gpumem::tests::testDataPath("jobs.csv")));
        auto *view = page.findChild<QTableView *>(QStringLiteral("dataTable"));
        QVERIFY(view);
        QCOMPARE(view->model()->rowCount(), 4);
        QCOMPARE(view->model()->columnCount(), 5);
        // Row 2 of tests/data/jobs.csv: r2,64,sgd,"[...]",1490
        QCOMPARE(view->model()->index(1, 0).data().toString(), QStringLiteral("r2"));
        QCOMPARE(view->model()->index(1, 1).data().toString(), QStringLiteral("64"));
        QCOMPARE(view->model()->index(1, 4).data().toString(), QStringLiteral("1490"));
        QVERIFY(view->model()->index(1, 3).data().toString().startsWith(QStringLiteral("3 layers: linear, ReLU")));
    }

    void ignoresConstantColumnsAndSaysSo()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("probe.csv"));
        QVERIFY(gpumem::tests::writeFile(
            path, "family,steps,batch_size,peak_mib\nmlp,2,8,100\nmlp,2,16,200\nmlp,2,32,300\n"));
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, path));
        QCOMPARE(state.roles(), (std::vector<ColumnRole>{ColumnRole::Ignored, ColumnRole::Ignored, ColumnRole::Feature,
                                                         ColumnRole::Target}));
        auto *info = page.findChild<QLabel *>(QStringLiteral("dataInfo"));
        QVERIFY(info);
        QVERIFY2(info->text().contains(QStringLiteral("one value in every row")), qPrintable(info->text()));
        QVERIFY(info->text().contains(QStringLiteral("'family', 'steps'").toHtmlEscaped()));
        // Given a role again, the column leaves the note.
        state.setRole(0, ColumnRole::Feature);
        QVERIFY(!info->text().contains(QStringLiteral("family")));
        QVERIFY(info->text().contains(QStringLiteral("steps")));
    }

    void prefillsRolesAndLetsTheUserChangeThem()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, gpumem::tests::testDataPath("jobs.csv")));
        // memory_mib speaks of memory, so it is the inferred target; the run ids are ignored.
        QCOMPARE(state.targetName(), std::string("memory_mib"));
        QCOMPARE(state.roles()[0], ColumnRole::Ignored);
        QCOMPARE(state.roles()[3], ColumnRole::Sequence);
        auto *editor = page.findChild<QTableWidget *>(QStringLiteral("columnEditor"));
        QCOMPARE(editor->rowCount(), 5);
        QCOMPARE(editor->item(1, 1)->text(), QStringLiteral("numeric"));

        auto *batchRole = page.findChild<QComboBox *>(QStringLiteral("role_batch"));
        QVERIFY(batchRole);
        QCOMPARE(batchRole->currentText(), QStringLiteral("feature"));
        chooseRole(batchRole, QStringLiteral("ignored"));
        QCOMPARE(state.roles()[1], ColumnRole::Ignored);
        auto *view = page.findChild<QTableView *>(QStringLiteral("dataTable"));
        QVERIFY(view->model()->headerData(1, Qt::Horizontal).toString().contains(QStringLiteral("ignored")));

        // Making batch the target ignores the old target, a measurement of the same run that
        // as a feature would give the new answer away: one target per dataset.
        chooseRole(batchRole, QStringLiteral("target"));
        QCOMPARE(state.targetName(), std::string("batch"));
        QCOMPARE(state.roles()[4], ColumnRole::Ignored);
        auto *memoryRole = page.findChild<QComboBox *>(QStringLiteral("role_memory_mib"));
        QCOMPARE(memoryRole->currentText(), QStringLiteral("ignored"));
    }

    void givesSeveralSelectedColumnsARoleAtOnce()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, gpumem::tests::testDataPath("jobs.csv")));
        auto *editor = page.findChild<QTableWidget *>(QStringLiteral("columnEditor"));
        // Rows 1 and 2 of the editor: batch (numeric) and optimizer (categorical).
        editor->clearSelection();
        editor->selectionModel()->select(editor->model()->index(1, 0),
                                         QItemSelectionModel::Select | QItemSelectionModel::Rows);
        editor->selectionModel()->select(editor->model()->index(2, 0),
                                         QItemSelectionModel::Select | QItemSelectionModel::Rows);

        // Choosing a role in one box of the selection gives it to both columns.
        auto *batchRole = page.findChild<QComboBox *>(QStringLiteral("role_batch"));
        chooseRole(batchRole, QStringLiteral("ignored"));
        QCOMPARE(state.roles()[1], ColumnRole::Ignored);
        QCOMPARE(state.roles()[2], ColumnRole::Ignored);
        QCOMPARE(page.findChild<QComboBox *>(QStringLiteral("role_optimizer"))->currentText(),
                 QStringLiteral("ignored"));
        QCOMPARE(state.targetName(), std::string("memory_mib"));

        // The context menu offers the roles two columns can share: features yes, one target no.
        bool targetEnabled = true;
        bool menuShown = false;
        QTimer::singleShot(0, &page, [&] {
            auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
            if (!menu)
                return;
            menuShown = true;
            auto *target = menu->findChild<QAction *>(QStringLiteral("setRole_target"));
            targetEnabled = target && target->isEnabled();
            if (auto *feature = menu->findChild<QAction *>(QStringLiteral("setRole_feature")))
                feature->trigger();
            menu->close();
        });
        Q_EMIT editor->customContextMenuRequested(editor->visualItemRect(editor->item(1, 0)).center());
        QVERIFY(menuShown);
        QVERIFY(!targetEnabled);
        QCOMPARE(state.roles()[1], ColumnRole::Feature);
        QCOMPARE(state.roles()[2], ColumnRole::Feature);
    }

    void asksAboutLikelyOutcomesAndIgnoresThem()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, mRunStatistics));
        QCOMPARE(state.targetName(), std::string("Max GPU Memory (MiB)"));
        auto *bar = page.findChild<gpumem::ui::LikelyOutcomesBar *>(QStringLiteral("likelyOutcomesBar"));
        QVERIFY(bar);
        QVERIFY(bar->isVisible());
        QVERIFY2(bar->text().contains(QStringLiteral("Avg GPUTL")), qPrintable(bar->text()));
        QVERIFY2(bar->text().contains(QStringLiteral("Avg SMACT")), qPrintable(bar->text()));
        QVERIFY2(bar->text().contains(QStringLiteral("hand a model the answer")), qPrintable(bar->text()));
        QVERIFY(!bar->text().contains(QStringLiteral("Batch Size")));
        // Asking blocks nothing: the roles are still the suggested ones, and the page still works.
        QCOMPARE(state.roles()[4], ColumnRole::Feature);
        QCOMPARE(state.roles()[5], ColumnRole::Feature);

        QSignalSpy rolesChanged(&state, &gpumem::ui::WorkbenchState::rolesChanged);
        bar->findChild<QPushButton *>(QStringLiteral("ignoreLikelyOutcomes"))->click();
        QCOMPARE(rolesChanged.count(), 1); // one change, as for a choice in the role boxes
        QCOMPARE(state.roles()[4], ColumnRole::Ignored);
        QCOMPARE(state.roles()[5], ColumnRole::Ignored);
        QCOMPARE(state.roles()[1], ColumnRole::Feature);
        QCOMPARE(page.findChild<QComboBox *>(QStringLiteral("role_Avg GPUTL"))->currentText(),
                 QStringLiteral("ignored"));
        QVERIFY(!bar->isVisible());
    }

    void keepsLikelyOutcomesUntilTheTargetChanges()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, mRunStatistics));
        auto *bar = page.findChild<gpumem::ui::LikelyOutcomesBar *>(QStringLiteral("likelyOutcomesBar"));
        QVERIFY(bar->isVisible());
        bar->findChild<QPushButton *>(QStringLiteral("keepLikelyOutcomes"))->click();
        QVERIFY(!bar->isVisible());
        QCOMPARE(state.roles()[4], ColumnRole::Feature);
        QCOMPARE(state.roles()[5], ColumnRole::Feature);

        // Other role changes do not ask again: the user has answered for this target.
        chooseRole(page.findChild<QComboBox *>(QStringLiteral("role_Total Parameters")), QStringLiteral("ignored"));
        chooseRole(page.findChild<QComboBox *>(QStringLiteral("role_Total Parameters")), QStringLiteral("feature"));
        QVERIFY(!bar->isVisible());

        // Another target is another question.
        chooseRole(page.findChild<QComboBox *>(QStringLiteral("role_Batch Size")), QStringLiteral("target"));
        QCOMPARE(state.targetName(), std::string("Batch Size"));
        QVERIFY(bar->isVisible());
        QVERIFY2(bar->text().contains(QStringLiteral("Avg GPUTL")), qPrintable(bar->text()));

        // A column given another role by hand leaves the question; when none is left, the bar goes.
        chooseRole(page.findChild<QComboBox *>(QStringLiteral("role_Avg GPUTL")), QStringLiteral("ignored"));
        QVERIFY(!bar->text().contains(QStringLiteral("Avg GPUTL")));
        for (const auto &outcome : std::vector<gpumem::data::LikelyOutcome>(bar->outcomes()))
            state.setRole(*state.table()->columnIndex(outcome.column), ColumnRole::Ignored);
        QVERIFY(!bar->isVisible());
    }

    void fileWithColumnNotesIsNotAskedAbout()
    {
        QTemporaryDir folder;
        const QString path = writeRunStatisticsCsv(folder);
        const QByteArray notes = "{\"target\": \"Max GPU Memory (MiB)\", \"outcomes\": [\"Max GPU Memory (MiB)\"]}";
        QVERIFY(gpumem::tests::writeFile(folder.filePath(QStringLiteral("gpumemnet.columns.json")), notes));
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, path));
        QCOMPARE(state.targetName(), std::string("Max GPU Memory (MiB)"));
        auto *bar = page.findChild<gpumem::ui::LikelyOutcomesBar *>(QStringLiteral("likelyOutcomesBar"));
        QVERIFY(!bar->isVisible());
        // The notes name the file's outcomes; a column they leave out is a feature by the file's word.
        QCOMPARE(state.roles()[4], ColumnRole::Feature);
        chooseRole(page.findChild<QComboBox *>(QStringLiteral("role_Batch Size")), QStringLiteral("target"));
        QVERIFY(!bar->isVisible());
    }

    // Bug: installTableCopy gave the column editor an actions-only context menu after the
    // role menu was connected, so a right-click offered Copy alone, and several selected
    // columns could not be given a role from the menu that docs/workbench.md promised.
    void rightClickGivesEverySelectedColumnARole()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, mRunStatistics));
        auto *editor = page.findChild<QTableWidget *>(QStringLiteral("columnEditor"));
        selectEditorRows(editor, {1, 2, 4});
        QString ignoredLabel;
        bool targetEnabled = true;
        bool copyOffered = false;
        QVERIFY(rightClickEditor(editor, 2, [&](QMenu *menu) {
            auto *roles = menu->findChild<QMenu *>(QStringLiteral("setRoleMenu"));
            auto *ignored = roles ? roles->findChild<QAction *>(QStringLiteral("setRole_ignored")) : nullptr;
            if (!ignored)
                return;
            ignoredLabel = ignored->text();
            targetEnabled = roles->findChild<QAction *>(QStringLiteral("setRole_target"))->isEnabled();
            copyOffered = menu->actions().contains(editor->findChild<QAction *>(QStringLiteral("copyTableAction")));
            ignored->trigger();
        }));
        QVERIFY2(ignoredLabel.contains(QStringLiteral("all 3 columns")), qPrintable(ignoredLabel));
        QVERIFY(!targetEnabled); // one target per dataset
        QVERIFY(copyOffered);
        QCOMPARE(state.roles()[1], ColumnRole::Ignored);
        QCOMPARE(state.roles()[2], ColumnRole::Ignored);
        QCOMPARE(state.roles()[4], ColumnRole::Ignored);
        QCOMPARE(state.roles()[5], ColumnRole::Feature);
        QCOMPARE(state.targetName(), std::string("Max GPU Memory (MiB)"));
        // The selection survives, ready for the next change.
        QCOMPARE(editor->selectionModel()->selectedRows().size(), 3);

        // One numeric column may become the target from the menu.
        selectEditorRows(editor, {1});
        QVERIFY(rightClickEditor(editor, 1, [&](QMenu *menu) {
            if (auto *target = menu->findChild<QAction *>(QStringLiteral("setRole_target"));
                target && target->isEnabled())
                target->trigger();
        }));
        QCOMPARE(state.targetName(), std::string("Batch Size"));
    }

    void rolesAColumnCannotTakeAreSkippedForIt()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, gpumem::tests::testDataPath("jobs.csv")));
        auto *editor = page.findChild<QTableWidget *>(QStringLiteral("columnEditor"));
        state.setRoleOfColumns({1, 2}, ColumnRole::Ignored);
        // batch (numeric), optimizer (categorical) and layers (a sequence, never a plain feature).
        selectEditorRows(editor, {1, 2, 3});
        QString featureLabel;
        bool sequenceEnabled = true;
        QVERIFY(rightClickEditor(editor, 3, [&](QMenu *menu) {
            auto *feature = menu->findChild<QAction *>(QStringLiteral("setRole_feature"));
            if (!feature)
                return;
            featureLabel = feature->text();
            sequenceEnabled = menu->findChild<QAction *>(QStringLiteral("setRole_sequence"))->isEnabled();
            feature->trigger();
        }));
        QVERIFY2(featureLabel.contains(QStringLiteral("2 of 3 columns")), qPrintable(featureLabel));
        QVERIFY(!sequenceEnabled);
        QCOMPARE(state.roles()[1], ColumnRole::Feature);
        QCOMPARE(state.roles()[2], ColumnRole::Feature);
        QCOMPARE(state.roles()[3], ColumnRole::Sequence);
        QCOMPARE(page.findChild<QComboBox *>(QStringLiteral("role_layers"))->currentText(), QStringLiteral("sequence"));

        // The same in a role box of the selection: the choice goes to every selected column that can take it.
        auto *batchRole = page.findChild<QComboBox *>(QStringLiteral("role_batch"));
        QTest::mouseClick(batchRole, Qt::LeftButton);
        QTest::keyClick(batchRole, Qt::Key_Escape);
        QCOMPARE(editor->selectionModel()->selectedRows().size(), 3);
        chooseRole(batchRole, QStringLiteral("ignored"));
        QCOMPARE(state.roles()[1], ColumnRole::Ignored);
        QCOMPARE(state.roles()[2], ColumnRole::Ignored);
        QCOMPARE(state.roles()[3], ColumnRole::Ignored); // any column can be ignored
        QCOMPARE(editor->selectionModel()->selectedRows().size(), 3);
        // The target is one column: chosen in a box of the selection, it goes to that column alone.
        chooseRole(batchRole, QStringLiteral("target"));
        QCOMPARE(state.targetName(), std::string("batch"));
        QCOMPARE(state.roles()[2], ColumnRole::Ignored);
    }

    // How the bar looks on the workbench's smallest supported screens: its text wraps and is
    // never cut. The pictures are left in the build folder for a look.
    void likelyOutcomesBarFitsSmallScreens_data()
    {
        addColumns<int, int>("width", "height");
        addRow("1280x800", 1280, 800);
        addRow("1024x768", 1024, 768);
    }

    void likelyOutcomesBarFitsSmallScreens()
    {
        const auto [width, height] = fetchColumns<int, int>("width", "height");
        gpumem::ui::MainWindow window;
        window.resize(width, height);
        window.show();
        QSignalSpy finished(window.dataPage(), &gpumem::ui::DataPage::loadFinished);
        window.openData(mRunStatistics);
        QVERIFY(finished.wait(20000));
        auto *bar = window.dataPage()->findChild<gpumem::ui::LikelyOutcomesBar *>(QStringLiteral("likelyOutcomesBar"));
        QVERIFY(bar->isVisible());
        auto *text = bar->findChild<QLabel *>(QStringLiteral("likelyOutcomesText"));
        QVERIFY(QTest::qWaitForWindowExposed(&window)); // the layout settles before the measuring
        QVERIFY2(text->height() >= text->heightForWidth(text->width()),
                 qPrintable(QStringLiteral("%1 < %2").arg(text->height()).arg(text->heightForWidth(text->width()))));
        QVERIFY(bar->geometry().right() <= window.dataPage()->width());
        // Named by the size the window took: a smaller screen than asked for (offscreen's
        // default is 800×600) keeps the window on it.
        QVERIFY(window.grab().save(QStringLiteral(QT_TESTCASE_BUILDDIR "/datapage-likely-outcomes-%1x%2.png")
                                       .arg(window.width())
                                       .arg(window.height())));
    }

    void rolesATypeCannotTakeAreRefusedForThatColumnOnly()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::DataPage page(&state);
        QVERIFY(load(page, gpumem::tests::testDataPath("jobs.csv")));
        const auto before = state.roles();
        // batch is numeric: it can never be the layer-sequence column, even when asked directly.
        state.setRoleOfColumns({1}, ColumnRole::Sequence);
        QCOMPARE(state.roles(), before);
        // Two columns cannot both be the target.
        state.setRoleOfColumns({1, 2}, ColumnRole::Target);
        QCOMPARE(state.roles(), before);
        // Where one column of the selection cannot take a role, the others still do.
        state.setRoleOfColumns({0, 1}, ColumnRole::Feature);
        QCOMPARE(state.roles()[0], ColumnRole::Feature);
        QCOMPARE(state.roles()[1], ColumnRole::Feature);
    }

    void showsSummaryAndTargetHistogram()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, gpumem::tests::testDataPath("jobs.csv")));
        auto *editor = page.findChild<QTableWidget *>(QStringLiteral("columnEditor"));
        editor->setCurrentCell(4, 0);
        const QString summary = page.findChild<QLabel *>(QStringLiteral("columnSummary"))->text();
        // memory_mib: 1545, 1490, 1610, 1702 → min 1490, max 1702, mean 1586.75.
        QVERIFY2(summary.contains(QStringLiteral("min 1490")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("max 1702")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("mean 1586.75")), qPrintable(summary));
        auto *histogram = page.findChild<QCustomPlot *>(QStringLiteral("targetHistogram"));
        QCOMPARE(histogram->plottableCount(), 1);
        auto *bars = qobject_cast<QCPBars *>(histogram->plottable(0));
        double total = 0.0;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            total += it->value;
        QCOMPARE(total, 4.0);
    }

    void showsOneLineErrorForBadFile()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(!load(page, gpumem::tests::testDataPath("ragged.csv")));
        auto *panel = page.findChild<QLabel *>(QStringLiteral("dataErrorPanel"));
        QVERIFY(panel->isVisible());
        // Line 3 of ragged.csv has two fields where the header has three.
        QVERIFY2(panel->text().contains(QStringLiteral("ragged.csv:3")), qPrintable(panel->text()));
        QVERIFY(!panel->text().contains(QLatin1Char('\n')));
        QVERIFY(!state.table());

        // A good file afterwards hides the panel.
        QVERIFY(load(page, gpumem::tests::testDataPath("jobs.csv")));
        QVERIFY(!panel->isVisible());
    }

    void badFileKeepsThePreviousDataAndTheApplication_data()
    {
        addColumns<QString, QString>("file", "messagePart");
        addRow("text only: x,y / hello,world", "hostile_no_feature.csv", "no feature or sequence column");
        addRow("only the target: job,mem_mib", "hostile_only_target.csv", "no feature or sequence column");
        addRow("invalid UTF-8", "hostile_utf8_category.csv", "hostile_utf8_category.csv:3:2: invalid UTF-8");
    }

    // Bug: a CSV that leaves no feature column made assignRoles throw inside the load's
    // finished handler; the workbench aborted (exit 134) and unsaved work was lost.
    void badFileKeepsThePreviousDataAndTheApplication()
    {
        const auto [file, messagePart] = fetchColumns<QString, QString>("file", "messagePart");
        gpumem::ui::MainWindow window;
        window.show();
        auto *page = window.dataPage();
        gpumem::ui::WorkbenchState *state = window.state();
        {
            QSignalSpy finished(page, &gpumem::ui::DataPage::loadFinished);
            window.openData(gpumem::tests::testDataPath("jobs.csv"));
            QVERIFY(finished.wait(20000));
            QVERIFY(finished.at(0).at(0).toBool());
        }
        state->setRole(1, ColumnRole::Ignored); // work the user has not saved
        const auto previousTable = state->table();
        const auto previousRoles = state->roles();

        // The same entry point as File > Open and `gpumem-workbench FILE.csv`.
        QSignalSpy finished(page, &gpumem::ui::DataPage::loadFinished);
        window.openData(gpumem::tests::testDataPath(file.toUtf8().constData()));
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);

        auto *panel = page->findChild<QLabel *>(QStringLiteral("dataErrorPanel"));
        QVERIFY(panel->isVisible());
        QVERIFY2(panel->text().contains(messagePart), qPrintable(panel->text()));
        QVERIFY(!panel->text().contains(QLatin1Char('\n')));
        QCOMPARE(page->errorText(), panel->text());
        QCOMPARE(state->table(), previousTable);
        QVERIFY(state->roles() == previousRoles);
        QCOMPARE(state->dataPath(), gpumem::tests::testDataPath("jobs.csv"));
        auto *view = page->findChild<QTableView *>(QStringLiteral("dataTable"));
        QCOMPARE(view->model()->rowCount(), 4);
        QVERIFY(window.isVisible());
    }

    // Every CSV of tests/data, most of them hostile, through the real open path: each
    // loads, or shows one line naming the file while the previous data stays.
    void everyTestFileLoadsOrShowsOneLine()
    {
        gpumem::ui::MainWindow window;
        window.show();
        auto *page = window.dataPage();
        const QString good = gpumem::tests::testDataPath("jobs.csv");
        const QStringList files = QDir(QStringLiteral(GPUMEM_TEST_DATA_DIR)).entryList({QStringLiteral("*.csv")});
        QVERIFY(files.size() >= 20);
        for (const QString &file : files) {
            QSignalSpy reloaded(page, &gpumem::ui::DataPage::loadFinished);
            window.openData(good);
            QVERIFY(reloaded.wait(20000));
            const auto previousTable = window.state()->table();

            QSignalSpy finished(page, &gpumem::ui::DataPage::loadFinished);
            window.openData(QDir(QStringLiteral(GPUMEM_TEST_DATA_DIR)).filePath(file));
            QVERIFY2(finished.wait(20000), qPrintable(file));
            QVERIFY(window.isVisible());
            if (finished.at(0).at(0).toBool())
                continue;
            const QString error = page->errorText();
            QVERIFY2(error.contains(file) && !error.contains(QLatin1Char('\n')), qPrintable(file + ": " + error));
            QCOMPARE(window.state()->table(), previousTable);
        }
    }

    void cancellingALoadKeepsTheDataOnShow()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, gpumem::tests::testDataPath("jobs.csv")));
        const auto previousTable = state.table();

        QTemporaryDir dir;
        const QString big = dir.filePath(QStringLiteral("big.csv"));
        QVERIFY(gpumem::tests::writeLargeJobsCsv(big, 300000));
        QSignalSpy finished(&page, &gpumem::ui::DataPage::loadFinished);
        page.openFile(big);
        auto *cancel = page.findChild<QPushButton *>(QStringLiteral("cancelOperation"));
        QVERIFY(cancel && cancel->isVisible());
        cancel->click();
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(state.table(), previousTable);
        QVERIFY(page.errorText().isEmpty());
        QVERIFY(!cancel->isVisible());
        // The next load is not stopped by the last one's cancel.
        QVERIFY(load(page, big));
        QCOMPARE(state.table()->rowCount(), std::size_t{300000});
    }

    void badFileAsTheFirstFileLeavesNoData()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(!load(page, gpumem::tests::testDataPath("hostile_no_feature.csv")));
        QVERIFY(!state.table());
        QVERIFY(page.errorText().contains(QStringLiteral("hostile_no_feature.csv")));
    }

    void copiesSelectionAsTabSeparatedText()
    {
        ShownDataPage shown;
        auto &[state, page] = shown;
        QVERIFY(load(page, gpumem::tests::testDataPath("jobs.csv")));
        auto *view = page.findChild<QTableView *>(QStringLiteral("dataTable"));
        view->selectionModel()->select(view->model()->index(0, 1), QItemSelectionModel::Select);
        view->selectionModel()->select(view->model()->index(0, 2), QItemSelectionModel::Select);
        view->selectionModel()->select(view->model()->index(1, 1), QItemSelectionModel::Select);
        view->selectionModel()->select(view->model()->index(1, 2), QItemSelectionModel::Select);
        const QStringList lines = gpumem::ui::selectionAsTabSeparatedText(view).split(QLatin1Char('\n'));
        QCOMPARE(lines.at(1), QStringLiteral("32\tadam"));
        QCOMPARE(lines.at(2), QStringLiteral("64\tsgd"));
        QVERIFY(lines.at(0).startsWith(QStringLiteral("batch")));
    }
};

QTEST_MAIN(TestDataPage)
#include "test_DataPage.moc"
