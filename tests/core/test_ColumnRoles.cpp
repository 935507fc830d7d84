// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "data/ColumnRoles.h"
#include "data/JobNames.h"
#include "data/TableLoader.h"
#include "io/InputError.h"

#include <QTest>

using gpumem::data::ColumnRole;
using gpumem::data::RoleRequest;
using Roles = std::vector<ColumnRole>;

namespace {

// id: identifier, batch: numeric, act: categorical, layers: sequence, memory: numeric target, note: text
const std::string jobs = "id,batch,act,layers,memory (MiB),note\n"
                         "a,32,relu,\"[('linear', 1, 10)]\",1500,x\n"
                         "b,64,gelu,\"[('linear', 2, 10)]\",1600,y\n"
                         "c,64,relu,\"[('linear', 3, 10)]\",1700,abc\n";

gpumem::data::Table jobsTable()
{
    return gpumem::data::loadTableFromText(jobs, "jobs.csv");
}

QString roleError(const RoleRequest &request)
{
    try {
        gpumem::data::assignRoles(jobsTable(), request);
    } catch (const gpumem::io::InputError &error) {
        return QString::fromStdString(error.what());
    }
    return QStringLiteral("no error");
}

} // namespace

class TestColumnRoles : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void defaultsFollowTypes()
    {
        const Roles expected{ColumnRole::Ignored,  ColumnRole::Feature, ColumnRole::Feature,
                             ColumnRole::Sequence, ColumnRole::Feature, ColumnRole::Ignored};
        QCOMPARE(gpumem::data::defaultRoles(jobsTable()), expected);
    }

    void appliesRequest()
    {
        RoleRequest request;
        request.target = "memory (MiB)";
        request.ignored = {"act"};
        const Roles expected{ColumnRole::Ignored,  ColumnRole::Feature, ColumnRole::Ignored,
                             ColumnRole::Sequence, ColumnRole::Target,  ColumnRole::Ignored};
        QCOMPARE(gpumem::data::assignRoles(jobsTable(), request), expected);
    }

    void explicitFeaturesReplaceDefaults()
    {
        RoleRequest request;
        request.target = "memory (MiB)";
        request.features = {"act", "id"};
        request.sequenceColumn = "layers";
        const Roles expected{ColumnRole::Feature,  ColumnRole::Ignored, ColumnRole::Feature,
                             ColumnRole::Sequence, ColumnRole::Target,  ColumnRole::Ignored};
        QCOMPARE(gpumem::data::assignRoles(jobsTable(), request), expected);
    }

    void rejectsImpossibleRequests_data()
    {
        addColumns<QString, QString, QString, QString>("target", "features", "sequence", "expected");
        // The messages name the request's fields; `gpumem` prints them as flags.
        addRow("unknown target", "Memory", "", "", "target names no column 'Memory'; the columns are: id, batch, act");
        addRow("non-numeric target", "note", "", "",
               "jobs.csv:2:6: target column 'note' must be numeric (peak memory), "
               "but not a number: 'x'");
        addRow("unknown feature", "", "batch,size", "", "features names no column 'size'");
        addRow("sequence as feature", "", "layers", "", "name it with sequence_column instead");
        addRow("numeric as sequence", "", "", "batch", "column 'batch' is numeric, not a layer sequence");
    }

    void rejectsImpossibleRequests()
    {
        QFETCH(QString, target);
        QFETCH(QString, features);
        QFETCH(QString, sequence);
        QFETCH(QString, expected);
        RoleRequest request;
        request.target = target.toStdString();
        for (const QString &name : features.split(QLatin1Char(','), Qt::SkipEmptyParts))
            request.features.push_back(name.toStdString());
        request.sequenceColumn = sequence.toStdString();
        const QString error = roleError(request);
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void rejectsWhenNothingIsLeftToLearnFrom()
    {
        RoleRequest request;
        request.target = "memory (MiB)";
        request.ignored = {"batch", "act", "layers"};
        QVERIFY(roleError(request).contains(QStringLiteral("no feature or sequence column")));
    }

    void ranksTargetCandidates()
    {
        const auto table = gpumem::data::loadTableFromText(
            "embeddings,constant,Max GPU Memory (MiB),batch\n1,5,100,8\n2,5,200,16\n", "t.csv");
        // Memory first, then the other varying numeric columns; "embeddings" holds "mb" but is not a memory word.
        QCOMPARE(gpumem::data::targetCandidates(table),
                 (std::vector<std::string>{"Max GPU Memory (MiB)", "embeddings", "batch"}));
        // A column called "target" is preferred too.
        const auto named = gpumem::data::loadTableFromText("batch,target\n8,100\n16,200\n", "t.csv");
        QCOMPARE(gpumem::data::targetCandidates(named).front(), std::string("target"));
    }

    void namesJobsByTheirIdentifierColumn()
    {
        // Lines 2–4 hold a, b, c; line 9 is not a row of the file.
        QCOMPARE(gpumem::data::jobNames(jobsTable(), {2, 4, 9}), (std::vector<std::string>{"a", "c", ""}));
        const auto anonymous = gpumem::data::loadTableFromText("batch,memory\n8,100\n16,200\n", "t.csv");
        QVERIFY(gpumem::data::jobNames(anonymous, {2}).empty());
    }

    void findsColumnsThatHoldOneValue()
    {
        // family: one category; steps: one number; gap: one value and a missing cell;
        // empty: no value at all; batch varies.
        const auto table = gpumem::data::loadTableFromText(
            "family,steps,gap,empty,batch,memory\nmlp,2,7,,8,100\nmlp,2,,,16,200\nmlp,2,7,,32,300\n", "t.csv");
        std::vector<bool> holds;
        for (const auto &column : table.columns())
            holds.push_back(gpumem::data::holdsOneValue(column));
        QCOMPARE(holds, (std::vector<bool>{true, true, false, false, false, false}));
    }

    void workbenchStartsWithConstantColumnsIgnored()
    {
        const auto table = gpumem::data::loadTableFromText(
            "family,steps,batch,memory\nmlp,2,8,100\nmlp,2,16,200\nmlp,2,32,300\n", "t.csv");
        QCOMPARE(gpumem::data::suggestedRoles(table),
                 (Roles{ColumnRole::Ignored, ColumnRole::Ignored, ColumnRole::Feature, ColumnRole::Target}));
        // The command line keeps them, and a feature named explicitly is the user's choice.
        RoleRequest request;
        request.target = "memory";
        QCOMPARE(gpumem::data::assignRoles(table, request),
                 (Roles{ColumnRole::Feature, ColumnRole::Feature, ColumnRole::Feature, ColumnRole::Target}));
        request.ignoreConstantColumns = true;
        request.features = {"family", "batch"};
        QCOMPARE(gpumem::data::assignRoles(table, request),
                 (Roles{ColumnRole::Feature, ColumnRole::Ignored, ColumnRole::Feature, ColumnRole::Target}));
    }

    void keepsConstantColumnsWhenNothingElseIsLeft()
    {
        // Jobs that differ only in their memory: ignoring every constant would leave nothing.
        const auto single = gpumem::data::loadTableFromText("family,batch,memory\nmlp,8,100\nmlp,8,200\n", "t.csv");
        RoleRequest request;
        request.target = "memory";
        request.ignoreConstantColumns = true;
        QCOMPARE(gpumem::data::assignRoles(single, request),
                 (Roles{ColumnRole::Feature, ColumnRole::Feature, ColumnRole::Target}));
    }

    void offersOnlyTheRolesATypeCanTake()
    {
        const auto table = jobsTable();
        const auto roles = [&](const char *name) {
            return gpumem::data::allowedRoles(table.column(*table.columnIndex(name)));
        };
        QCOMPARE(roles("batch"), (Roles{ColumnRole::Feature, ColumnRole::Target, ColumnRole::Ignored}));
        QCOMPARE(roles("act"), (Roles{ColumnRole::Feature, ColumnRole::Ignored}));
        QCOMPARE(roles("layers"), (Roles{ColumnRole::Sequence, ColumnRole::Ignored}));
    }
};

QTEST_GUILESS_MAIN(TestColumnRoles)
#include "test_ColumnRoles.moc"
