// SPDX-License-Identifier: GPL-3.0-or-later
// The data workflow: one request selects a file's data the same way for every
// command and page; the expected values below are worked out by hand from the table.
#include "RaisedInputError.h"
#include "io/InputError.h"
#include "workflows/DataWorkflow.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace gpumem;

namespace {

// Line 4 misses its batch; every other cell is valid. The target is the last
// column, so that no column after it can look measured with it.
const std::string jobs = "host,batch,optimizer,net,peak_mib\n"
                         "n1,8,adam,\"[('linear', 2, 10)]\",1000\n"                 // line 2
                         "n2,16,sgd,\"[('linear', 3, 10)]\",2000\n"                 // line 3
                         "n3,,adam,\"[('linear', 4, 10)]\",1500\n"                  // line 4
                         "n4,32,sgd,\"[('linear', 5, 10), ('ReLU', 5, 0)]\",4000\n" // line 5
                         "n5,64,adam,\"[('linear', 6, 10)]\",7000\n";               // line 6

std::string writeFile(const QTemporaryDir &folder, const std::string &name, const std::string &text)
{
    const std::string path = folder.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

workflows::DataRequest jobsRequest(const std::string &path)
{
    workflows::DataRequest request;
    request.path = path;
    request.target = "peak_mib";
    request.features = {"batch", "optimizer"};
    request.ignored = {"host"};
    request.sequenceColumn = "net";
    request.badCells = data::BadCellPolicy::DropRow;
    return request;
}

bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestDataWorkflow : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void selectsTheRequestedColumnsAndTheUsableRows()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const std::string path = writeFile(folder, "jobs.csv", jobs);
        const workflows::DataSelection selected = workflows::selectData(jobsRequest(path));

        QVERIFY(selected.table);
        QCOMPARE(selected.table->rowCount(), std::size_t{5});
        using data::ColumnRole;
        QVERIFY(selected.roles ==
                (std::vector<ColumnRole>{ColumnRole::Ignored, ColumnRole::Feature, ColumnRole::Feature,
                                         ColumnRole::Sequence, ColumnRole::Target}));
        // The row of line 4 is dropped: table rows 0, 1, 3 and 4 remain.
        QCOMPARE(selected.usableRows, (std::vector<std::size_t>{0, 1, 3, 4}));
        QCOMPARE(selected.warnings.size(), std::size_t{1});
        QVERIFY2(selected.warnings[0].find("left out 1 of 5 rows") == 0, selected.warnings[0].c_str());
        QVERIFY2(contains(selected.warnings[0], ":4:2: missing value in column 'batch'"), selected.warnings[0].c_str());
        QVERIFY(selected.likelyOutcomes.empty());

        QVERIFY(selected.dataset);
        const data::Dataset &dataset = *selected.dataset;
        QCOMPARE(dataset.rowCount(), std::size_t{4});
        QCOMPARE(dataset.rowLines(), (std::vector<std::int64_t>{2, 3, 5, 6}));
        QCOMPARE(dataset.targetName(), std::string("peak_mib"));
        QCOMPARE(dataset.target(), (Eigen::VectorXd(4) << 1000, 2000, 4000, 7000).finished());
        QCOMPARE(dataset.numericFeatureNames(), std::vector<std::string>{"batch"});
        QCOMPARE(dataset.numericFeatures(), (Eigen::MatrixXd(4, 1) << 8, 16, 32, 64).finished());
        QCOMPARE(dataset.categoricalFeatures().size(), std::size_t{1});
        QCOMPARE(dataset.categoricalFeatures()[0].name, std::string("optimizer"));
        QCOMPARE(dataset.sequenceName(), std::string("net"));
        QCOMPARE(dataset.sequence().layerCount(2), std::size_t{2});
    }

    // What `gpumem inspect` shows: the same selection, without building a dataset.
    void inspectingBuildsNoDataset()
    {
        QTemporaryDir folder;
        const std::string path = writeFile(folder, "jobs.csv", jobs);
        const workflows::DataSelection inspected = workflows::inspectData(jobsRequest(path));
        QVERIFY(!inspected.dataset);
        QCOMPARE(inspected.usableRows, (std::vector<std::size_t>{0, 1, 3, 4}));
        QCOMPARE(inspected.warnings.size(), std::size_t{1});
    }

    void theFailPolicyNamesTheBadCell()
    {
        QTemporaryDir folder;
        const std::string path = writeFile(folder, "jobs.csv", jobs);
        workflows::DataRequest request = jobsRequest(path);
        request.badCells = data::BadCellPolicy::Fail;
        const io::InputError error = tests::raisedInputError([&] { workflows::selectData(request); });
        QCOMPARE(error.file(), path);
        QCOMPARE(error.line(), 4);
        QCOMPARE(error.column(), 2);
        QVERIFY2(contains(error.message(), "missing value in column 'batch'"), error.what());
    }

    void anUnknownTargetNamesTheParameter()
    {
        QTemporaryDir folder;
        const std::string path = writeFile(folder, "jobs.csv", jobs);
        workflows::DataRequest request = jobsRequest(path);
        request.target = "memory";
        const io::InputError error = tests::raisedInputError([&] { workflows::selectData(request); });
        QCOMPARE(error.file(), path);
        QVERIFY2(contains(error.message(), "target names no column 'memory'"), error.what());
        QVERIFY2(contains(error.message(), "the columns are: host, batch, optimizer, net, peak_mib"), error.what());
    }

    // The workbench's path: a table already loaded, the roles it shows, and the policy.
    void aLoadedTableGivesTheSameSelection()
    {
        QTemporaryDir folder;
        const std::string path = writeFile(folder, "jobs.csv", jobs);
        const workflows::DataSelection fromFile = workflows::selectData(jobsRequest(path));
        const data::RoleRequest roles = workflows::roleRequestOf(*fromFile.table, fromFile.roles);
        QCOMPARE(roles.target, std::string("peak_mib"));
        QCOMPARE(roles.features, (std::vector<std::string>{"batch", "optimizer"}));
        QCOMPARE(roles.ignored, std::vector<std::string>{"host"});
        QCOMPARE(roles.sequenceColumn, std::string("net"));

        const workflows::DataSelection fromTable =
            workflows::selectData(fromFile.table, roles, data::BadCellPolicy::DropRow);
        QVERIFY(fromTable.roles == fromFile.roles);
        QCOMPARE(fromTable.usableRows, fromFile.usableRows);
        QCOMPARE(fromTable.dataset->target(), fromFile.dataset->target());
        QCOMPARE(fromTable.warnings, fromFile.warnings);
    }

    void readsTheTextAsRequested()
    {
        QTemporaryDir folder;
        const std::string path = writeFile(folder, "semicolons.txt", "size;peak\n1,5;10\n2,5;20\n4,0;40\n");
        workflows::DataRequest request;
        request.path = path;
        request.delimiter = ';';
        request.decimalComma = true;
        request.target = "peak";
        const workflows::DataSelection selected = workflows::selectData(request);
        QCOMPARE(selected.table->delimiter(), ';');
        QCOMPARE(selected.dataset->numericFeatures(), (Eigen::MatrixXd(3, 1) << 1.5, 2.5, 4.0).finished());
    }
};

QTEST_GUILESS_MAIN(TestDataWorkflow)
#include "test_DataWorkflow.moc"
