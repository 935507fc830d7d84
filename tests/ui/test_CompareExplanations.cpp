// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page's explanations: an importance bar per model and input, a
// partial dependence line per model over the shaded range of the data, the job
// behind a clicked scatter point, and the network's preset chosen on the page.
#include "UiTestSupport.h"
#include "data/ColumnNotes.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/ChartExport.h"
#include "ui/charts/PartialDependenceChart.h"
#include "ui/pages/ComparePage.h"
#include "ui/widgets/JobRowPanel.h"
#include "ui/widgets/NetworkPresetBox.h"
#include "workflows/CompareWorkflow.h"

#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <cmath>

using namespace gpumem;

namespace {

// Where point of series lies in view's viewport, for a click.
QPoint viewportPosition(QChartView *view, QXYSeries *series, const QPointF &point)
{
    const QPointF inChart = view->chart()->mapToPosition(point, series);
    return view->mapFromScene(view->chart()->mapToScene(inChart));
}

int tabIndex(QTabWidget *tabs, const QString &title)
{
    for (int index = 0; index < tabs->count(); ++index)
        if (tabs->tabText(index) == title)
            return index;
    return -1;
}

} // namespace

class TestCompareExplanations : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { tests::isolateSettings("test_CompareExplanations"); }

    void explainsEveryModelAndShowsAClickedJob()
    {
        tests::QuickTrainingState state(2);
        ui::ComparePage page(&state);
        page.resize(1300, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const QStringList models{QStringLiteral("bigru_transformer"), QStringLiteral("decision_tree")};
        page.setSelectedModels(models);
        page.setFolds(2);
        QSignalSpy finished(&page, &ui::ComparePage::comparisonFinished);
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 180000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));
        const auto result = state.comparison();
        QVERIFY(result);
        // The inputs are the file's feature and sequence columns: batch, optimizer (one-hot) and layers.
        QCOMPARE(result->inputs, (std::vector<std::string>{"batch", "optimizer", "layers"}));

        // Importance: a chart per model, a bar per input at the model's mean increase, first input on top.
        auto *tabs = page.findChild<QTabWidget *>(QStringLiteral("compareResults"));
        QVERIFY(tabIndex(tabs, QStringLiteral("Importance")) >= 0);
        QVERIFY(tabIndex(tabs, QStringLiteral("Partial dependence")) >= 0);
        QCOMPARE(tabs->tabText(tabs->count() - 1), QStringLiteral("Worst under-predictions"));
        QVERIFY(!page.findChild<QLabel *>(QStringLiteral("importanceHint"))->isVisibleTo(&page));
        for (const auto &model : result->models) {
            auto *view = page.findChild<QChartView *>(QStringLiteral("importance_%1").arg(model.name.c_str()));
            QVERIFY2(view, model.name.c_str());
            // A narrow chart breaks its title into lines.
            QCOMPARE(view->chart()->title().replace(QStringLiteral("<br>"), QStringLiteral(" ")),
                     QString::fromStdString(model.title));
            auto *bars = qobject_cast<QAbstractBarSeries *>(view->chart()->series().front());
            QVERIFY(bars);
            QBarSet *set = bars->barSets().front();
            QCOMPARE(set->count(), 3);
            for (int input = 0; input < 3; ++input)
                QCOMPARE(set->at(2 - input), model.importance[static_cast<std::size_t>(input)].mean);
            // 2 folds × 5 shuffles per input.
            QCOMPARE(model.importance.front().measurements, std::size_t{10});
        }
        // The tree is fitted on batch among others: shuffling it costs accuracy.
        QVERIFY(result->models[1].importance[0].mean > 0.0);

        // Partial dependence: the numeric input batch, a line per model and the data's range shaded.
        tabs->setCurrentIndex(tabIndex(tabs, QStringLiteral("Partial dependence")));
        auto *input = page.findChild<QComboBox *>(QStringLiteral("partialDependenceInput"));
        QCOMPARE(input->count(), 1);
        QCOMPARE(input->currentText(), QStringLiteral("batch"));
        auto *dependence = page.findChild<QChartView *>(QStringLiteral("partial_dependence"));
        QVERIFY(dependence && dependence->isVisible());
        int lines = 0;
        QAreaSeries *range = nullptr;
        for (QAbstractSeries *series : dependence->chart()->series()) {
            if (auto *area = qobject_cast<QAreaSeries *>(series))
                range = area;
            else if (auto *line = qobject_cast<QLineSeries *>(series)) {
                const auto &model = result->models[static_cast<std::size_t>(lines++)];
                QCOMPARE(line->name(), QString::fromStdString(model.title));
                QCOMPARE(line->count(), 25);
                QCOMPARE(line->at(24).y(), model.partialDependence.front().mean.back());
            }
        }
        QCOMPARE(lines, 2);
        QVERIFY(range);
        const auto &grid = result->partialDependenceGrids.front();
        QCOMPARE(range->upperSeries()->at(0).x(), grid.trainingMinimum);
        QCOMPARE(range->upperSeries()->at(1).x(), grid.trainingMaximum);
        // The grid runs to twice the largest batch of the data.
        QCOMPARE(grid.values.back(), 2.0 * grid.trainingMaximum);
        // Past the largest batch it saw, the tree predicts what it predicts at it.
        const auto &tree = result->models[1].partialDependence.front().mean;
        for (std::size_t point = 0; point < grid.values.size(); ++point)
            if (grid.values[point] > grid.trainingMaximum)
                QCOMPARE(tree[point], tree.back());

        // A click on a point of the tree's scatter shows that job's inputs, actual memory and predictions.
        tabs->setCurrentIndex(tabIndex(tabs, QStringLiteral("Predicted vs actual")));
        QTest::qWait(50);
        auto *scatter = page.findChild<QChartView *>(QStringLiteral("scatter_decision_tree"));
        QVERIFY(scatter && scatter->isVisible());
        auto *points = qobject_cast<QScatterSeries *>(scatter->chart()->series().front());
        QVERIFY(points);
        // The job with the largest actual memory stands apart from the rest.
        const auto dataset = state.comparisonDataset();
        Eigen::Index row = 0;
        dataset->target().maxCoeff(&row);
        const QPointF point(dataset->target()[row], result->models[1].predictions[row]);
        auto *panel = page.findChild<ui::JobRowPanel *>(QStringLiteral("jobRowPanel"));
        QVERIFY(panel && panel->isVisible());
        QCOMPARE(panel->row(), Eigen::Index{-1});
        QTest::mouseClick(scatter->viewport(), Qt::LeftButton, {}, viewportPosition(scatter, points, point));
        QTRY_COMPARE(panel->row(), row);
        const QString text = panel->text();
        const data::Table &table = *state.table();
        const std::size_t tableRow = static_cast<std::size_t>(row); // every row of the file is usable
        QCOMPARE(table.rowLine(tableRow), dataset->rowLines()[static_cast<std::size_t>(row)]);
        QVERIFY2(text.contains(QStringLiteral("Job r%1").arg(row + 1)), qPrintable(text));
        QVERIFY2(
            text.contains(
                QStringLiteral("batch = <b>%1</b>").arg(table.column(*table.columnIndex("batch")).numbers[tableRow])),
            qPrintable(text));
        const auto &optimizer = table.column(*table.columnIndex("optimizer"));
        QVERIFY(text.contains(QStringLiteral("optimizer = <b>%1</b>")
                                  .arg(QString::fromStdString(
                                      optimizer.categories[static_cast<std::size_t>(optimizer.codes[tableRow])]))));
        QVERIFY(text.contains(QStringLiteral("layers = <b>")));
        QVERIFY(text.contains(QStringLiteral("%L1 MiB").arg(dataset->target()[row], 0, 'f', 0)));
        for (const auto &model : result->models)
            QVERIFY(text.contains(QStringLiteral("%1 <b>%L2 MiB</b>")
                                      .arg(QString::fromStdString(model.title))
                                      .arg(model.predictions[row], 0, 'f', 0)));

        // Screenshots of the new tabs, for a person to look at.
        if (const QByteArray directory = qgetenv("GPUMEM_EXPLANATION_SHOTS"); !directory.isEmpty()) {
            tabs->setCurrentIndex(tabIndex(tabs, QStringLiteral("Importance")));
            QTest::qWait(100);
            QVERIFY(ui::saveWidgetPng(&page, QString::fromUtf8(directory) + QStringLiteral("/importance.png")));
            tabs->setCurrentIndex(tabIndex(tabs, QStringLiteral("Partial dependence")));
            QTest::qWait(100);
            QVERIFY(ui::saveWidgetPng(&page, QString::fromUtf8(directory) + QStringLiteral("/dependence.png")));
            tabs->setCurrentIndex(tabIndex(tabs, QStringLiteral("Predicted vs actual")));
            QTest::qWait(100);
            QVERIFY(ui::saveWidgetPng(&page, QString::fromUtf8(directory) + QStringLiteral("/scatter.png")));
        }
    }

    // Not a check but the documentation's pictures: with GPUMEM_EXPLANATION_DATA naming a CSV file and
    // GPUMEM_EXPLANATION_SHOTS a folder, compares the workbench's models on the file (the network with the
    // quick preset, 3 folds) and saves the Importance and Partial dependence tabs there.
    void picturesOfADataset()
    {
        const QString path = QString::fromLocal8Bit(qgetenv("GPUMEM_EXPLANATION_DATA"));
        const QString directory = QString::fromLocal8Bit(qgetenv("GPUMEM_EXPLANATION_SHOTS"));
        if (path.isEmpty() || directory.isEmpty())
            QSKIP("set GPUMEM_EXPLANATION_DATA and GPUMEM_EXPLANATION_SHOTS to take the pictures");
        ui::WorkbenchState state;
        const auto table = std::make_shared<const data::Table>(data::loadTable(path.toStdString()));
        const data::ColumnNotes notes = data::readColumnNotes(path.toStdString());
        state.setTable(table, path, data::suggestedRoles(*table, notes), notes);
        ui::ComparePage page(&state);
        page.resize(1300, 760);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.setSelectedModels({QStringLiteral("bigru_transformer"), QStringLiteral("decision_tree"),
                                QStringLiteral("random_forest"), QStringLiteral("xgboost"), QStringLiteral("ridge")});
        page.setFolds(3);
        page.findChild<ui::NetworkPresetBox *>(QStringLiteral("networkPresetBox"))->setPreset(QStringLiteral("quick"));
        QSignalSpy finished(&page, &ui::ComparePage::comparisonFinished);
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 1800000);
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(page.statusText()));
        auto *tabs = page.findChild<QTabWidget *>(QStringLiteral("compareResults"));
        tabs->setCurrentIndex(tabIndex(tabs, QStringLiteral("Importance")));
        QTest::qWait(200);
        QVERIFY(ui::saveWidgetPng(&page, directory + QStringLiteral("/14-compare-importance.png")));
        tabs->setCurrentIndex(tabIndex(tabs, QStringLiteral("Partial dependence")));
        auto *input = page.findChild<QComboBox *>(QStringLiteral("partialDependenceInput"));
        input->setCurrentIndex(std::max(0, input->findText(QStringLiteral("batch_size"))));
        QTest::qWait(200);
        QVERIFY(ui::saveWidgetPng(&page, directory + QStringLiteral("/15-compare-partial-dependence.png")));
    }

    // The network starts from the Model page's values or from a preset, as `gpumem compare --preset` does.
    void offersTheNetworksPresets()
    {
        tests::QuickTrainingState state(2);
        state.setPresetName(QStringLiteral("quick"));
        ui::ComparePage page(&state);
        auto *box = page.findChild<ui::NetworkPresetBox *>(QStringLiteral("networkPresetBox"));
        QVERIFY(box);
        QCOMPARE(box->preset(), QString());
        QCOMPARE(box->itemText(0), QStringLiteral("Model page's values (quick)"));
        QVERIFY(box->findData(QStringLiteral("fast")) > 0);
        QCOMPARE(box->networkValues(state.hyperparameters()).text("d_model"), std::string("16"));
        box->setPreset(QStringLiteral("fast"));
        const models::Hyperparameters fast = workflows::networkPresetValues("fast");
        for (const char *name : {"d_model", "epochs", "batch_size", "learning_rate"})
            QCOMPARE(box->networkValues(state.hyperparameters()).text(name), fast.text(name));
    }
};

QTEST_MAIN(TestCompareExplanations)
#include "test_CompareExplanations.moc"
