// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 51: columns measured by the same run as the target (the GPUMemNet file's Avg GPUTL,
// Avg SMACT…) defaulted to features with no word of warning.
#include "DataTables.h"
#include "TestSupport.h"
#include "data/ColumnRoles.h"
#include "data/LikelyOutcomes.h"
#include "data/TableLoader.h"

#include <QTest>

using gpumem::data::ColumnRole;

namespace {

// The likely outcomes of csv with target chosen (or none), as "column: reason" lines.
QStringList outcomesOf(const QString &csv, const QString &target)
{
    const auto table = gpumem::data::loadTableFromText(csv.toStdString(), "jobs.csv");
    gpumem::data::RoleRequest request;
    request.target = target.toStdString();
    const auto roles = gpumem::data::assignRoles(table, request);
    QStringList found;
    for (const auto &outcome : gpumem::data::likelyOutcomes(table, roles))
        found << QString::fromStdString(outcome.column + ": " + outcome.reason);
    return found;
}

} // namespace

class TestLikelyOutcomes : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void columnsMeasuredWithTheTargetAreFound_data()
    {
        addColumns<QString, QString, QStringList>("csv", "target", "expected");
        // GPUMemNet's layout: the configuration, the target, then the run's counters.
        addRow("utilisation counters after the target",
               "Depth,Total Parameters,Batch Size,Max GPU Memory (MiB),Avg GPUTL,Avg SMACT\n"
               "3,1000,8,500,0.5,0.2\n4,2000,16,900,0.7,0.3\n5,3000,32,1300,0.6,0.4\n",
               "Max GPU Memory (MiB)",
               QStringList{"Avg GPUTL: named like a counter measured while the job ran",
                           "Avg SMACT: named like a counter measured while the job ran"});
        // Total Parameters follows the target (r = 1) but comes before it: chosen, not measured.
        addRow("a strong predictor before the target is kept", "params,batch,memory_mib\n1,8,10\n2,16,20\n3,32,30\n",
               "memory_mib", QStringList{});
        addRow("a statistic like the target after it",
               "batch,Max Memory (MiB),Avg Batch Time,Mean Occupancy\n8,100,1,5\n16,180,2,9\n32,400,3,7\n",
               "Max Memory (MiB)",
               QStringList{"Avg Batch Time: named like a counter measured while the job ran",
                           "Mean Occupancy: a statistic of the run, like the target"});
        addRow("another memory figure after the target",
               "batch,reserved_mib,allocated_mib\n8,100,90\n16,180,170\n32,400,300\n", "reserved_mib",
               QStringList{"allocated_mib: another memory figure"});
        addRow("the target again in other units",
               "batch,device_total,device_total_gigs\n8,100,0.098\n16,180,0.176\n32,400,0.39\n", "device_total",
               QStringList{"device_total_gigs: follows the target almost exactly (r = 1.00)"});
        addRow("a counter before the target too", "power_watts,batch,memory\n200,8,100\n250,16,180\n300,32,400\n",
               "memory", QStringList{"power_watts: named like a counter measured while the job ran"});
        addRow("ignored columns need no word", "batch,memory,gpu_util\n8,100,0.5\n16,180,0.6\n32,400,0.7\n", "memory",
               QStringList{"gpu_util: named like a counter measured while the job ran"});
    }

    void columnsMeasuredWithTheTargetAreFound()
    {
        QFETCH(QString, csv);
        QFETCH(QString, target);
        QFETCH(QStringList, expected);
        QCOMPARE(outcomesOf(csv, target), expected);
    }

    // Before a target is chosen, the question is asked of the workbench's suggestion.
    void withoutATargetTheSuggestedOneStandsIn()
    {
        const auto table = gpumem::data::loadTableFromText(
            "batch,peak_memory_mib,sm_util\n8,100,0.5\n16,180,0.6\n32,400,0.7\n", "jobs.csv");
        const auto roles = gpumem::data::assignRoles(table, {});
        const auto outcomes = gpumem::data::likelyOutcomes(table, roles);
        QCOMPARE(outcomes.size(), std::size_t{1});
        QCOMPARE(outcomes.front().column, std::string("sm_util"));
    }

    void anIgnoredColumnIsNotAsked()
    {
        const auto table =
            gpumem::data::loadTableFromText("batch,memory,gpu_util\n8,100,0.5\n16,180,0.6\n32,400,0.7\n", "jobs.csv");
        gpumem::data::RoleRequest request;
        request.target = "memory";
        request.ignored = {"gpu_util"};
        QVERIFY(gpumem::data::likelyOutcomes(table, gpumem::data::assignRoles(table, request)).empty());
    }

    void theNoteNamesEveryColumnAndWhatToDo()
    {
        const std::string note =
            gpumem::data::likelyOutcomesNote({{"Avg GPUTL", "named like a counter measured while the job ran"},
                                              {"allocated_mib", "another memory figure"}});
        QVERIFY(note.find("2 features look measured with the target") == 0);
        QVERIFY(note.find("'Avg GPUTL' (named like a counter measured while the job ran)") != std::string::npos);
        QVERIFY(note.find("--ignore") != std::string::npos);
        QVERIFY(gpumem::data::likelyOutcomesNote({}).empty());
    }
};

QTEST_GUILESS_MAIN(TestLikelyOutcomes)
#include "test_LikelyOutcomes.moc"
