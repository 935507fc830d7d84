// SPDX-License-Identifier: GPL-3.0-or-later
// Edit ▸ Copy as command: the command a page copies, run through `gpumem`, repeats
// the run the page made, so that a comparison, a training or an estimate set up in
// the workbench gives the same figures in a script.

#include "UiTestSupport.h"
#include "core/CommandLineRun.h"
#include "core/EstimateFixtures.h"
#include "core/SmallComparison.h"
#include "estimate/MemoryEstimator.h"
#include "models/ModelFolder.h"
#include "models/NetworkModelName.h"
#include "report/ComparisonReport.h"
#include "report/MetricsJson.h"
#include "ui/app/MainWindow.h"
#include "ui/app/WorkbenchState.h"
#include "ui/pages/ComparePage.h"
#include "ui/pages/DataPage.h"
#include "ui/pages/TrainingPage.h"
#include "ui/pages/YourModelPage.h"
#include "workflows/TrainWorkflow.h"

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGuiApplication>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

using namespace gpumem;

namespace {

constexpr int kRunTimeoutMilliseconds = 180000;

// The words a POSIX shell reads from line: plain words, single-quoted text and
// backslash-escaped characters (all that workflows::commandLineOf writes).
std::vector<std::string> shellWords(const QString &line)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    bool quoted = false;
    bool escaped = false;
    for (const char c : line.toStdString()) {
        if (escaped) {
            word += c;
            escaped = false;
        } else if (quoted) {
            if (c == '\'')
                quoted = false;
            else
                word += c;
        } else if (c == ' ') {
            if (inWord)
                words.push_back(word);
            word.clear();
            inWord = false;
        } else {
            inWord = true;
            if (c == '\'')
                quoted = true;
            else if (c == '\\')
                escaped = true;
            else
                word += c;
        }
    }
    if (inWord)
        words.push_back(word);
    return words;
}

// The arguments after "gpumem" of the command line on the clipboard; empty when it is not a gpumem command.
std::vector<std::string> copiedArguments()
{
    std::vector<std::string> words = shellWords(QGuiApplication::clipboard()->text());
    if (words.empty() || words.front() != "gpumem")
        return {};
    words.erase(words.begin());
    return words;
}

// Loads path into state with the peak memory as the target and the other measurements ignored.
void openSmallTable(ui::WorkbenchState &state, const QString &path)
{
    auto table = std::make_shared<const data::Table>(data::loadTable(path.toStdString()));
    state.setTable(table, path);
    const auto target = table->columnIndex("peak_allocated_mib");
    QVERIFY(target);
    state.setRole(*target, data::ColumnRole::Target);
    std::vector<std::size_t> measured;
    for (const char *name : {"peak_reserved_mib", "simulated_reserved_mib", "cuda_context_mib"})
        if (const auto column = table->columnIndex(name))
            measured.push_back(*column);
    state.setRoleOfColumns(measured, data::ColumnRole::Ignored);
}

// A window whose state holds the small table, saved under a name with a quote so
// that the command quotes its path and escapes the quote.
struct WindowWithSmallTable
{
    QTemporaryDir folder;
    QString path = QString::fromStdString(tests::writeSmallCnnTable(folder, QStringLiteral("it's small.csv")));
    ui::MainWindow window;

    WindowWithSmallTable()
    {
        if (!path.isEmpty())
            openSmallTable(*window.state(), path);
    }
};

} // namespace

class CopyAsCommandTest : public QObject
{
    Q_OBJECT

  private:
    std::unique_ptr<tests::EstimateFixtures> mFixtures;

    static QAction *copyAction(const ui::MainWindow &window)
    {
        return window.findChild<QAction *>(QStringLiteral("copyCommandAction"));
    }

  private Q_SLOTS:
    void initTestCase()
    {
        tests::isolateSettings("test_CopyAsCommand");
        mFixtures = std::make_unique<tests::EstimateFixtures>();
    }

    void pagesThatRunNothingOrHaveNoDataCopyNothing()
    {
        ui::MainWindow window;
        QAction *action = copyAction(window);
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
        window.showPage(window.dataPage());
        QVERIFY(!action->isEnabled());
        QVERIFY(action->toolTip().contains(QStringLiteral("runs nothing")));
        window.showPage(window.comparePage());
        QVERIFY(!action->isEnabled());
        QVERIFY2(action->toolTip().contains(QStringLiteral("No data loaded")), qPrintable(action->toolTip()));
        QVERIFY(window.comparePage()->commandLine().isEmpty());
        QVERIFY(window.trainingPage()->commandLine().isEmpty());
    }

    void theCompareCommandRepeatsThePagesComparison()
    {
        WindowWithSmallTable opened;
        QVERIFY(!opened.path.isEmpty());
        ui::MainWindow &window = opened.window;
        const QString &path = opened.path;
        ui::ComparePage *page = window.comparePage();
        page->setSelectedModels({QStringLiteral("decision_tree"), QStringLiteral("ridge")});
        page->setFolds(3);
        page->findChild<QSpinBox *>(QStringLiteral("seedBox"))->setValue(7);
        QSignalSpy finished(page, &ui::ComparePage::comparisonFinished);
        QVERIFY(page->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMilliseconds);
        QVERIFY2(finished.first().first().toBool(), qPrintable(page->statusText()));

        // The menu: enabled on the Compare page with data, copying the page's command and saying so.
        window.showPage(page);
        QAction *action = copyAction(window);
        QVERIFY(action->isEnabled());
        QGuiApplication::clipboard()->clear();
        action->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), page->commandLine());
        QVERIFY(window.statusBar()->currentMessage().contains(page->commandLine()));
        window.showPage(window.dataPage());
        QVERIFY(!action->isEnabled());

        // The file's name is one quoted word, read back as it is.
        const std::vector<std::string> arguments = copiedArguments();
        QVERIFY(arguments.size() > 2);
        QCOMPARE(arguments[0], std::string("compare"));
        QCOMPARE(arguments[1], path.toStdString());

        const Run run = runGpumem(withArguments(arguments, {"--json"}));
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const nlohmann::json fromCommand = nlohmann::json::parse(run.out);

        // The same models, each with the page's per-fold RMSE.
        const evaluation::ExperimentResult &shown = *window.state()->comparison();
        QCOMPARE(shown.models.size(), std::size_t{2});
        QCOMPARE(fromCommand.at("models").size(), shown.models.size());
        for (std::size_t index = 0; index < shown.models.size(); ++index) {
            const evaluation::ModelResult &model = shown.models[index];
            const nlohmann::json &copied = fromCommand.at("models")[index];
            QCOMPARE(copied.at("name").get<std::string>(), model.name);
            QCOMPARE(model.folds.size(), std::size_t{3});
            QCOMPARE(copied.at("per_fold").size(), model.folds.size());
            for (std::size_t fold = 0; fold < model.folds.size(); ++fold) {
                const double rmse = copied.at("per_fold")[fold].at("rmse").get<double>();
                QVERIFY2(std::abs(rmse - model.folds[fold].metrics.rmse) <= 1e-9 * std::max(1.0, rmse),
                         qPrintable(QStringLiteral("%1 fold %2: %3 against %4")
                                        .arg(QString::fromStdString(model.name))
                                        .arg(fold)
                                        .arg(rmse)
                                        .arg(model.folds[fold].metrics.rmse)));
            }
        }
        // And every figure that does not depend on time, as the page's own report writes it.
        std::ostringstream onPage;
        report::writeJsonReport(onPage, window.state()->comparisonContext(), shown);
        QCOMPARE(tests::timeFreeScores(fromCommand).dump(),
                 tests::timeFreeScores(nlohmann::json::parse(onPage.str())).dump());
    }

    void theEstimateCommandRepeatsThePagesEstimate()
    {
        GPUMEM_REQUIRE_ESTIMATE_FIXTURES(*mFixtures);
        ui::MainWindow window;
        ui::YourModelPage *page = window.yourModelPage();
        window.openFile(QString::fromStdString(mFixtures->path("mlp.pt")));
        QCOMPARE(window.currentPage(), page);
        auto *kind = page->findChild<QComboBox *>(QStringLiteral("inputKindBox"));
        kind->setCurrentIndex(kind->findData(QStringLiteral("float")));
        page->findChild<QLineEdit *>(QStringLiteral("inputShapes"))->setText(QStringLiteral("20"));
        page->findChild<QLineEdit *>(QStringLiteral("batchSizes"))->setText(QStringLiteral("4, 32"));
        auto *optimizers = page->findChild<QComboBox *>(QStringLiteral("optimizerBox"));
        optimizers->setCurrentIndex(optimizers->findData(QStringLiteral("adam")));
        auto *gpus = page->findChild<QComboBox *>(QStringLiteral("gpuBox"));
        gpus->setCurrentIndex(gpus->findData(QStringLiteral("t4")));
        page->findChild<QDoubleSpinBox *>(QStringLiteral("contextBox"))->setValue(0.0);
        QSignalSpy finished(page, &ui::YourModelPage::estimateFinished);
        QVERIFY(page->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMilliseconds);
        QVERIFY2(finished.first().first().toBool(), qPrintable(page->errorText()));

        QAction *action = copyAction(window);
        QVERIFY(action->isEnabled());
        action->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), page->commandLine());
        const std::vector<std::string> arguments = copiedArguments();
        QVERIFY(!arguments.empty());
        QCOMPARE(arguments[0], std::string("estimate"));
        const Run run = runGpumem(withArguments(arguments, {"--json"}));
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const nlohmann::json estimates = nlohmann::json::parse(run.out).at("estimates");

        // The same batches with the same peaks, in the JSON's MiB.
        const estimate::EstimateResult *shown = page->result();
        QVERIFY(shown);
        QCOMPARE(estimates.size(), shown->estimates.size());
        for (std::size_t index = 0; index < shown->estimates.size(); ++index) {
            const estimate::BatchEstimate &estimate = shown->estimates[index];
            QCOMPARE(estimates[index].at("batch_size").get<std::int64_t>(), estimate.batchSize);
            for (const auto &[key, bytes] : {std::pair{"peak_allocated_mib", estimate.peakAllocatedBytes},
                                             std::pair{"peak_reserved_mib", estimate.peakReservedBytes}}) {
                const double mib = static_cast<double>(bytes) / 1048576.0;
                QVERIFY2(std::abs(estimates[index].at(key).get<double>() - mib) < 0.01, key);
            }
        }
    }

    void theTrainCommandRepeatsThePagesTraining()
    {
        WindowWithSmallTable opened;
        QVERIFY(!opened.path.isEmpty());
        ui::MainWindow &window = opened.window;
        window.state()->setHyperparameters(tests::quickHyperparameters(3));
        ui::TrainingPage *page = window.trainingPage();
        page->setCalibration(true, 0.8);
        QSignalSpy finished(page, &ui::TrainingPage::trainingFinished);
        QVERIFY(page->start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMilliseconds);
        QVERIFY2(finished.first().first().toBool(), qPrintable(page->statusText()));

        window.showPage(page);
        QAction *action = copyAction(window);
        QVERIFY(action->isEnabled());
        action->trigger();
        QCOMPARE(QGuiApplication::clipboard()->text(), page->commandLine());
        std::vector<std::string> arguments = copiedArguments();
        QVERIFY(!arguments.empty());
        QCOMPARE(arguments[0], std::string("train"));
        // The model folder the command writes goes to the test's folder.
        const auto out = std::find(arguments.begin(), arguments.end(), "--out");
        QVERIFY(out != arguments.end() && out + 1 != arguments.end());
        const std::string modelFolder = opened.folder.filePath(QStringLiteral("model")).toStdString();
        *(out + 1) = modelFolder;
        const Run run = runGpumem(withArguments(arguments, {"--json"}));
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const std::string lastLine = run.out.substr(run.out.rfind('\n', run.out.size() - 2) + 1);
        const nlohmann::json summary = nlohmann::json::parse(lastLine);

        // The command parses back to the page's configuration: the model, every value, the seed,
        // no hold-out, and the calibration's coverage.
        const workflows::TrainConfiguration configuration = page->configuration();
        const io::Json metadata = models::readModelMetadata(modelFolder);
        QCOMPARE(models::modelNameOf(metadata), std::string(models::kNetworkModelName));
        QCOMPARE(configuration.model, std::string(models::kNetworkModelName));
        // The folder's values read back as the network reads them (a saved 0.0 reads back as 0).
        models::Hyperparameters saved = models::neuralNetworkHyperparameters();
        saved.apply(metadata.at("hyperparameters"), "model.json");
        QCOMPARE(saved.values().dump(), configuration.hyperparameters.values().dump());
        QCOMPARE(saved.values().dump(), window.state()->hyperparameters().values().dump());
        QCOMPARE(metadata.at("seed").get<std::uint64_t>(), configuration.compute.seed);
        QCOMPARE(summary.at("test_rows").get<std::size_t>(), std::size_t{0});
        QCOMPARE(configuration.holdOutFraction, 0.0);
        QCOMPARE(summary.at("calibration").at("coverage").get<double>(), 0.8);

        // And it trains what the page trained: the same training rows' metrics.
        const runs::RunRecord &trained = window.state()->runs().back();
        QVERIFY(trained.trainMetrics);
        const io::Json onPage = *trained.trainMetrics;
        const nlohmann::json pageMetrics = nlohmann::json::parse(onPage.dump());
        QVERIFY2(summary.at("train_metrics") == pageMetrics,
                 (summary.at("train_metrics").dump() + "\n" + pageMetrics.dump()).c_str());
    }
};

QTEST_MAIN(CopyAsCommandTest)
#include "test_CopyAsCommand.moc"
