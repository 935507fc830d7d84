// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 25: on a 1024×768 screen the window opened at 1400×900, and Large font, the help
// panel and an estimate on the Your model page widened it further, off the screen.
#include "DataTables.h"
#include "SmallScreen.h"
#include "UiTestSupport.h"
#include "core/EstimateFixtures.h"
#include "ui/app/MainWindow.h"
#include "ui/pages/SweepDialog.h"
#include "ui/pages/YourModelPage.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QScreen>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include <algorithm>

using namespace gpumem;

namespace {

// The smallest screen the workbench is made for; the test runs on one of this size.
constexpr int screenWidth = 1024;
constexpr int screenHeight = 768;

bool insideScreen(const QWidget &window)
{
    return window.screen()->availableGeometry().contains(window.frameGeometry());
}

QString describe(const QWidget &window)
{
    const QRect frame = window.frameGeometry();
    return QStringLiteral("frame %1×%2 at %3,%4").arg(frame.width()).arg(frame.height()).arg(frame.x()).arg(frame.y());
}

} // namespace

class TestWindowFitsScreen : public QObject, private tests::UsesEstimateFixtures
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase()
    {
        tests::isolateSettings("test_WindowFitsScreen");
        QCOMPARE(QApplication::primaryScreen()->geometry().size(), QSize(screenWidth, screenHeight));
    }

    void cleanup()
    {
        QSettings().clear();
        QApplication::setFont(QFont());
    }

    void opensInsideTheScreen()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY2(insideScreen(window), qPrintable(describe(window)));
    }

    void largeFontAndTheHelpPanelStayOnScreen()
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setLargeFont(true);
        QTest::qWait(50);
        QTRY_VERIFY2(insideScreen(window), qPrintable(describe(window)));
        window.showHelp();
        QTest::qWait(50);
        QTRY_VERIFY2(insideScreen(window), qPrintable(describe(window)));
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("helpDock"));
        const QRect panel(dock->mapToGlobal(QPoint(0, 0)), dock->size());
        QVERIFY(window.screen()->availableGeometry().contains(panel));
        // A few words a line, not one: the panel is at least 28 average characters wide.
        auto *help = window.findChild<QTextBrowser *>(QStringLiteral("helpBrowser"));
        QVERIFY2(help->width() >= 28 * help->fontMetrics().averageCharWidth(),
                 qPrintable(QString::number(help->width())));
    }

    void estimatingKeepsTheWindowOnScreen()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setLargeFont(true);
        ui::YourModelPage *page = window.yourModelPage();
        window.openFile(QString::fromStdString(mFixtures.path("mlp.pt")));
        page->findChild<QLineEdit *>(QStringLiteral("inputShapes"))->setText(QStringLiteral("20"));
        QSignalSpy finished(page, &ui::YourModelPage::estimateFinished);
        QVERIFY(page->start());
        QVERIFY(finished.wait(120000));
        QVERIFY(finished.front().front().toBool());
        QTest::qWait(50);
        QTRY_VERIFY2(insideScreen(window), qPrintable(describe(window)));
    }

    // Issue 25: the sweep dialog's Hyperparameter column cut the names it lists.
    void sweepDialogShowsWholeHyperparameterNames()
    {
        ui::SweepDialog dialog(tests::quickHyperparameters(1));
        dialog.addParameter(QStringLiteral("learning_rate"), QStringLiteral("0.001,0.01"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("sweepParameters"));
        auto *names = qobject_cast<QComboBox *>(table->cellWidget(0, 0));
        QVERIFY(names);
        int longest = 0;
        for (int item = 0; item < names->count(); ++item)
            longest = std::max(longest, names->fontMetrics().horizontalAdvance(names->itemText(item)));
        QVERIFY2(table->columnWidth(0) > longest,
                 qPrintable(QStringLiteral("%1 px for names up to %2 px").arg(table->columnWidth(0)).arg(longest)));
        QVERIFY(dialog.frameGeometry().width() <= screenWidth);
    }

    // Every page fits the room it gets in a 1024×768 window without scrolling, in both font modes.
    void everyPageFitsTheSmallestScreen_data()
    {
        addColumns<int, bool>("page", "largeFont");
        const QStringList names{"data", "model", "training", "compare", "predict", "runs", "your model"};
        for (int page = 0; page < names.size(); ++page)
            for (const bool large : {false, true})
                addRow(qPrintable(names[page] + (large ? QStringLiteral(", large font") : QString())), page, large);
    }
    void everyPageFitsTheSmallestScreen()
    {
        QFETCH(int, page);
        QFETCH(bool, largeFont);
        ui::MainWindow window;
        window.setLargeFont(largeFont);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.pages()->setCurrentIndex(page);
        QTest::qWait(50);
        const auto *area = qobject_cast<QScrollArea *>(window.pages()->currentWidget());
        QVERIFY(area);
        const QSize room = area->maximumViewportSize();
        const QSize needed = area->widget()->minimumSizeHint();
        const QString shortfall = QStringLiteral("needs %1×%2, has %3×%4")
                                      .arg(needed.width())
                                      .arg(needed.height())
                                      .arg(room.width())
                                      .arg(room.height());
        QVERIFY2(needed.boundedTo(room) == needed, qPrintable(shortfall));
    }
};

int main(int argc, char **argv)
{
    // The offscreen platform with one screen of the size above, whatever the environment says.
    return gpumem::tests::runOnScreen<TestWindowFitsScreen>(argc, argv, screenWidth, screenHeight);
}

#include "test_WindowFitsScreen.moc"
