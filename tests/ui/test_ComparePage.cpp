// SPDX-License-Identifier: GPL-3.0-or-later
#include "UiTestSupport.h"
#include "models/RegressorRegistry.h"
#include "ui/app/ReportWriter.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/ChartExport.h"
#include "ui/pages/ComparePage.h"
#include "ui/widgets/FrozenColumnTableView.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFont>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <sstream>

class TestComparePage : public QObject
{
    Q_OBJECT

  private:
    // Two quick models when the build has them; the network alone otherwise.
    static QStringList quickModels()
    {
        QStringList names{QStringLiteral("bigru_transformer")};
        for (const auto &name : gpumem::models::regressorNames())
            if (name != "bigru_transformer" && names.size() < 2)
                names << QString::fromStdString(name);
        return names;
    }

  private Q_SLOTS:
    void initTestCase() { gpumem::tests::isolateSettings("test_ComparePage"); }

    // Issue 25: at 1366×768 the metrics table showed 4 of 6 models, its Model column scrolled
    // away, and the status line still spoke of the last file after another was loaded.
    void metricsTableKeepsEveryModelAndItsNameInView()
    {
        gpumem::tests::QuickTrainingState state(2);
        gpumem::ui::ComparePage page(&state);
        page.resize(1358, 660);
        page.show();
        QStringList all;
        for (const auto &name : gpumem::models::defaultComparisonModels())
            all << QString::fromStdString(name);
        page.setSelectedModels(all);
        page.setFolds(2);
        QSignalSpy finished(&page, &gpumem::ui::ComparePage::comparisonFinished);
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 180000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));
        auto *table = qobject_cast<gpumem::ui::FrozenColumnTableView *>(page.metricsTable());
        QVERIFY(table);
        QTest::qWait(50);
        const int rows = table->model()->rowCount();
        QCOMPARE(rows, all.size());
        QVERIFY(table->rowAt(table->rowViewportPosition(rows - 1)) == rows - 1);
        QVERIFY2(table->rowViewportPosition(rows - 1) + table->rowHeight(rows - 1) <= table->viewport()->height(),
                 qPrintable(QStringLiteral("%1 px for %2 rows").arg(table->viewport()->height()).arg(rows)));
        // Scrolled to the last metric, the model names still show, over the first column.
        table->horizontalScrollBar()->setValue(table->horizontalScrollBar()->maximum());
        QVERIFY(table->horizontalScrollBar()->maximum() > 0);
        QTableView *names = table->frozenColumn();
        QVERIFY(names->isVisible());
        QCOMPARE(names->columnWidth(0), table->columnWidth(0));
        QCOMPARE(names->x(), table->frameWidth());
        QCOMPARE(names->model()->index(0, 0).data().toString(), table->model()->index(0, 0).data().toString());
        // It follows View ▸ Large font as the table does.
        const QFont normal = QApplication::font();
        QFont large = normal;
        large.setPointSizeF(normal.pointSizeF() * 1.5);
        QApplication::setFont(large);
        QCOMPARE(names->font().pointSizeF(), table->font().pointSizeF());
        QApplication::setFont(normal);

        state.setTable(gpumem::tests::trainingTable(), gpumem::tests::testDataPath("jobs_training.csv"));
        QCOMPARE(page.statusText(), QStringLiteral("Choose models and press Run."));
    }

    void runsTwoFoldComparisonAndFillsCharts()
    {
        gpumem::tests::QuickTrainingState state(2);
        gpumem::ui::ComparePage page(&state);
        page.show();
        const QStringList models = quickModels();
        page.setSelectedModels(models);
        QCOMPARE(page.selectedModels(), models);
        page.setFolds(2);
        QSignalSpy finished(&page, &gpumem::ui::ComparePage::comparisonFinished);
        QVERIFY(page.start());
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("runComparison"))->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 180000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));

        const auto result = state.comparison();
        QVERIFY(result);
        QCOMPARE(result->models.size(), static_cast<std::size_t>(models.size()));
        QCOMPARE(result->models.front().folds.size(), std::size_t{2});
        // Five metric charts, then a scatter, a residual histogram and an importance chart per model.
        QCOMPARE(page.chartViews().size(), static_cast<std::size_t>(5 + 3 * models.size()));
        QChart *rmse = page.findChild<QChartView *>(QStringLiteral("chart_rmse"))->chart();
        // A narrow chart breaks its title into lines.
        QVERIFY(rmse->title()
                    .replace(QStringLiteral("<br>"), QStringLiteral(" "))
                    .contains(QStringLiteral("lower is better")));
        // Chart text is sized from the application font (which View ▸ Large font scales): axis titles at it.
        QVERIFY(!rmse->axes().isEmpty());
        QCOMPARE(rmse->axes().front()->titleFont().pointSizeF(), QApplication::font().pointSizeF());
        QVERIFY(rmse->titleFont().pointSizeF() > QApplication::font().pointSizeF());
        auto *bars = qobject_cast<QAbstractBarSeries *>(rmse->series().front());
        QVERIFY(bars);
        QCOMPARE(bars->barSets().front()->count(), models.size());
        // The first model is drawn on top, which is the last bar from the axis.
        QCOMPARE(bars->barSets().front()->at(models.size() - 1), result->models.front().mean.rmse);
        QVERIFY(page.findChild<QChartView *>(QStringLiteral("chart_r2"))
                    ->chart()
                    ->title()
                    .replace(QStringLiteral("<br>"), QStringLiteral(" "))
                    .contains(QStringLiteral("higher is better")));
        // R² cannot pass 1, and neither does its axis.
        const auto axes = page.findChild<QChartView *>(QStringLiteral("chart_r2"))->chart()->axes(Qt::Horizontal);
        QVERIFY(!axes.isEmpty());
        QVERIFY(static_cast<QValueAxis *>(axes.front())->max() <= 1.0);
        // The scatter plots every row once: each row is a test row in exactly one of the 2 folds.
        QChart *scatter = page.findChild<QChartView *>(QStringLiteral("scatter_bigru_transformer"))->chart();
        QVERIFY(scatter);
        QCOMPARE(static_cast<QXYSeries *>(scatter->series().front())->count(), 80);

        QAbstractItemModel *metrics = page.metricsTable()->model();
        QCOMPARE(metrics->rowCount(), static_cast<int>(models.size()));
        int highlighted = 0;
        for (int row = 0; row < metrics->rowCount(); ++row)
            for (int column = 1; column <= 5; ++column)
                highlighted += metrics->index(row, column).data(Qt::FontRole).value<QFont>().bold() ? 1 : 0;
        QCOMPARE(highlighted, 5);
        // The under-prediction rate is shown, never crowned: fewer misses alone can mean wasted memory.
        const int underColumn =
            1 + static_cast<int>(std::distance(
                    gpumem::evaluation::metricDescriptions().begin(),
                    std::find_if(gpumem::evaluation::metricDescriptions().begin(),
                                 gpumem::evaluation::metricDescriptions().end(),
                                 [](const auto &metric) { return std::string(metric.key) == "under_rate"; })));
        for (int row = 0; row < metrics->rowCount(); ++row)
            QVERIFY(!metrics->index(row, underColumn).data(Qt::FontRole).value<QFont>().bold());

        // Under-predictions are listed with the shortfall actual − predicted, largest first.
        QAbstractItemModel *worst = page.worstTable()->model();
        QVERIFY(worst->rowCount() > 0);
        for (int row = 0; row + 1 < worst->rowCount(); ++row)
            QVERIFY(worst->index(row, 4).data(Qt::UserRole).toDouble() >=
                    worst->index(row + 1, 4).data(Qt::UserRole).toDouble());
        const double actual = worst->index(0, 2).data(Qt::UserRole).toDouble();
        const double predicted = worst->index(0, 3).data(Qt::UserRole).toDouble();
        QCOMPARE(worst->index(0, 4).data(Qt::UserRole).toDouble(), actual - predicted);
        // The job is named by the file's identifier column ("run": r1, r2, …).
        QCOMPARE(worst->columnCount(), 6);
        QVERIFY(worst->index(0, 5).data().toString().startsWith(QLatin1Char('r')));

        // Every chart saves as PNG and SVG, with its title and axis labels.
        QTemporaryDir directory;
        QChartView *rmseView = page.findChild<QChartView *>(QStringLiteral("chart_rmse"));
        const QString png = directory.filePath(QStringLiteral("rmse.png"));
        const QString svg = directory.filePath(QStringLiteral("rmse.svg"));
        QVERIFY(gpumem::ui::saveWidgetPng(rmseView, png));
        QVERIFY(gpumem::ui::saveWidgetSvg(rmseView, svg));
        QCOMPARE(QImage(png).size(), rmseView->size() * rmseView->devicePixelRatio());
        QFile svgFile(svg);
        QVERIFY(svgFile.open(QIODevice::ReadOnly));
        const QString drawing = QString::fromUtf8(svgFile.readAll());
        QVERIFY(drawing.contains(QStringLiteral("<svg")));
        QVERIFY(drawing.contains(QStringLiteral("lower is better")));

        // The report of what is on show, as PDF and HTML: core's report, drawn with the charts on screen.
        const gpumem::ui::ReportContent content = page.reportContent();
        QVERIFY(content.result);
        // The header is the one the comparison ran with, whatever the form says now.
        auto *seed = page.findChild<QSpinBox *>(QStringLiteral("seedBox"));
        QCOMPARE(content.context.seed, static_cast<std::uint64_t>(seed->value()));
        QCOMPARE(content.context.dataset, std::string("jobs_training.csv"));
        QCOMPARE(content.context.rows, std::size_t{80});
        seed->setValue(seed->value() + 1);
        QCOMPARE(page.reportContent().context.seed, content.context.seed);
        seed->setValue(seed->value() - 1);
        QVERIFY(content.images.count("metric_rmse"));
        const QString pdf = directory.filePath(QStringLiteral("report.pdf"));
        const QString html = directory.filePath(QStringLiteral("report.html"));
        gpumem::ui::writePdfReport(pdf, content);
        gpumem::ui::writeHtmlReport(html, content);
        QFile pdfFile(pdf);
        QVERIFY(pdfFile.open(QIODevice::ReadOnly));
        QVERIFY(pdfFile.read(5) == "%PDF-");
        QVERIFY(pdfFile.size() > 20000);
        QFile htmlFile(html);
        QVERIFY(htmlFile.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(htmlFile.readAll());
        // Every chart the report has and the page shows is the page's image; none is left as SVG.
        QCOMPARE(text.count(QStringLiteral("<img src=\"data:image/png;base64,")),
                 static_cast<qsizetype>(content.images.size()));
        QVERIFY(!text.contains(QStringLiteral("<svg")));
        QVERIFY(text.contains(QStringLiteral("jobs_training.csv")));
        QVERIFY(text.contains(QStringLiteral("d_model=16")));
        QVERIFY(text.contains(QStringLiteral("Worst under-predictions")));
        QVERIFY(text.contains(QStringLiteral("LibTorch"), Qt::CaseInsensitive));
        // The same content as `gpumem compare --report`: core's writer with its own charts.
        std::ostringstream core;
        gpumem::report::writeHtmlReport(core, content.context, *content.result);
        const QString coreText = QString::fromStdString(core.str());
        for (const QString &heading :
             {QStringLiteral("<h2>Metrics</h2>"), QStringLiteral("<h2>Out-of-memory risk</h2>"),
              QStringLiteral("<h2>Worst under-predictions</h2>")})
            QVERIFY(coreText.contains(heading) && text.contains(heading));
    }

    void repeatsTheFoldsWithNewSeeds()
    {
        gpumem::tests::QuickTrainingState state(1);
        gpumem::ui::ComparePage page(&state);
        page.show();
        page.setSelectedModels(quickModels());
        page.setFolds(2);
        auto *repeats = page.findChild<QSpinBox *>(QStringLiteral("repeatsBox"));
        QVERIFY(repeats && repeats->isEnabled());
        repeats->setValue(2);
        QSignalSpy finished(&page, &gpumem::ui::ComparePage::comparisonFinished);
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 180000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));
        const auto result = state.comparison();
        QVERIFY(result);
        QCOMPARE(result->repeats, 2);
        QCOMPARE(result->splits.size(), std::size_t{4});
        QCOMPARE(result->models.front().folds.size(), std::size_t{4});
        // The report says what ran: 2 × 2-fold, as the command line's would.
        const auto content = page.reportContent();
        QCOMPARE(content.context.folds, 2);
        QCOMPARE(content.context.repeats, 2);
        // Start remembered the repetitions; the tests after this one start from one again.
        QSettings().remove(QStringLiteral("compare/repeats"));
    }

    void comparesCalibratedUpperBounds()
    {
        gpumem::ui::WorkbenchState state;
        state.setTable(gpumem::tests::trainingTable(), gpumem::tests::testDataPath("jobs_training.csv"));
        gpumem::ui::ComparePage page(&state);
        // Issue 51: the tab was blank without a bound, with no hint; it now says what to do.
        auto *hint = page.findChild<QLabel *>(QStringLiteral("boundHint"));
        QVERIFY(hint);
        QVERIFY(!hint->isHidden());
        QVERIFY(hint->text().contains(QStringLiteral("Upper bound at coverage")));
        page.setSelectedModels({QStringLiteral("decision_tree"), QStringLiteral("ridge")});
        page.setFolds(2);
        page.findChild<QCheckBox *>(QStringLiteral("compareCalibrate"))->setChecked(true);
        page.findChild<QDoubleSpinBox *>(QStringLiteral("compareCoverage"))->setValue(0.8);
        QSignalSpy finished(&page, &gpumem::ui::ComparePage::comparisonFinished);
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));
        const auto result = state.comparison();
        QVERIFY(result && result->calibration);
        QCOMPARE(result->calibration->coverage, 0.8);

        // The risk-versus-waste chart: one curve per model, a marker at the coverage and one at "+10%".
        auto *curves = page.findChild<QChartView *>(QStringLiteral("bound_curves"));
        QVERIFY(curves);
        QCOMPARE(curves->chart()->series().size(), 3 * 2);
        QVERIFY(hint->isHidden());
        // The table gains the bound's columns, with core's numbers.
        QAbstractItemModel *metrics = page.metricsTable()->model();
        const int underColumn = metrics->columnCount() - 3;
        QVERIFY(metrics->headerData(underColumn, Qt::Horizontal).toString().contains(QStringLiteral("80%")));
        QCOMPARE(metrics->index(0, underColumn).data(Qt::UserRole).toDouble(),
                 result->models.front().bound->bound.underPredictionRate);
        // The report draws the chart on screen in place of its own.
        QVERIFY(page.reportContent().images.count("bound_curves"));
    }

    void cancelsARunningComparison()
    {
        gpumem::tests::QuickTrainingState state(5000);
        gpumem::ui::ComparePage page(&state);
        QSignalSpy finished(&page, &gpumem::ui::ComparePage::comparisonFinished);
        // A quick comparison first, whose results must survive the cancelled one.
        page.setSelectedModels({QStringLiteral("decision_tree")});
        page.setFolds(2);
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const auto previous = state.comparison();
        QVERIFY(previous);

        page.setSelectedModels({QStringLiteral("bigru_transformer")});
        QVERIFY(page.start());
        QTest::qWait(500);
        page.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
        QCOMPARE(finished.at(1).at(0).toBool(), false);
        QVERIFY(!page.isRunning());
        // Regression: cancelling wiped the results on show and left rows saying "waiting".
        QCOMPARE(state.comparison(), previous);
        QCOMPARE(page.metricsTable()->model()->rowCount(), 1);
        auto *progress = page.findChild<QTableWidget *>(QStringLiteral("modelProgress"));
        QVERIFY(progress);
        QCOMPARE(progress->item(0, 2)->text(), QStringLiteral("cancelled"));
    }
};

QTEST_MAIN(TestComparePage)
#include "test_ComparePage.moc"
