// SPDX-License-Identifier: GPL-3.0-or-later
// Watching and stopping a table load: progress in visible steps from 0 to 1 over
// the file's two passes (a runtime::ProgressObserver), and an OperationControl
// whose cancel stops it with LoadCancelled.
#include "data/TableLoader.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

using namespace gpumem;

namespace {

std::string writeJobs(const QTemporaryDir &dir, int rows)
{
    const std::string path = dir.filePath(QStringLiteral("jobs.csv")).toStdString();
    std::ofstream out(path);
    out << "batch,optimizer,memory_mib\n";
    for (int row = 0; row < rows; ++row)
        out << (row % 512) << ',' << (row % 2 ? "adam" : "sgd") << ',' << 100 + row % 977 << '\n';
    return path;
}

// Keeps every share a load reports; cancels the load once a share reaches cancelAt.
class ShareLog : public runtime::ProgressObserver
{
  public:
    void progressChanged(double share) override
    {
        shares.push_back(share);
        if (control && share >= cancelAt)
            control->cancel();
    }

    std::vector<double> shares;
    runtime::OperationControl *control = nullptr;
    double cancelAt = 2.0;
};

} // namespace

class TestTableLoadMonitor : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void reportsRisingSharesInVisibleStepsToOne()
    {
        QTemporaryDir dir;
        const std::string path = writeJobs(dir, 20000);
        ShareLog log;
        const data::Table table = data::loadTable(path, {}, &log);
        const std::vector<double> &shares = log.shares;
        QCOMPARE(table.rowCount(), std::size_t{20000});
        QVERIFY(shares.size() >= 50); // two passes of 20,000 rows pass every 1% step
        QVERIFY(shares.size() <= 101);
        QCOMPARE(shares.back(), 1.0);
        // Each report but the closing one moved by a visible step.
        for (std::size_t i = 1; i + 1 < shares.size(); ++i)
            QVERIFY(shares[i] - shares[i - 1] >= 0.01 - 1e-12);
        QVERIFY(shares.back() > shares[shares.size() - 2]);
        // The first pass (types) ends half way.
        QVERIFY(std::any_of(shares.begin(), shares.end(), [](double share) { return share > 0.45 && share < 0.55; }));
    }

    void aSetFlagStopsTheLoad()
    {
        QTemporaryDir dir;
        const std::string path = writeJobs(dir, 100);
        runtime::OperationControl control;
        control.cancel();
        QVERIFY_THROWS_EXCEPTION(data::LoadCancelled, data::loadTable(path, {}, nullptr, &control));
    }

    void aCancelDuringTheSecondPassStopsItThere()
    {
        QTemporaryDir dir;
        const std::string path = writeJobs(dir, 20000);
        runtime::OperationControl control;
        ShareLog log;
        log.control = &control;
        log.cancelAt = 0.75;
        QVERIFY_THROWS_EXCEPTION(data::LoadCancelled, data::loadTable(path, {}, &log, &control));
        QVERIFY(log.shares.back() >= 0.75 && log.shares.back() < 0.8);
    }

    void aFlagLeftClearChangesNothing()
    {
        QTemporaryDir dir;
        const std::string path = writeJobs(dir, 300);
        runtime::OperationControl control;
        const data::Table watched = data::loadTable(path, {}, nullptr, &control);
        const data::Table plain = data::loadTable(path);
        QCOMPARE(watched.rowCount(), plain.rowCount());
        QCOMPARE(watched.column(2).numbers, plain.column(2).numbers);
    }
};

QTEST_GUILESS_MAIN(TestTableLoadMonitor)
#include "test_TableLoadMonitor.moc"
