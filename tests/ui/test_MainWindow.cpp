#include "ui/MainWindow.h"

#include <QAction>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

class TestMainWindow : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase()
    {
        // Test mode keeps QSettings away from the user's real configuration.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("gpumem-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_MainWindow"));
        QSettings().clear();
    }

    void showsTitleAndMenus()
    {
        gpumem::ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.windowTitle(), QStringLiteral("GPU Memory Workbench"));
        QStringList menus;
        for (QAction *action : window.menuBar()->actions())
            menus << action->text();
        QCOMPARE(menus, QStringList({QStringLiteral("&File"), QStringLiteral("&Help")}));
        auto *quit = window.findChild<QAction *>(QStringLiteral("quitAction"));
        QVERIFY(quit);
        QCOMPARE(quit->shortcut(), QKeySequence(QKeySequence::Quit));
    }

    void remembersGeometryAcrossRestarts()
    {
        {
            gpumem::ui::MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resize(900, 650);
            window.close();
        }
        gpumem::ui::MainWindow reopened;
        QCOMPARE(reopened.size(), QSize(900, 650));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_MainWindow.moc"
