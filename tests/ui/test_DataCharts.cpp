// SPDX-License-Identifier: GPL-3.0-or-later
// The Data page's charts: the selected column against the target, each feature's
// correlation with it, and a window that keeps answering while a large table's
// charts and sizes are computed.
#include "UiTestSupport.h"
#include "ui/app/EventLoopStallMeter.h"
#include "ui/app/MainWindow.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/ColumnCharts.h"
#include "ui/charts/FeatureTargetScatter.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/charts/TargetCorrelationsView.h"
#include "ui/pages/DataPage.h"
#include "ui/pages/ModelPage.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

// Opens path in page and waits for the load and for every chart to be computed.
bool loadAndSettle(gpumem::ui::DataPage &page, const QString &path)
{
    QSignalSpy finished(&page, &gpumem::ui::DataPage::loadFinished);
    page.openFile(path);
    if (!finished.wait(60000) || !finished.at(0).at(0).toBool())
        return false;
    return QTest::qWaitFor([&] { return !page.isAnalysing(); }, 60000);
}

// Selects row (a column of the table) in the page's column editor and waits for its charts.
bool selectColumn(gpumem::ui::DataPage &page, int row)
{
    page.findChild<QTableWidget *>(QStringLiteral("columnEditor"))->setCurrentCell(row, 0);
    return QTest::qWaitFor([&] { return !page.isAnalysing(); }, 20000);
}

// The Data page shown on 5,000 jobs of batch, optimizer and memory_mib: more rows than the scatter draws.
struct LargeJobsPage
{
    QTemporaryDir folder;
    gpumem::ui::WorkbenchState state;
    gpumem::ui::DataPage page{&state};

    bool load()
    {
        const QString path = folder.filePath(QStringLiteral("jobs.csv"));
        if (!gpumem::tests::writeLargeJobsCsv(path, 5000))
            return false;
        page.show();
        return loadAndSettle(page, path);
    }
};

} // namespace

class TestDataCharts : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { gpumem::tests::isolateSettings("test_DataCharts"); }

    void scatterShowsTheSelectedColumnAgainstTheTarget()
    {
        LargeJobsPage shown;
        QVERIFY(shown.load());
        auto &state = shown.state;
        auto &page = shown.page;
        QCOMPARE(state.targetName(), std::string("memory_mib"));
        auto *scatter = page.findChild<gpumem::ui::FeatureTargetScatter *>();
        QVERIFY(scatter);

        QVERIFY(selectColumn(page, 0));
        QCOMPARE(scatter->pointCount(), int(gpumem::ui::FeatureTargetScatter::maxPoints));
        QCOMPARE(scatter->plot()->xAxis->label(), QStringLiteral("batch"));
        QCOMPARE(scatter->plot()->yAxis->label(), QStringLiteral("memory_mib"));
        QVERIFY2(scatter->titleText().contains(QStringLiteral("3,000 of 5,000 rows, drawn at random")),
                 qPrintable(scatter->titleText()));
        // memory_mib is the row number and batch the row modulo 512: every drawn point says so.
        const auto *points = scatter->plot()->graph(0)->data().data();
        for (auto point = points->constBegin(); point != points->constEnd(); ++point)
            QCOMPARE(point->key, std::fmod(point->value, 512.0));

        // A categorical column is drawn as one strip per category, labelled with the category.
        QVERIFY(selectColumn(page, 1));
        QCOMPARE(scatter->pointCount(), int(gpumem::ui::FeatureTargetScatter::maxPoints));
        QCOMPARE(scatter->plot()->xAxis->label(), QStringLiteral("optimizer"));
        QVERIFY2(scatter->titleText().contains(QStringLiteral("one strip per category")),
                 qPrintable(scatter->titleText()));
        const auto ticks = scatter->plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticks);
        QCOMPARE(ticks->ticks().values(), (QList<QString>{QStringLiteral("sgd"), QStringLiteral("adam")}));

        // The target against itself is no scatter.
        QVERIFY(selectColumn(page, 2));
        QCOMPARE(scatter->pointCount(), 0);
        QVERIFY2(scatter->titleText().contains(QStringLiteral("is the target")), qPrintable(scatter->titleText()));
    }

    void smallTableDrawsEveryRow()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::DataPage page(&state);
        page.show();
        QVERIFY(loadAndSettle(page, gpumem::tests::testDataPath("jobs.csv")));
        auto *editor = page.findChild<QTableWidget *>(QStringLiteral("columnEditor"));
        const int batch = static_cast<int>(*state.table()->columnIndex("batch"));
        QVERIFY(selectColumn(page, batch));
        auto *scatter = page.findChild<gpumem::ui::FeatureTargetScatter *>();
        // tests/data/jobs.csv holds 4 jobs.
        QCOMPARE(scatter->pointCount(), 4);
        QVERIFY2(scatter->titleText().contains(QStringLiteral("all 4 rows")), qPrintable(scatter->titleText()));
        QCOMPARE(editor->currentRow(), batch);
    }

    void correlationsListEachNumericFeature()
    {
        LargeJobsPage shown;
        QVERIFY(shown.load());
        auto &state = shown.state;
        auto &page = shown.page;
        auto *view = page.findChild<gpumem::ui::TargetCorrelationsView *>();
        QTableWidget *table = view->table();
        // batch is the one numeric feature; optimizer is categorical and named as left out.
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("batch"));
        // scipy.stats on batch = row % 512 against memory_mib = row, 5,000 rows:
        // pearsonr 0.048777761367710636, spearmanr 0.04930847859597564.
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("0.049"));
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("0.049"));
        QCOMPARE(table->item(0, 3)->text(), QStringLiteral("5,000"));
        QVERIFY2(view->noteText().contains(QStringLiteral("Left out, not numeric: optimizer")),
                 qPrintable(view->noteText()));

        // Another target: the correlations follow it. The former target is then ignored (a
        // measurement of the run), which leaves batch no numeric feature to go with.
        state.setRoleOfColumns({0}, gpumem::data::ColumnRole::Target);
        QVERIFY(QTest::qWaitFor([&] { return !page.isAnalysing(); }, 20000));
        QCOMPARE(table->rowCount(), 0);
        QVERIFY2(view->noteText().contains(QStringLiteral("No numeric feature to correlate with batch")),
                 qPrintable(view->noteText()));
    }

    // Issue: after a 150,000-row file had loaded, the window did not answer for about 31 s while
    // the Model page measured the data on the GUI thread.
    void loadingALargeTableLeavesTheWindowAnswering()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("large.csv"));
        // 50,000 jobs with a layer sequence each, so that every page has real work to do.
        QByteArray text = "layers,batch,optimizer,memory_mib\n";
        for (int row = 0; row < 50000; ++row) {
            const int width = 64 + row % 900;
            text += "\"[('linear', " + QByteArray::number(width) + ", " + QByteArray::number(width * 96) +
                    "), ('ReLU', " + QByteArray::number(width) + ", 0)]\"," + QByteArray::number(1 + row % 256) +
                    (row % 2 ? ",adam," : ",sgd,") + QByteArray::number(500 + width * (1 + row % 256) / 64) + '\n';
        }
        QVERIFY(gpumem::tests::writeFile(path, text));

        gpumem::ui::MainWindow window;
        window.show();
        gpumem::ui::DataPage *page = window.dataPage();
        gpumem::ui::EventLoopStallMeter stalls;
        QSignalSpy finished(page, &gpumem::ui::DataPage::loadFinished);
        stalls.start();
        window.openData(path);
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.at(0).at(0).toBool());
        QVERIFY(
            QTest::qWaitFor([&] { return !page->isAnalysing() && !window.modelPage()->isMeasuringData(); }, 120000));
        stalls.stop();
        // The window's goal is 100 ms (bench/load_stall.sh); a loaded test machine gets room.
        QVERIFY2(stalls.longestStallMilliseconds() < 500.0,
                 qPrintable(QStringLiteral("%1 ms").arg(stalls.longestStallMilliseconds())));
    }
};

QTEST_MAIN(TestDataCharts)
#include "test_DataCharts.moc"
