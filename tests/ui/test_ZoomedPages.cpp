// SPDX-License-Identifier: GPL-3.0-or-later
// Every page at the largest zoom step on a 1024×768 screen: large font cut Compare's tick labels
// ("10..20..30"), clipped the Your model page's form with its Estimate button off-screen, garbled
// its table headers and clipped axis titles. Each page is shown with results in it (a training, a
// comparison, an estimate) and checked as a reader would: every button can be reached, no label
// is cut, no chart elides its tick labels, every table header's text fits its column.
// With GPUMEM_TEST_SCREENSHOTS=DIR, each page is saved there as a PNG to look at.
#include "DataTables.h"
#include "SmallScreen.h"
#include "UiTestSupport.h"
#include "core/EstimateFixtures.h"
#include "ui/app/MainWindow.h"
#include "ui/app/ZoomSteps.h"
#include "ui/pages/ComparePage.h"
#include "ui/pages/ModelPage.h"
#include "ui/pages/TrainingPage.h"
#include "ui/pages/YourModelPage.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace gpumem;

namespace {

constexpr int kScreenWidth = 1024;
constexpr int kScreenHeight = 768;
constexpr int kPageCount = 7;

QString describe(const QWidget *widget)
{
    QString text;
    if (const auto *button = qobject_cast<const QAbstractButton *>(widget))
        text = button->text();
    else if (const auto *label = qobject_cast<const QLabel *>(widget))
        text = label->text().left(60);
    return QStringLiteral("%1 \"%2\" (%3)")
        .arg(QString::fromLatin1(widget->metaObject()->className()), text, widget->objectName());
}

// Empty when widget can be seen whole, scrolling where a scroll area allows: each parent up to
// the window holds its child inside its rectangle, except a scroll area's viewport, whose
// content scrolls. Else what cuts it.
QString cutBy(const QWidget *widget)
{
    for (const QWidget *child = widget; !child->isWindow(); child = child->parentWidget()) {
        const QWidget *parent = child->parentWidget();
        // Content scrolls up and down, and an item view's sideways; a form that scrolls sideways hides half of itself.
        const auto *area = qobject_cast<const QAbstractScrollArea *>(parent->parentWidget());
        if (area && area->viewport() == parent &&
            (!qobject_cast<const QScrollArea *>(area) || child->width() <= parent->width()))
            continue;
        if (!parent->rect().contains(child->geometry()))
            return QStringLiteral("%1 cut by %2: %3,%4 %5×%6 in %7×%8")
                .arg(describe(widget), describe(parent))
                .arg(child->x())
                .arg(child->y())
                .arg(child->width())
                .arg(child->height())
                .arg(parent->width())
                .arg(parent->height());
    }
    return {};
}

// Empty when label shows its whole text in the room it has, else what is cut.
QString labelCut(const QLabel *label)
{
    if (label->text().isEmpty() || !label->pixmap().isNull())
        return {};
    const QSize size = label->size();
    const bool fits = label->wordWrap() ? size.height() >= label->heightForWidth(size.width())
                                        : size.width() >= label->sizeHint().width() &&
                                              size.height() >= label->minimumSizeHint().height();
    if (!fits)
        return QStringLiteral("%1 is %2×%3 for a text of %4×%5")
            .arg(describe(label))
            .arg(size.width())
            .arg(size.height())
            .arg(label->sizeHint().width())
            .arg(label->wordWrap() ? label->heightForWidth(size.width()) : label->sizeHint().height());
    return cutBy(label);
}

// Empty when every visible column of table is at least as wide as its header's text.
QString headerCut(const QTableView *table)
{
    const QHeaderView *header = table->horizontalHeader();
    if (!header->isVisible() || !table->model())
        return {};
    const QFontMetrics metrics(header->font());
    for (int column = 0; column < table->model()->columnCount(); ++column) {
        if (header->isSectionHidden(column))
            continue;
        const QString text = table->model()->headerData(column, Qt::Horizontal).toString();
        int widest = 0;
        for (const QString &line : text.split(QLatin1Char('\n')))
            widest = std::max(widest, metrics.horizontalAdvance(line));
        if (header->sectionSize(column) < widest)
            return QStringLiteral("%1: column \"%2\" is %3 px for a header of %4 px")
                .arg(table->objectName(), text)
                .arg(header->sectionSize(column))
                .arg(widest);
    }
    return {};
}

// With GPUMEM_TEST_LAYOUT_DUMP set, prints the widgets below widget with their minimum widths.
void dumpMinimumWidths(const QWidget *widget, int depth = 0)
{
    if (!widget->isVisible() || depth > 12)
        return;
    qInfo().noquote() << QString(depth * 2, QLatin1Char(' ')) + describe(widget) << widget->minimumSizeHint().width()
                      << widget->minimumWidth() << widget->width();
    for (const QObject *child : widget->children())
        if (const auto *childWidget = qobject_cast<const QWidget *>(child))
            dumpMinimumWidths(childWidget, depth + 1);
}

QStringList problemsOn(QWidget *page)
{
    if (qEnvironmentVariableIsSet("GPUMEM_TEST_LAYOUT_DUMP"))
        dumpMinimumWidths(page);
    QStringList problems;
    for (const QPushButton *button : page->findChildren<QPushButton *>())
        if (button->isVisible() && !cutBy(button).isEmpty())
            problems << cutBy(button);
    for (const QLabel *label : page->findChildren<QLabel *>())
        if (label->isVisible() && !labelCut(label).isEmpty())
            problems << labelCut(label);
    for (const QTableView *table : page->findChildren<QTableView *>())
        if (table->isVisible() && !headerCut(table).isEmpty())
            problems << headerCut(table);
    for (const QChartView *view : page->findChildren<QChartView *>())
        if (view->isVisible())
            for (const QAbstractAxis *axis : view->chart()->axes())
                if (axis->labelsTruncated())
                    problems << QStringLiteral("%1: the axis \"%2\" cuts its tick labels")
                                    .arg(view->objectName(), axis->titleText());
    return problems;
}

} // namespace

class TestZoomedPages : public QObject, private tests::UsesEstimateFixtures
{
    Q_OBJECT

  private:
    std::unique_ptr<ui::MainWindow> mWindow;

  private Q_SLOTS:
    void initTestCase()
    {
        tests::isolateSettings("test_ZoomedPages");
        QCOMPARE(QApplication::primaryScreen()->geometry().size(), QSize(kScreenWidth, kScreenHeight));
        mWindow = std::make_unique<ui::MainWindow>();
        mWindow->resize(kScreenWidth, kScreenHeight);
        mWindow->show();
        QVERIFY(QTest::qWaitForWindowExposed(mWindow.get()));
        // Results on every page, as a lesson would have them: a training, a comparison, an estimate.
        tests::prepareQuickTraining(*mWindow->state(), 2);
        QSignalSpy trained(mWindow->trainingPage(), &ui::TrainingPage::trainingFinished);
        QVERIFY(mWindow->trainingPage()->start());
        QVERIFY(trained.wait(120000));
        ui::ComparePage *compare = mWindow->comparePage();
        compare->setSelectedModels({QStringLiteral("decision_tree"), QStringLiteral("ridge")});
        compare->setFolds(2);
        QSignalSpy compared(compare, &ui::ComparePage::comparisonFinished);
        QVERIFY(compare->start());
        QVERIFY(compared.wait(120000));
        if (mFixtures.available()) {
            ui::YourModelPage *yourModel = mWindow->yourModelPage();
            yourModel->openModel(QString::fromStdString(mFixtures.path("mlp.pt")));
            yourModel->findChild<QLineEdit *>(QStringLiteral("inputShapes"))->setText(QStringLiteral("20"));
            QSignalSpy estimated(yourModel, &ui::YourModelPage::estimateFinished);
            QVERIFY(yourModel->start());
            QVERIFY(estimated.wait(120000));
        }
        mWindow->setZoom(ui::zoomSteps.back());
        QTest::qWait(100);
    }

    void cleanupTestCase()
    {
        mWindow->setZoom(ui::normalZoom);
        // exit without the unsaved-work question: the window goes without a close event.
        mWindow.reset();
    }

    void everyPageIsUsableAtTheLargestZoom_data()
    {
        addColumns<int>("page");
        const QStringList names{"data", "model", "training", "compare", "predict", "runs", "your model"};
        for (int page = 0; page < kPageCount; ++page)
            addRow(qPrintable(names[page]), page);
    }
    void everyPageIsUsableAtTheLargestZoom()
    {
        QFETCH(int, page);
        QCOMPARE(mWindow->zoom(), 200);
        QVERIFY(mWindow->screen()->availableGeometry().contains(mWindow->frameGeometry()));
        mWindow->pages()->setCurrentIndex(page);
        QTest::qWait(200);
        const QString folder = qEnvironmentVariable("GPUMEM_TEST_SCREENSHOTS");
        if (!folder.isEmpty()) {
            QDir().mkpath(folder);
            mWindow->grab().save(QDir(folder).filePath(QStringLiteral("page-%1.png").arg(page)));
        }
        QWidget *shown = mWindow->currentPage();
        const QStringList problems = problemsOn(shown);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
        // The page's own scroll area lies inside the window, so what it scrolls to can be seen.
        QVERIFY(cutBy(mWindow->pages()->currentWidget()).isEmpty());
    }

    // The buttons a lesson needs, each on show when its page is.
    void keyButtonsCanBeReached_data()
    {
        addColumns<int, QString>("page", "button");
        addRow("train", 2, QStringLiteral("startTraining"));
        addRow("compare", 3, QStringLiteral("runComparison"));
        addRow("estimate", 6, QStringLiteral("estimateButton"));
    }
    void keyButtonsCanBeReached()
    {
        QFETCH(int, page);
        QFETCH(QString, button);
        mWindow->pages()->setCurrentIndex(page);
        QTest::qWait(50);
        auto *found = mWindow->currentPage()->findChild<QPushButton *>(button);
        QVERIFY(found);
        QVERIFY(found->isVisible());
        QVERIFY2(cutBy(found).isEmpty(), qPrintable(cutBy(found)));
    }
};

int main(int argc, char **argv)
{
    return gpumem::tests::runOnScreen<TestZoomedPages>(argc, argv, kScreenWidth, kScreenHeight);
}

#include "test_ZoomedPages.moc"
