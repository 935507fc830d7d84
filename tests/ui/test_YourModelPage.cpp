// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "UiTestSupport.h"
#include "core/EstimateFixtures.h"
#include "estimate/GpuProfile.h"
#include "estimate/MemoryEstimator.h"
#include "estimate/ModelTracer.h"
#include "ui/charts/ChartExport.h"
#include "ui/charts/ChartFonts.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/pages/YourModelPage.h"
#include "workflows/LanguageModelEstimates.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace gpumem;

namespace {

constexpr double kMib = 1024.0 * 1024.0;
constexpr int kCategories = static_cast<int>(gpumem::estimate::kCategoryCount);
// The fixture models are tiny: an estimate takes well under a second, the first Python start a few.
constexpr int kEstimateTimeoutMilliseconds = 120000;

QString mibText(double mib)
{
    return QString::number(mib, 'f', 1);
}

QString mibText(std::uint64_t bytes)
{
    return mibText(static_cast<double>(bytes) / kMib);
}

// Picks the entry holding data in the combo box called name on page, as a user does.
void chooseData(QWidget &page, const char *name, const QString &data)
{
    auto *box = page.findChild<QComboBox *>(QString::fromLatin1(name));
    box->setCurrentIndex(box->findData(data));
}

// Fills the page's form as a user would, with inputKind input (float unless named) and efficient
// attention (the form remembers an earlier test's choice).
void fillForm(ui::YourModelPage &page, const QString &shapes, const QString &batchSizes, const QString &optimizer,
              const QString &gpu, const QString &inputKind = QStringLiteral("float"))
{
    chooseData(page, "inputKindBox", inputKind);
    page.findChild<QLineEdit *>(QStringLiteral("inputShapes"))->setText(shapes);
    page.findChild<QLineEdit *>(QStringLiteral("batchSizes"))->setText(batchSizes);
    chooseData(page, "optimizerBox", optimizer);
    chooseData(page, "gpuBox", gpu);
    page.findChild<QDoubleSpinBox *>(QStringLiteral("contextBox"))->setValue(0.0);
    chooseData(page, "attentionBox", QStringLiteral("efficient"));
}

// Describes a shipped language model on the page's form as a user would: a full fine-tune in
// bfloat16 with AdamW, batch sizes batches, on gpu.
void fillLanguageModel(ui::YourModelPage &page, const QString &config, int sequenceLength, const QString &batches,
                       const QString &gpu)
{
    chooseData(page, "modelKindBox", QStringLiteral("config"));
    auto *architecture = page.findChild<QComboBox *>(QStringLiteral("architectureBox"));
    architecture->setCurrentIndex(architecture->findText(config));
    page.findChild<QSpinBox *>(QStringLiteral("sequenceLengthBox"))->setValue(sequenceLength);
    chooseData(page, "precisionBox", QStringLiteral("bfloat16"));
    auto *optimizer = page.findChild<QComboBox *>(QStringLiteral("recipeOptimizerBox"));
    optimizer->setCurrentIndex(optimizer->findData(QStringLiteral("adamw")));
    page.findChild<QSpinBox *>(QStringLiteral("loraRankBox"))->setValue(0);
    page.findChild<QCheckBox *>(QStringLiteral("checkpointingBox"))->setChecked(false);
    chooseData(page, "modeBox", QStringLiteral("training"));
    page.findChild<QLineEdit *>(QStringLiteral("batchSizes"))->setText(batches);
    chooseData(page, "gpuBox", gpu);
    page.findChild<QDoubleSpinBox *>(QStringLiteral("contextBox"))->setValue(0.0);
}

// The same estimate, made directly with core.
estimate::EstimateResult independentEstimate(const std::string &model, std::vector<std::int64_t> shape,
                                             const std::string &optimizer, const std::string &gpu,
                                             std::vector<std::int64_t> batches)
{
    estimate::EstimateConfiguration configuration;
    configuration.modelPath = model;
    configuration.inputShapes = {std::move(shape)};
    configuration.optimizer = optimizer;
    estimate::EstimateRequest request;
    request.batchSizes = std::move(batches);
    request.maxBatch = true;
    request.timelineBatch = request.batchSizes.front();
    const estimate::ModelTracer tracer(configuration);
    return estimate::MemoryEstimator::estimate(tracer, estimate::findGpuProfile(gpu), request);
}

} // namespace

class TestYourModelPage : public QObject, private tests::UsesEstimateFixtures
{
    Q_OBJECT

  private:
    QString fixture(const char *name) const { return QString::fromStdString(mFixtures.path(name)); }

    // Opens the fixture model called name on page and fills in the form, as a user does.
    void openAndFill(ui::YourModelPage &page, const char *model, const QString &shapes, const QString &batchSizes,
                     const QString &optimizer, const QString &gpu,
                     const QString &inputKind = QStringLiteral("float")) const
    {
        page.openModel(fixture(model));
        fillForm(page, shapes, batchSizes, optimizer, gpu, inputKind);
    }

  private Q_SLOTS:
    void initTestCase() { tests::isolateSettings("test_YourModelPage"); }

    void showsTheEstimatorsNumbers()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        ui::YourModelPage page;
        page.resize(1200, 800);
        page.openModel(fixture("mlp.pt"));
        // The last batch is far too large for a T4, so that both answers are shown.
        fillForm(page, QStringLiteral("20"), QStringLiteral("4, 64,16777216"), QStringLiteral("adam"),
                 QStringLiteral("t4"));
        QSignalSpy finished(&page, &ui::YourModelPage::estimateFinished);
        QVERIFY(page.start());
        QVERIFY(page.isRunning());
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("estimateButton"))->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kEstimateTimeoutMilliseconds);
        QVERIFY2(finished.first().first().toBool(), qPrintable(page.errorText()));
        QVERIFY(!page.isRunning());
        QVERIFY(page.errorText().isEmpty());

        const estimate::EstimateResult expected =
            independentEstimate(mFixtures.path("mlp.pt"), {20}, "adam", "t4", {4, 64, 16777216});
        const estimate::EstimateResult *shown = page.result();
        QVERIFY(shown);
        QCOMPARE(shown->estimates.size(), std::size_t{3});
        QVERIFY(expected.estimates[2].deviceTotalMib() > expected.profile.capacityMib);
        QVERIFY(expected.maxBatch.has_value());
        QVERIFY(shown->maxBatch.has_value());
        QCOMPARE(*shown->maxBatch, *expected.maxBatch);

        // The table shows the estimator's numbers, in gpumem estimate's units and rounding.
        auto *table = page.findChild<QTableWidget *>(QStringLiteral("estimateTable"));
        QCOMPARE(table->rowCount(), 3);
        for (int row = 0; row < 3; ++row) {
            const estimate::BatchEstimate &estimate = expected.estimates[static_cast<std::size_t>(row)];
            QCOMPARE(table->item(row, 0)->text(), QString::number(estimate.batchSize));
            QCOMPARE(table->item(row, 1)->text(), mibText(estimate.peakAllocatedBytes));
            QCOMPARE(table->item(row, 2)->text(), mibText(estimate.peakReservedBytes));
            QCOMPARE(table->item(row, 3)->text(), mibText(estimate.deviceTotalMib()));
            QCOMPARE(table->item(row, 4)->text(), estimate.deviceTotalMib() <= expected.profile.capacityMib
                                                      ? QStringLiteral("yes")
                                                      : QStringLiteral("no"));
            for (int category = 0; category < kCategories; ++category)
                QCOMPARE(table->item(row, 5 + category)->text(),
                         mibText(estimate.bytesAtPeak[static_cast<std::size_t>(category)]));
            QCOMPARE(table->item(row, 5 + kCategories)->text(), mibText(estimate.allocatorOverheadBytes()));
        }
        auto *summary = page.findChild<QLabel *>(QStringLiteral("estimateSummary"));
        QVERIFY2(summary->text().contains(QStringLiteral("Largest batch that fits: <b>%1</b>").arg(*expected.maxBatch)),
                 qPrintable(summary->text()));

        // Memory against batch: the device totals, the T4's capacity and the largest batch marked.
        auto *memory = page.findChild<QCustomPlot *>(QStringLiteral("memoryChart"));
        QVERIFY(memory);
        QCOMPARE(memory->graph(0)->dataCount(), 3);
        QCOMPARE(memory->graph(0)->data()->at(1)->value, expected.estimates[1].deviceTotalMib());
        auto *capacity = memory->findChild<QCPItemStraightLine *>(QStringLiteral("capacityLine"));
        QVERIFY(capacity);
        QCOMPARE(capacity->point1->coords().y(), expected.profile.capacityMib);
        auto *marker = memory->findChild<QCPItemStraightLine *>(QStringLiteral("maxBatchMarker"));
        QVERIFY(marker);
        QCOMPARE(marker->point1->coords().x(), static_cast<double>(*expected.maxBatch));

        // Every chart saves itself as the other pages' charts do.
        QTemporaryDir folder;
        QVERIFY(ui::saveWidgetPng(memory, folder.filePath(QStringLiteral("memory.png"))));
        QVERIFY(ui::saveWidgetSvg(memory, folder.filePath(QStringLiteral("memory.svg"))));
        QVERIFY(QFileInfo(folder.filePath(QStringLiteral("memory.svg"))).size() > 0);
        QCOMPARE(memory->actions().size(), 2); // the context menu's Save as PNG and SVG

        // Each stacked bar is as tall as the device total.
        auto *breakdown = page.findChild<QCustomPlot *>(QStringLiteral("breakdownChart"));
        // The categories, the allocator's overhead, and the context with the cuBLAS workspaces.
        QCOMPARE(breakdown->plottableCount(), kCategories + 2);
        for (int bar = 0; bar < 3; ++bar) {
            double height = 0.0;
            for (int layer = 0; layer < kCategories + 2; ++layer)
                height += static_cast<QCPBars *>(breakdown->plottable(layer))->data()->at(bar)->value;
            QVERIFY(std::abs(height - expected.estimates[static_cast<std::size_t>(bar)].deviceTotalMib()) < 1e-6);
        }

        // The timeline of the first batch: one point per event, the top band's edge at the reserved bytes.
        auto *timeline = page.findChild<QCustomPlot *>(QStringLiteral("timelineChart"));
        QCOMPARE(timeline->graphCount(), kCategories + 1);
        QCPGraph *reserved = timeline->graph(kCategories);
        QCOMPARE(reserved->dataCount(), static_cast<int>(expected.timeline.size()));
        double highest = 0.0;
        for (int point = 0; point < reserved->dataCount(); ++point)
            highest = std::max(highest, reserved->data()->at(point)->value);
        QCOMPARE(highest, static_cast<double>(expected.estimates[0].peakReservedBytes) / kMib);
        // The replay's live bytes per category, which the bands stack, are the breakdown's at the allocated peak.
        const auto peak = std::max_element(expected.timeline.begin(), expected.timeline.end(),
                                           [](const estimate::TimelinePoint &a, const estimate::TimelinePoint &b) {
                                               return a.allocatedBytes < b.allocatedBytes;
                                           });
        QCOMPARE(peak->allocatedBytes, expected.estimates[0].peakAllocatedBytes);
        QVERIFY(peak->liveBytes == expected.estimates[0].bytesAtPeak);
        QStringList phases;
        for (int item = 0; item < timeline->itemCount(); ++item)
            if (auto *label = qobject_cast<QCPItemText *>(timeline->item(item)))
                phases << label->text();
        QVERIFY2(phases.contains(QStringLiteral("forward 1")) && phases.contains(QStringLiteral("backward 1")) &&
                     phases.contains(QStringLiteral("optimizer 2")),
                 qPrintable(phases.join(QStringLiteral(", "))));

        // Every profile: the same replay with its own context and workspace, against its capacity.
        auto *profiles = page.findChild<QTableWidget *>(QStringLiteral("profileTable"));
        const std::vector<std::string> names = estimate::gpuProfileNames();
        QCOMPARE(profiles->rowCount(), static_cast<int>(names.size()));
        for (int row = 0; row < profiles->rowCount(); ++row) {
            const estimate::GpuProfile profile = estimate::findGpuProfile(names[static_cast<std::size_t>(row)]);
            const double total = static_cast<double>(expected.estimates[0].peakReservedBytes) / kMib +
                                 profile.contextMib + profile.workspaceMib;
            QCOMPARE(profiles->item(row, 0)->text(), QString::fromStdString(profile.name));
            QCOMPARE(profiles->item(row, 1)->text(), mibText(total));
            QCOMPARE(profiles->item(row, 2)->text(),
                     total <= profile.capacityMib ? QStringLiteral("yes") : QStringLiteral("no"));
        }
        // Choosing the other batch checks that one.
        page.findChild<QComboBox *>(QStringLiteral("profileBatchBox"))->setCurrentIndex(1);
        const estimate::GpuProfile first = estimate::findGpuProfile(names.front());
        QCOMPARE(profiles->item(0, 1)->text(),
                 mibText(static_cast<double>(expected.estimates[1].peakReservedBytes) / kMib + first.contextMib +
                         first.workspaceMib));

        // The batch no T4 holds: its row says so, with the MiB missing.
        page.findChild<QComboBox *>(QStringLiteral("profileBatchBox"))->setCurrentIndex(2);
        const auto t4 = std::find(names.begin(), names.end(), "t4");
        QVERIFY(t4 != names.end());
        const int t4Row = static_cast<int>(t4 - names.begin());
        QCOMPARE(profiles->item(t4Row, 2)->text(), QStringLiteral("no"));
        QVERIFY(profiles->item(t4Row, 3)->text().startsWith(QLatin1Char('-')));
        // Each row's largest batch is the one an estimate for that profile alone finds;
        // the T4's is the page's own, since the T4 is the chosen profile.
        QCOMPARE(profiles->item(t4Row, 4)->text(), QStringLiteral("%L1").arg(*expected.maxBatch));
        const auto h200 = std::find(names.begin(), names.end(), "h200");
        QVERIFY(h200 != names.end());
        const estimate::EstimateResult onH200 =
            independentEstimate(mFixtures.path("mlp.pt"), {20}, "adam", "h200", {4});
        QCOMPARE(profiles->item(static_cast<int>(h200 - names.begin()), 4)->text(),
                 QStringLiteral("%L1").arg(*onH200.maxBatch));

        // The large font reaches the axis texts and the labels inside the charts.
        QFont large = page.font();
        large.setPointSizeF(30.0);
        ui::applyChartFontsBelow(&page, large);
        QCOMPARE(memory->xAxis->labelFont().pointSizeF(), 30.0);
        auto *label = memory->findChild<QCPItemText *>(QStringLiteral("maxBatchLabel"));
        QVERIFY(label);
        QVERIFY(label->font().pointSizeF() > 20.0);
    }

    void estimatesATokenModel()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        ui::YourModelPage page;
        openAndFill(page, "tokens.pt", QStringLiteral("12"), QStringLiteral("8"), QStringLiteral("adamw"),
                    QStringLiteral("l4"), QStringLiteral("tokens"));
        page.findChild<QSpinBox *>(QStringLiteral("vocabularyBox"))->setValue(50);
        QSignalSpy finished(&page, &ui::YourModelPage::estimateFinished);
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kEstimateTimeoutMilliseconds);
        QVERIFY2(finished.first().first().toBool(), qPrintable(page.errorText()));

        estimate::EstimateConfiguration configuration;
        configuration.modelPath = mFixtures.path("tokens.pt");
        configuration.inputShapes = {{12}};
        configuration.inputKind = estimate::InputKind::Tokens;
        configuration.vocabulary = 50;
        configuration.optimizer = "adamw";
        estimate::EstimateRequest request;
        request.batchSizes = {8};
        const estimate::ModelTracer tracer(configuration);
        const estimate::EstimateResult expected =
            estimate::MemoryEstimator::estimate(tracer, estimate::findGpuProfile("l4"), request);
        auto *table = page.findChild<QTableWidget *>(QStringLiteral("estimateTable"));
        QCOMPARE(table->rowCount(), 1);
        QCOMPARE(table->item(0, 2)->text(), mibText(expected.estimates[0].peakReservedBytes));
        QCOMPARE(table->item(0, 3)->text(), mibText(expected.estimates[0].deviceTotalMib()));
    }

    void aContextOfYourOwnReplacesTheProfiles()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        constexpr double measuredContext = 1000.0;
        {
            ui::YourModelPage page;
            openAndFill(page, "mlp.pt", QStringLiteral("20"), QStringLiteral("8"), QStringLiteral("adam"),
                        QStringLiteral("t4"));
            page.findChild<QDoubleSpinBox *>(QStringLiteral("contextBox"))->setValue(measuredContext);
            QSignalSpy finished(&page, &ui::YourModelPage::estimateFinished);
            QVERIFY(page.start());
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kEstimateTimeoutMilliseconds);
            QVERIFY2(finished.first().first().toBool(), qPrintable(page.errorText()));

            const estimate::GpuProfile t4 = estimate::findGpuProfile("t4");
            QVERIFY(t4.contextMib != measuredContext);
            const estimate::EstimateResult expected =
                independentEstimate(mFixtures.path("mlp.pt"), {20}, "adam", "t4", {8});
            const double reserved = static_cast<double>(expected.estimates[0].peakReservedBytes) / kMib;
            const double total = reserved + measuredContext + t4.workspaceMib;
            QCOMPARE(page.result()->estimates[0].contextMib, measuredContext);
            QCOMPARE(page.result()->estimates[0].deviceTotalMib(), total);
            auto *table = page.findChild<QTableWidget *>(QStringLiteral("estimateTable"));
            QCOMPARE(table->item(0, 3)->text(), mibText(total));
            QVERIFY(page.findChild<QLabel *>(QStringLiteral("estimateSummary"))
                        ->text()
                        .contains(QStringLiteral("context %1 MiB").arg(mibText(measuredContext))));
            // The T4's row of the GPU table agrees; the other GPUs keep their own contexts.
            auto *profiles = page.findChild<QTableWidget *>(QStringLiteral("profileTable"));
            const std::vector<std::string> names = estimate::gpuProfileNames();
            for (int row = 0; row < profiles->rowCount(); ++row) {
                const std::string &name = names[static_cast<std::size_t>(row)];
                const estimate::GpuProfile profile = estimate::findGpuProfile(name);
                const double context = name == "t4" ? measuredContext : profile.contextMib;
                QCOMPARE(profiles->item(row, 1)->text(), mibText(reserved + context + profile.workspaceMib));
            }
        }
        ui::YourModelPage again;
        QCOMPARE(again.findChild<QDoubleSpinBox *>(QStringLiteral("contextBox"))->value(), measuredContext);
    }

    void remembersTheForm()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        {
            ui::YourModelPage page;
            openAndFill(page, "mlp.pt", QStringLiteral("20"), QStringLiteral("2,8"), QStringLiteral("sgd"),
                        QStringLiteral("l4"));
            chooseData(page, "attentionBox", QStringLiteral("math"));
            QSignalSpy finished(&page, &ui::YourModelPage::estimateFinished);
            QVERIFY(page.start());
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kEstimateTimeoutMilliseconds);
        }
        ui::YourModelPage again;
        QCOMPARE(again.modelPath(), fixture("mlp.pt"));
        QCOMPARE(again.findChild<QLineEdit *>(QStringLiteral("inputShapes"))->text(), QStringLiteral("20"));
        QCOMPARE(again.findChild<QLineEdit *>(QStringLiteral("batchSizes"))->text(), QStringLiteral("2,8"));
        QCOMPARE(again.findChild<QComboBox *>(QStringLiteral("optimizerBox"))->currentData().toString(),
                 QStringLiteral("sgd"));
        QCOMPARE(again.findChild<QComboBox *>(QStringLiteral("gpuBox"))->currentData().toString(),
                 QStringLiteral("l4"));
        QCOMPARE(again.findChild<QComboBox *>(QStringLiteral("attentionBox"))->currentData().toString(),
                 QStringLiteral("math"));
    }

    void showsErrorsOnTheErrorLine_data()
    {
        // starts: false where the form is refused before any worker runs.
        addColumns<QString, QString, QString, bool, QString>("model", "shapes", "batches", "starts", "message");
        addRow("empty dimension", "mlp.pt", "3,,224", "8", false, "input shape takes positive whole numbers");
        addRow("no shape", "mlp.pt", " ; ", "8", false, "give one sample's input shape");
        addRow("bad batch", "mlp.pt", "20", "8,x", false, "batch sizes take whole numbers");
        addRow("shape the model rejects", "mlp.pt", "7", "8", true, "mat1 and mat2 shapes cannot be multiplied");
        addRow("not TorchScript", "weights.pt", "20", "8", true, "is not a TorchScript file");
    }
    void showsErrorsOnTheErrorLine()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        QFETCH(QString, model);
        QFETCH(QString, shapes);
        QFETCH(QString, batches);
        QFETCH(bool, starts);
        QFETCH(QString, message);
        ui::YourModelPage page;
        openAndFill(page, model.toLatin1().constData(), shapes, batches, QStringLiteral("adam"),
                    QStringLiteral("a100-80"));
        QSignalSpy finished(&page, &ui::YourModelPage::estimateFinished);
        QCOMPARE(page.start(), starts);
        if (starts) {
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kEstimateTimeoutMilliseconds);
            QCOMPARE(finished.first().first().toBool(), false);
        }
        QVERIFY2(page.errorText().contains(message), qPrintable(page.errorText()));
        QVERIFY(!page.errorText().contains(QLatin1Char('\n')));
        QVERIFY(page.result() == nullptr);
        QVERIFY(!page.isRunning());
        QCOMPARE(page.findChild<QTableWidget *>(QStringLiteral("estimateTable"))->rowCount(), 0);
    }

    void cancelDiscardsTheResult()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(mFixtures);
        ui::YourModelPage page;
        openAndFill(page, "cnn.pt", QStringLiteral("3,16,16"), QStringLiteral("8"), QStringLiteral("adam"),
                    QStringLiteral("a100-80"));
        QSignalSpy finished(&page, &ui::YourModelPage::estimateFinished);
        QSignalSpy cancelled(&page, &ui::YourModelPage::estimateCancelled);
        auto *cancel = page.findChild<QPushButton *>(QStringLiteral("cancelButton"));
        QVERIFY(!cancel->isEnabled());
        QVERIFY(page.start());
        QVERIFY(cancel->isEnabled());
        // The worker's result reaches the page through the event loop, so it cannot arrive before the cancel.
        cancel->click();
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!cancel->isEnabled());
        QVERIFY(!page.start()); // one worker at a time, the cancelled one included
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), kEstimateTimeoutMilliseconds);
        QCOMPARE(finished.count(), 0);
        QVERIFY(page.result() == nullptr);
        QCOMPARE(page.findChild<QTableWidget *>(QStringLiteral("estimateTable"))->rowCount(), 0);
        QVERIFY2(page.statusText().contains(QStringLiteral("discarded")), qPrintable(page.statusText()));

        // The page works again once the cancelled worker has ended.
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kEstimateTimeoutMilliseconds);
        QVERIFY2(finished.first().first().toBool(), qPrintable(page.errorText()));
        QVERIFY(page.result() != nullptr);
    }

    void comparesTheRecipesOfALanguageModel()
    {
        ui::YourModelPage page;
        page.resize(1280, 800);
        fillLanguageModel(page, QStringLiteral("llama-3.2-1b"), 256, QStringLiteral("1,2"), QStringLiteral("rtx-4090"));
        // A config needs no file nor input shape: those controls are off, the recipe's on.
        QVERIFY(!page.findChild<QLineEdit *>(QStringLiteral("inputShapes"))->isEnabled());
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("openModelButton"))->isEnabled());
        QVERIFY(page.findChild<QComboBox *>(QStringLiteral("precisionBox"))->isEnabled());
        auto *charts = page.findChild<QTabWidget *>(QStringLiteral("estimateCharts"));
        auto *recipeChart = page.findChild<QCustomPlot *>(QStringLiteral("recipeChart"));
        auto *sequenceChart = page.findChild<QCustomPlot *>(QStringLiteral("sequenceChart"));
        QVERIFY(recipeChart && sequenceChart);
        QVERIFY(charts->isTabVisible(charts->indexOf(recipeChart)));

        QSignalSpy finished(&page, &ui::YourModelPage::estimateFinished);
        QVERIFY(page.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kEstimateTimeoutMilliseconds);
        QVERIFY2(finished.first().first().toBool(), qPrintable(page.errorText()));

        workflows::EstimateSettings settings;
        settings.model.architecture = "llama-3.2-1b";
        settings.model.sequenceLength = 256;
        settings.model.dtype = "bfloat16";
        settings.model.optimizer = "adamw";
        settings.gpu = "rtx-4090";
        settings.request.batchSizes = {1, 2};
        const std::vector<workflows::RecipeEstimate> recipes = workflows::estimateRecipes(settings);
        QCOMPARE(recipes.size(), std::size_t{5});

        // The page's own estimate is the form's recipe: a full fine-tune, every parameter trained.
        const estimate::EstimateResult *shown = page.result();
        QVERIFY(shown);
        QCOMPARE(shown->estimates.size(), std::size_t{2});
        QCOMPARE(shown->estimates[0].deviceTotalMib(), recipes[0].estimate.deviceTotalMib());

        // Five stacked bars, each as tall as its recipe's device total.
        QCOMPARE(recipeChart->plottableCount(), kCategories + 2);
        std::vector<double> heights(recipes.size(), 0.0);
        for (int layer = 0; layer < recipeChart->plottableCount(); ++layer) {
            auto *bars = qobject_cast<QCPBars *>(recipeChart->plottable(layer));
            QVERIFY(bars);
            QCOMPARE(bars->data()->size(), static_cast<int>(recipes.size()));
            for (int bar = 0; bar < bars->data()->size(); ++bar)
                heights[static_cast<std::size_t>(bar)] += bars->data()->at(bar)->value;
        }
        for (std::size_t bar = 0; bar < recipes.size(); ++bar)
            QVERIFY2(std::abs(heights[bar] - recipes[bar].estimate.deviceTotalMib()) < 1e-6,
                     qPrintable(QStringLiteral("%1: %2 against %3")
                                    .arg(QString::fromStdString(recipes[bar].label))
                                    .arg(heights[bar])
                                    .arg(recipes[bar].estimate.deviceTotalMib())));
        // What a teacher shows: LoRA below the full fine-tune, QLoRA below LoRA.
        QVERIFY(heights[2] < heights[0]);
        QVERIFY(heights[4] < heights[3]);
        QVERIFY(heights[4] < heights[2]);
        // Each bar named under it, and the GPU's capacity drawn across.
        auto ticker = recipeChart->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QCOMPARE(ticker->ticks().size(), 5);
        QVERIFY2(ticker->ticks().value(5.0).startsWith(QStringLiteral("QLoRA")),
                 qPrintable(ticker->ticks().value(5.0)));
        auto *capacity = recipeChart->findChild<QCPItemStraightLine *>(QStringLiteral("capacityLine"));
        QVERIFY(capacity);
        QCOMPARE(capacity->point1->coords().y(), estimate::findGpuProfile("rtx-4090").capacityMib);
        QVERIFY(recipeChart->yAxis->label().contains(QStringLiteral("MiB")));

        // Memory against the sequence length: a line per batch size over 8 lengths up to 8192 tokens.
        QCOMPARE(sequenceChart->graphCount(), 2);
        QCOMPARE(sequenceChart->graph(0)->dataCount(), 8);
        QCOMPARE(sequenceChart->graph(0)->data()->at(7)->key, 8192.0);
        // Memory grows with the sequence and the batch.
        QVERIFY(sequenceChart->graph(0)->data()->at(7)->value > sequenceChart->graph(0)->data()->at(0)->value);
        // (At 128 tokens the optimizer step's peak hides the batch; at 8192 the activations lead.)
        QVERIFY(sequenceChart->graph(1)->data()->at(7)->value > sequenceChart->graph(0)->data()->at(7)->value);
        QVERIFY(sequenceChart->findChild<QCPItemStraightLine *>(QStringLiteral("capacityLine")));
        QVERIFY(sequenceChart->xAxis->label().contains(QStringLiteral("tokens")));
        QVERIFY(sequenceChart->yAxis->label().contains(QStringLiteral("MiB")));

        // The GPU table answers for every profile, and the summary names the model.
        QVERIFY(page.findChild<QTableWidget *>(QStringLiteral("profileTable"))->rowCount() > 0);
        QVERIFY2(page.findChild<QLabel *>(QStringLiteral("estimateSummary"))
                     ->text()
                     .contains(QStringLiteral("<b>llama-3.2-1b</b>")),
                 qPrintable(page.findChild<QLabel *>(QStringLiteral("estimateSummary"))->text()));

        // Back to a TorchScript file: its controls return, the language model's charts go.
        page.openModel(QStringLiteral("/nowhere/model.pt"));
        QVERIFY(page.findChild<QLineEdit *>(QStringLiteral("inputShapes"))->isEnabled());
        QVERIFY(!page.findChild<QComboBox *>(QStringLiteral("precisionBox"))->isEnabled());
        QVERIFY(!charts->isTabVisible(charts->indexOf(recipeChart)));
    }

    void cancelsALanguageModelsRun()
    {
        ui::YourModelPage page;
        fillLanguageModel(page, QStringLiteral("gpt2"), 512, QStringLiteral("1"), QStringLiteral("a100-80"));
        QSignalSpy finished(&page, &ui::YourModelPage::estimateFinished);
        QVERIFY(page.start());
        page.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), kEstimateTimeoutMilliseconds);
        QCOMPARE(finished.count(), 0);
        QVERIFY(page.result() == nullptr);
        QVERIFY(page.findChild<QCustomPlot *>(QStringLiteral("recipeChart"))->plottableCount() == 0);
    }

    void opensTorchScriptFilesOnly()
    {
        QVERIFY(ui::isModelFilePath(QStringLiteral("/tmp/resnet50.pt")));
        QVERIFY(ui::isModelFilePath(QStringLiteral("model.PTH")));
        QVERIFY(!ui::isModelFilePath(QStringLiteral("jobs.csv")));
        QVERIFY(!ui::isModelFilePath(QStringLiteral("project.gpumem.json")));
    }
};

QTEST_MAIN(TestYourModelPage)
#include "test_YourModelPage.moc"
