// SPDX-License-Identifier: GPL-3.0-or-later
// The one bridge from core's observers to Qt signals: progress of any long
// operation (here a real table load and a probe's jobs) reported on a worker
// thread arrives on the GUI thread as queued signals.
#include "UiTestSupport.h"
#include "probe/ProbeRunner.h"
#include "ui/app/ProgressBridge.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <thread>

using gpumem::ui::ProgressBridge;

class TestProgressBridge : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void aTableLoadOnAWorkerThreadReachesTheGuiThread()
    {
        ProgressBridge bridge;
        QThread *const guiThread = QThread::currentThread();
        std::vector<double> fractions;
        bool onGuiThread = true;
        connect(
            &bridge, &ProgressBridge::progressAdvanced, this,
            [&](double fraction) {
                fractions.push_back(fraction);
                onGuiThread = onGuiThread && QThread::currentThread() == guiThread;
            },
            Qt::QueuedConnection);
        std::size_t rows = 0;
        std::thread worker([&] {
            rows = gpumem::data::loadTable(gpumem::tests::testDataPath("jobs_training.csv").toStdString(), {}, &bridge)
                       .rowCount();
        });
        worker.join();
        QTRY_VERIFY(!fractions.empty() && fractions.back() == 1.0);
        QCOMPARE(rows, std::size_t{80});
        QVERIFY(onGuiThread);
        for (std::size_t i = 1; i < fractions.size(); ++i)
            QVERIFY(fractions[i] > fractions[i - 1]);
    }

    void aProbeJobBecomesASignal()
    {
        ProgressBridge bridge;
        QSignalSpy jobs(&bridge, &ProgressBridge::jobCompleted);
        gpumem::probe::ProbeProgress progress;
        progress.done = 2;
        progress.total = 5;
        std::thread worker([&] { static_cast<gpumem::probe::ProbeObserver &>(bridge).jobFinished(progress); });
        worker.join();
        QTRY_COMPARE(jobs.count(), 1);
        QCOMPARE(jobs.at(0).at(0).toULongLong(), 2ULL);
        QCOMPARE(jobs.at(0).at(1).toULongLong(), 5ULL);
    }
};

QTEST_GUILESS_MAIN(TestProgressBridge)
#include "test_ProgressBridge.moc"
