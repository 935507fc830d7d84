// SPDX-License-Identifier: GPL-3.0-or-later
#include "RaisedInputError.h"
#include "TestSupport.h"
#include "data/ColumnNotes.h"
#include "data/RoleNotes.h"
#include "data/TableLoader.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using gpumem::data::ColumnRole;

namespace {

const char *const jobsCsv = "batch,layers_count,allocated_mib,reserved_mib,device_mib\n"
                            "8,3,100,128,636\n16,4,190,256,764\n32,5,380,512,1020\n";

// The role of column name in roles of table.
ColumnRole roleOf(const gpumem::data::Table &table, const std::vector<ColumnRole> &roles, const std::string &name)
{
    return roles[*table.columnIndex(name)];
}

} // namespace

class TestColumnNotes : public QObject
{
    Q_OBJECT

  private:
    QTemporaryDir mScratch;

    // Writes jobs.csv and, unless notes is null, jobs.columns.json holding notes; returns the CSV path.
    std::string writeJobs(const QString &folder, const char *notes)
    {
        QDir().mkpath(mScratch.filePath(folder));
        const QString csv = mScratch.filePath(folder + "/jobs.csv");
        gpumem::tests::writeText(csv, jobsCsv);
        if (notes)
            gpumem::tests::writeText(mScratch.filePath(folder + "/jobs.columns.json"), notes);
        return csv.toStdString();
    }

  private Q_SLOTS:
    void notesLieBesideTheData()
    {
        QCOMPARE(gpumem::data::columnNotesPath("runs/jobs.csv"), std::string("runs/jobs.columns.json"));
        QCOMPARE(gpumem::data::columnNotesPath("jobs"), std::string("jobs.columns.json"));
        QCOMPARE(gpumem::data::columnNotesPath("data/zoo.csv.gz"), std::string("data/zoo.columns.json"));
    }

    void ignoresTheOtherOutcomesAndStartsWithTheNotedTarget()
    {
        const std::string csv =
            writeJobs("noted", R"({"target": "device_mib", "outcomes": ["allocated_mib", "reserved_mib",
                                   "device_mib", "not_in_the_file"]})");
        const auto notes = gpumem::data::readColumnNotes(csv);
        QCOMPARE(notes.target, std::string("device_mib"));
        QCOMPARE(notes.outcomes.size(), std::size_t(4));
        const auto table = gpumem::data::loadTable(csv);
        QCOMPARE(gpumem::data::otherOutcomes(table, notes, "device_mib"),
                 (std::vector<std::string>{"allocated_mib", "reserved_mib"}));

        const auto roles = gpumem::data::suggestedRoles(table, notes);
        QCOMPARE(roleOf(table, roles, "device_mib"), ColumnRole::Target);
        QCOMPARE(roleOf(table, roles, "allocated_mib"), ColumnRole::Ignored);
        QCOMPARE(roleOf(table, roles, "reserved_mib"), ColumnRole::Ignored);
        QCOMPARE(roleOf(table, roles, "batch"), ColumnRole::Feature);
        // Without notes the first memory column is the target and the others are features.
        const auto plain =
            gpumem::data::suggestedRoles(table, gpumem::data::readColumnNotes(writeJobs("plain", nullptr)));
        QCOMPARE(roleOf(table, plain, "allocated_mib"), ColumnRole::Target);
        QCOMPARE(roleOf(table, plain, "device_mib"), ColumnRole::Feature);

        const std::string note = gpumem::data::otherOutcomesNote({"allocated_mib", "reserved_mib"}, notes);
        QCOMPARE(note, std::string("ignored 2 other outcomes of each job, which would give the target away "
                                   "(jobs.columns.json): 'allocated_mib', 'reserved_mib'"));
        QVERIFY(gpumem::data::otherOutcomesNote({}, notes).empty());
    }

    void refusesMalformedNotesNamingTheFile_data()
    {
        QTest::addColumn<QString>("notes");
        QTest::addColumn<QString>("message");
        QTest::newRow("not an object") << "[1]"
                                       << "expected an object";
        QTest::newRow("unknown member") << R"({"targets": "x"})"
                                        << "unknown member 'targets'";
        QTest::newRow("target not text") << R"({"target": 3})"
                                         << "expected a string";
        QTest::newRow("outcome not text") << R"({"outcomes": ["a", null]})"
                                          << "expected a string";
        QTest::newRow("not JSON") << "{\"target\": "
                                  << "jobs.columns.json";
    }

    void refusesMalformedNotesNamingTheFile()
    {
        QFETCH(QString, notes);
        QFETCH(QString, message);
        const std::string csv = writeJobs("bad-" + QString::number(qHash(notes)), notes.toUtf8().constData());
        const auto error = gpumem::tests::raisedInputError([&] { gpumem::data::readColumnNotes(csv); });
        const QString text = QString::fromUtf8(error.what());
        QVERIFY2(text.contains("jobs.columns.json") && text.contains(message), error.what());
        QVERIFY2(!text.contains('\n'), error.what());
    }

    // The constant columns a request ignored by itself, named in one line for every front-end.
    void namesTheConstantColumnsIgnored()
    {
        const auto table = gpumem::data::loadTableFromText("a,steps,family,memory\n1,2,cnn,10\n2,2,cnn,20\n", "x.csv");
        gpumem::data::RoleRequest request;
        request.target = "memory";
        request.ignoreConstantColumns = true;
        const auto roles = gpumem::data::assignRoles(table, request);
        QCOMPARE(gpumem::data::ignoredConstantColumns(table, roles), (std::vector<std::string>{"steps", "family"}));
        QCOMPARE(gpumem::data::ignoredConstantColumns(table, roles, {"family"}), std::vector<std::string>{"steps"});
        QCOMPARE(gpumem::data::constantColumnsNote({"steps", "family"}),
                 std::string("ignored 2 columns that hold one value in every row (nothing to learn from): 'steps', "
                             "'family'"));
        QVERIFY(gpumem::data::constantColumnsNote({}).empty());
    }

    // Every built-in dataset, loaded as the workbench's Demo loads it, trains on no outcome.
    void noBuiltInDatasetHasAnOutcomeAsAFeature()
    {
        const QDir datasets(QString::fromStdString(gpumem::tests::dataFile("../../datasets")));
        const QStringList files = datasets.entryList({"*.csv"}, QDir::Files);
        QVERIFY(files.size() >= 6);
        for (const QString &file : files) {
            const std::string path = datasets.filePath(file).toStdString();
            const auto notes = gpumem::data::readColumnNotes(path);
            QVERIFY2(!notes.source.empty() && !notes.target.empty(), qPrintable(file + " has no column notes"));
            const auto table = gpumem::data::loadTable(path);
            const auto roles = gpumem::data::suggestedRoles(table, notes);
            QVERIFY2(roleOf(table, roles, notes.target) == ColumnRole::Target, qPrintable(file));
            for (const auto &outcome : notes.outcomes) {
                QVERIFY2(table.columnIndex(outcome), qPrintable(file + ": " + QString::fromStdString(outcome)));
                QVERIFY2(roleOf(table, roles, outcome) != ColumnRole::Feature,
                         qPrintable(file + ": " + QString::fromStdString(outcome) + " is a feature"));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestColumnNotes)
#include "test_ColumnNotes.moc"
