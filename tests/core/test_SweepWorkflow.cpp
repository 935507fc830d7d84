// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/ColumnRoles.h"
#include "data/SeededRandom.h"
#include "data/TableLoader.h"
#include "io/InputError.h"
#include "io/RegularFile.h"
#include "io/Sha256.h"
#include "models/RegressorRegistry.h"
#include "runs/SweepRecords.h"
#include "workflows/SweepWorkflow.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <string>
#include <vector>

using namespace gpumem;

namespace {

// 80 jobs in a file (a sweep names its data by the file's digest).
std::string writeJobs(const QTemporaryDir &folder)
{
    data::SeededRandom random(3);
    std::string csv = "size,width,memory\n";
    for (int row = 0; row < 80; ++row) {
        const double size = 1.0 + 99.0 * random.unit();
        const double width = random.unit() * 10.0;
        csv += std::to_string(size) + ',' + std::to_string(width) + ',' +
               std::to_string(30.0 * size + width * width + 20.0 * random.unit()) + '\n';
    }
    const std::string path = folder.filePath("jobs.csv").toStdString();
    std::ofstream(path) << csv;
    return path;
}

data::Dataset datasetOf(const std::string &path)
{
    const data::Table table = data::loadTable(path);
    data::RoleRequest request;
    request.target = "memory";
    std::vector<std::string> warnings;
    return data::Dataset::fromTable(table, data::assignRoles(table, request), data::BadCellPolicy::Fail, warnings);
}

// A grid of four trees: max_depth 1 and 3 by min_samples_leaf 2 and 8.
workflows::SweepConfiguration treeGrid()
{
    workflows::SweepConfiguration configuration;
    configuration.model = "decision_tree";
    configuration.base = models::regressorHyperparameters("decision_tree");
    configuration.plan.parameters = {{"max_depth", {"1", "3"}}, {"min_samples_leaf", {"2", "8"}}};
    configuration.holdOutFraction = 0.25;
    configuration.reproducible = true;
    return configuration;
}

// Keeps the trials the sweep reports, in order.
class TrialList : public workflows::SweepObserver
{
  public:
    void trialFinished(const runs::SweepTrial &trial, workflows::TrainResult &run) override
    {
        trials.push_back(trial.index);
        models.push_back(run.model != nullptr);
    }

    std::vector<std::size_t> trials;
    std::vector<bool> models;
};

std::string readText(const std::string &path)
{
    return io::readRegularFile(path, 1u << 20);
}

} // namespace

class TestSweepWorkflow : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void trialValuesAreTheBaseWithEachTrialsAssignments()
    {
        workflows::SweepConfiguration configuration = treeGrid();
        const workflows::SweepTrials checked = workflows::sweepTrials(configuration);
        QCOMPARE(checked.planned, std::size_t{4});
        QCOMPARE(checked.values.size(), std::size_t{4});
        // The first parameter varies slowest.
        const std::int64_t depths[] = {1, 1, 3, 3};
        const std::int64_t leaves[] = {2, 8, 2, 8};
        for (std::size_t trial = 0; trial < 4; ++trial) {
            QCOMPARE(checked.trials[trial].index, trial);
            QCOMPARE(checked.values[trial].integer("max_depth"), depths[trial]);
            QCOMPARE(checked.values[trial].integer("min_samples_leaf"), leaves[trial]);
            QCOMPARE(checked.values[trial].text("max_features"), configuration.base.text("max_features"));
        }

        // Shard 1 of 2: the trials of odd index.
        configuration.shard = 1;
        configuration.shards = 2;
        const workflows::SweepTrials shard = workflows::sweepTrials(configuration);
        QCOMPARE(shard.planned, std::size_t{4});
        QCOMPARE(shard.trials.size(), std::size_t{2});
        QCOMPARE(shard.trials[0].index, std::size_t{1});
        QCOMPARE(shard.trials[1].index, std::size_t{3});
        QCOMPARE(shard.values[1].integer("max_depth"), std::int64_t{3});

        // A bad value is refused, naming its trial, before anything trains.
        configuration.plan.parameters[0].values = {"1", "deep"};
        try {
            workflows::sweepTrials(configuration);
            QFAIL("accepted max_depth=deep");
        } catch (const io::InputError &error) {
            QVERIFY2(error.message().rfind("trial 3 (max_depth=deep min_samples_leaf=8): ", 0) == 0, error.what());
        }
        configuration.shard = 2;
        QVERIFY_THROWS_EXCEPTION(io::InputError, workflows::sweepTrials(configuration));
    }

    void aSweepWritesItsRunsAndFindsTheBest()
    {
        QTemporaryDir folder;
        const std::string data = writeJobs(folder);
        const data::Dataset dataset = datasetOf(data);
        workflows::SweepConfiguration configuration = treeGrid();
        const std::string output = folder.filePath("runs.jsonl").toStdString();
        configuration.outputFile = output;
        TrialList observer;
        const workflows::SweepResult swept = workflows::sweep(dataset, configuration, observer);
        QCOMPARE(swept.planned, std::size_t{4});
        QCOMPARE(swept.runs.size(), std::size_t{4});
        QCOMPARE(observer.trials, (std::vector<std::size_t>{0, 1, 2, 3}));
        QCOMPARE(observer.models, std::vector<bool>(4, true));

        // The best run, found again by hand: the lowest validation RMSE.
        std::size_t best = 0;
        for (std::size_t run = 0; run < 4; ++run) {
            QVERIFY(swept.runs[run].validationMetrics.has_value());
            QCOMPARE(swept.runs[run].name, "trial " + std::to_string(run));
            QCOMPARE(swept.runs[run].seconds, 0.0); // reproducible
            if (swept.runs[run].validationMetrics->rmse < swept.runs[best].validationMetrics->rmse)
                best = run;
        }
        QVERIFY(swept.best.has_value());
        QCOMPARE(*swept.best, best);
        // Deeper trees fit this law better than stumps.
        QVERIFY(*swept.best >= 2);

        // The file: a header naming the sweep, then one line per trial, in order.
        const runs::SweepFile file = runs::readSweepFile(output);
        QCOMPARE(file.header.trials, std::size_t{4});
        QCOMPARE(file.header.model, std::string("decision_tree"));
        QCOMPARE(file.header.id, io::sha256Hex(workflows::sweepIdentity(dataset, configuration)));
        QCOMPARE(file.lines.size(), std::size_t{4});
        for (std::size_t line = 0; line < 4; ++line) {
            QCOMPARE(file.lines[line].trial, line);
            QCOMPARE(file.lines[line].run.validationMetrics->rmse, swept.runs[line].validationMetrics->rmse);
        }

        // A second run replaces the file with the same bytes: no trial twice.
        const std::string first = readText(output);
        TrialList again;
        workflows::sweep(dataset, configuration, again);
        QCOMPARE(readText(output), first);
        QCOMPARE(runs::readSweepFile(output).lines.size(), std::size_t{4});
    }

    void shardsMergeIntoTheWholeSweep()
    {
        QTemporaryDir folder;
        const std::string data = writeJobs(folder);
        const data::Dataset dataset = datasetOf(data);
        workflows::SweepConfiguration configuration = treeGrid();
        configuration.outputFile = folder.filePath("all.jsonl").toStdString();
        TrialList whole;
        workflows::sweep(dataset, configuration, whole);

        std::vector<std::string> parts;
        configuration.shards = 3;
        for (std::size_t shard = 0; shard < 3; ++shard) {
            configuration.shard = shard;
            parts.push_back(folder.filePath(QStringLiteral("part%1.jsonl").arg(shard)).toStdString());
            configuration.outputFile = parts.back();
            TrialList observer;
            const workflows::SweepResult swept = workflows::sweep(dataset, configuration, observer);
            QCOMPARE(swept.trials, shard == 0 ? std::size_t{2} : std::size_t{1});
        }
        QCOMPARE(runs::mergeSweepFiles(parts), readText(folder.filePath("all.jsonl").toStdString()));

        // A shard with no trial of its own still names its sweep.
        configuration.shards = 6;
        configuration.shard = 5;
        configuration.outputFile = folder.filePath("empty.jsonl").toStdString();
        TrialList none;
        const workflows::SweepResult empty = workflows::sweep(dataset, configuration, none);
        QVERIFY(empty.runs.empty());
        QVERIFY(!empty.best.has_value());
        const runs::SweepFile file = runs::readSweepFile(*configuration.outputFile);
        QVERIFY(file.lines.empty());
        QCOMPARE(file.header.trials, std::size_t{4});

        // Other data is another sweep, even with the same columns.
        const std::string other = folder.filePath("other.csv").toStdString();
        std::ofstream(other) << readText(data) << "50,5,1600\n";
        QVERIFY(workflows::sweepIdentity(datasetOf(other), configuration) !=
                workflows::sweepIdentity(dataset, configuration));
    }
};

QTEST_GUILESS_MAIN(TestSweepWorkflow)
#include "test_SweepWorkflow.moc"
