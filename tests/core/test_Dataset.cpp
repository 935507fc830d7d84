// SPDX-License-Identifier: GPL-3.0-or-later
#include "RaisedInputError.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "io/InputError.h"

#include <QTest>

using gpumem::data::BadCellPolicy;
using gpumem::data::Dataset;

namespace {

const std::string jobs = "id,batch,act,layers,memory\n"
                         "a,32,relu,\"[('linear', 1, 10)]\",1500\n" // line 2
                         "b,,gelu,\"[('linear', 2, 10)]\",1600\n"   // line 3: missing batch
                         "c,64,relu,\"[('linear', 3, 10)]\",inf\n"  // line 4: non-finite target
                         "d,128,gelu,\"[('linear', 4, 10), ('ReLU', 4, 0)]\",1800\n"
                         "e,256,,\"[('linear', 5, 10)]\",1900\n" // line 6: missing category
                         "f,512,relu,\"[('linear', 6\",2000\n";  // line 7: malformed sequence

Dataset build(BadCellPolicy policy, std::vector<std::string> &warnings, const std::vector<std::string> &ignored = {})
{
    const auto table = gpumem::data::loadTableFromText(jobs, "jobs.csv");
    gpumem::data::RoleRequest request;
    request.target = "memory";
    request.ignored = ignored;
    return Dataset::fromTable(table, gpumem::data::assignRoles(table, request), policy, warnings);
}

} // namespace

class TestDataset : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void failPolicyNamesTheFirstBadCell()
    {
        std::vector<std::string> warnings;
        const auto error = gpumem::tests::raisedInputError([&] { build(BadCellPolicy::Fail, warnings); });
        QCOMPARE(error.line(), 3);
        QCOMPARE(error.column(), 2);
        QCOMPARE(std::string(error.what()), std::string("jobs.csv:3:2: missing value in column 'batch' "
                                                        "(use on_bad_cell drop to leave such rows out)"));
    }

    void failPolicyIgnoresUnusedColumns()
    {
        // With the bad columns ignored, the first bad cell left is the target's 'inf' on line 4.
        std::vector<std::string> warnings;
        const auto error = gpumem::tests::raisedInputError([&] {
            build(BadCellPolicy::Fail, warnings, {"batch", "act"});
        });
        QCOMPARE(error.line(), 4);
        QCOMPARE(error.column(), 5);
        QVERIFY2(error.message().find("'inf' is not a finite number") == 0, error.what());
    }

    void dropPolicyKeepsCleanRowsAndSaysSo()
    {
        std::vector<std::string> warnings;
        const Dataset dataset = build(BadCellPolicy::DropRow, warnings);
        QCOMPARE(dataset.rowCount(), std::size_t(2));
        QCOMPARE(dataset.droppedRowCount(), std::size_t(4));
        QCOMPARE(dataset.rowLines(), (std::vector<std::int64_t>{2, 5}));
        QCOMPARE(warnings.size(), std::size_t(1));
        QVERIFY2(warnings[0].find("left out 4 of 6 rows") == 0, warnings[0].c_str());
        QVERIFY2(warnings[0].find("jobs.csv:3:2: missing value in column 'batch'") != std::string::npos,
                 warnings[0].c_str());

        QCOMPARE(dataset.targetName(), std::string("memory"));
        QCOMPARE(dataset.target(), (Eigen::VectorXd(2) << 1500, 1800).finished());
        QCOMPARE(dataset.numericFeatureNames(), std::vector<std::string>{"batch"});
        QCOMPARE(dataset.numericFeatures(), (Eigen::MatrixXd(2, 1) << 32, 128).finished());
        QCOMPARE(dataset.categoricalFeatures().size(), std::size_t(1));
        QCOMPARE(dataset.categoricalFeatures()[0].codes, (std::vector<std::int32_t>{0, 1}));
        QVERIFY(dataset.hasSequence());
        QCOMPARE(dataset.sequence().rowCount(), std::size_t(2));
        QCOMPARE(dataset.sequence().layerCount(1), std::size_t(2));
        QCOMPARE(dataset.sequence().field(dataset.sequence().layerBegin(1), 0), 4.0);
    }

    void refusesWhenNoRowIsLeft()
    {
        const auto table = gpumem::data::loadTableFromText("x,y\n1,\n,2\n", "t.csv");
        std::vector<std::string> warnings;
        const auto error = gpumem::tests::raisedInputError(
            [&] { Dataset::fromTable(table, gpumem::data::defaultRoles(table), BadCellPolicy::DropRow, warnings); });
        QVERIFY2(error.message().find("no row is left") != std::string::npos, error.what());
    }

    void parsesPolicyNames()
    {
        QCOMPARE(gpumem::data::parseBadCellPolicy("drop"), BadCellPolicy::DropRow);
        QCOMPARE(gpumem::data::parseBadCellPolicy("fail"), BadCellPolicy::Fail);
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, gpumem::data::parseBadCellPolicy("skip"));
    }
};

QTEST_GUILESS_MAIN(TestDataset)
#include "test_Dataset.moc"
