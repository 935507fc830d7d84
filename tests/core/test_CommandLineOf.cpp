// SPDX-License-Identifier: GPL-3.0-or-later
// The `gpumem` command of a configuration runs that configuration: parsed by the
// command line, it gives the result the configuration gives in-process.

#include "CommandLineRun.h"
#include "SmallComparison.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "report/ComparisonReport.h"
#include "workflows/CommandLineOf.h"

#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <sstream>

using namespace gpumem;

namespace {

workflows::DataRequest smallRequest(const std::string &path)
{
    workflows::DataRequest request;
    request.path = path;
    request.target = "peak_allocated_mib";
    request.ignored = {"peak_reserved_mib", "simulated_reserved_mib", "cuda_context_mib"};
    return request;
}

} // namespace

class CommandLineOfTest : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void wordsAreQuotedForAShell()
    {
        QCOMPARE(workflows::shellQuoted("--seq-len"), std::string("--seq-len"));
        QCOMPARE(workflows::shellQuoted("a,b=c/d.csv"), std::string("a,b=c/d.csv"));
        QCOMPARE(workflows::shellQuoted("my data.csv"), std::string("'my data.csv'"));
        QCOMPARE(workflows::shellQuoted("it's"), std::string("'it'\\''s'"));
        QCOMPARE(workflows::shellQuoted(""), std::string("''"));
        QCOMPARE(workflows::shellQuoted("$HOME"), std::string("'$HOME'"));
        QCOMPARE(workflows::commandLineOf({"compare", "a b.csv", "--folds", "3"}),
                 std::string("gpumem compare 'a b.csv' --folds 3"));
    }

    void theCompareCommandReproducesTheComparison()
    {
        QTemporaryDir folder;
        // A space in the name, so that the path is quoted.
        const std::string path = tests::writeSmallCnnTable(folder, QStringLiteral("small cnn.csv"));
        QVERIFY(!path.empty());
        const workflows::DataRequest request = smallRequest(path);
        workflows::CompareConfiguration configuration;
        evaluation::ExperimentSettings &settings = configuration.experiment;
        settings.models = workflows::comparedModels({"decision_tree", "ridge"}, models::neuralNetworkHyperparameters());
        settings.models[0].hyperparameters.setAssignment("max_depth=3");
        settings.folds = 3;
        settings.seed = 7;
        settings.compute.seed = 7;

        const std::vector<std::string> arguments = workflows::argumentsOf(request, configuration);
        for (const char *expected : {"--folds", "--seed", "decision_tree.max_depth=3", "--models"})
            QVERIFY2(std::find(arguments.begin(), arguments.end(), expected) != arguments.end(), expected);
        QVERIFY(workflows::commandLineOf(arguments).find("'" + path + "'") != std::string::npos);

        const workflows::DataSelection selected = workflows::selectData(request);
        const workflows::CompareResult compared = workflows::compare(selected, path, configuration);
        std::ostringstream inProcess;
        report::writeJsonReport(inProcess, compared.context, compared.experiment);

        const Run run = runGpumem(withArguments(arguments, {"--json"}));
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const nlohmann::json fromCommand = tests::timeFreeScores(nlohmann::json::parse(run.out));
        const nlohmann::json fromWorkflow = tests::timeFreeScores(nlohmann::json::parse(inProcess.str()));
        QVERIFY2(fromCommand == fromWorkflow, (fromCommand.dump() + "\n" + fromWorkflow.dump()).c_str());
    }

    void theEstimateCommandReproducesTheEstimate()
    {
        workflows::EstimateSettings settings;
        settings.model.architecture = "gpt2";
        settings.model.sequenceLength = 64;
        settings.model.optimizer = "adamw";
        settings.model.dtype = "bfloat16";
        settings.model.loraRank = 8;
        settings.model.loraTargets = {"c_attn"};
        settings.request.batchSizes = {2, 4};
        settings.gpu = "t4";

        const std::vector<std::string> arguments = workflows::argumentsOf(settings);
        for (const char *expected : {"--config", "--seq-len", "--lora", "--lora-targets", "--gpu", "--batch-size"})
            QVERIFY2(std::find(arguments.begin(), arguments.end(), expected) != arguments.end(), expected);

        const workflows::EstimateOutcome outcome = workflows::estimateModel(settings);
        const Run run = runGpumem(withArguments(arguments, {"--json"}));
        QVERIFY2(run.exitCode == 0, run.err.c_str());
        const nlohmann::json document = nlohmann::json::parse(run.out);
        QCOMPARE(document.at("estimates").size(), outcome.result.estimates.size());
        for (std::size_t i = 0; i < outcome.result.estimates.size(); ++i) {
            const double mib = static_cast<double>(outcome.result.estimates[i].peakReservedBytes) / 1048576.0;
            QVERIFY(std::abs(document.at("estimates")[i].at("peak_reserved_mib").get<double>() - mib) < 0.01);
        }
    }

    void theTrainCommandNamesTheModelItsValuesAndTheFolder()
    {
        workflows::TrainConfiguration configuration;
        configuration.model = "decision_tree";
        configuration.hyperparameters = workflows::startingValues("decision_tree", {});
        configuration.hyperparameters.setAssignment("max_depth=4");
        configuration.holdOutFraction = 0.25;
        configuration.compute.seed = 3;
        const std::vector<std::string> arguments =
            workflows::argumentsOf(smallRequest("jobs.csv"), configuration, "out dir");
        const std::vector<std::string> expected{
            "train",           "jobs.csv",
            "--target",        "peak_allocated_mib",
            "--ignore",        "peak_reserved_mib,simulated_reserved_mib,cuda_context_mib",
            "--model",         "decision_tree",
            "--set",           "max_depth=4",
            "--seed",          "3",
            "--test-fraction", "0.25",
            "--out",           "out dir"};
        QCOMPARE(arguments, expected);
    }
};

QTEST_GUILESS_MAIN(CommandLineOfTest)
#include "test_CommandLineOf.moc"
