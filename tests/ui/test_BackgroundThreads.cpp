// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 51: background work leaves Qt's own threads and the GUI's priority alone, so that
// painting never waits behind a long job (bench/load_stall.sh measures the window).
#include "ui/app/BackgroundTask.h"
#include "ui/app/BackgroundThreads.h"

#include <QImage>
#include <QPainter>
#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

struct ThreadOutcome
{
    QThread *thread = nullptr;
    int niceness = 0;
    QString error;
};

} // namespace

class TestBackgroundThreads : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void backgroundWorkRunsNicelyOnItsOwnPool()
    {
        QVERIFY(gpumem::ui::backgroundThreadPool() != QThreadPool::globalInstance());
        QFuture<ThreadOutcome> future = gpumem::ui::runInBackground<ThreadOutcome>([](ThreadOutcome &outcome) {
            outcome.thread = QThread::currentThread();
            outcome.niceness = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
        });
        const ThreadOutcome outcome = future.result();
        QVERIFY(outcome.thread != QThread::currentThread());
        QVERIFY(outcome.niceness >= gpumem::ui::backgroundNiceness);
        // The GUI thread keeps its own priority.
        QVERIFY(getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))) < gpumem::ui::backgroundNiceness);
    }

    void qtWaitsForItsGlobalPool()
    {
#if QT_VERSION >= QT_VERSION_CHECK(6, 6, 0)
        QSKIP("Qt 6.6 and later convert images on a thread pool of their own");
#else
        // Why the workbench keeps off Qt's global pool: a large image conversion on the
        // GUI thread waits until that pool's busy threads let go (here after 1.5 s).
        QThreadPool *global = QThreadPool::globalInstance();
        const int threads = global->maxThreadCount();
        for (int i = 0; i < threads; ++i)
            global->start([] { QThread::msleep(1500); });
        QThread::msleep(50); // every pool thread asleep in its task
        QImage image(2048, 2048, QImage::Format_ARGB32);
        image.fill(Qt::red);
        QElapsedTimer clock;
        clock.start();
        const QImage converted = image.convertToFormat(QImage::Format_RGB888);
        const qint64 elapsed = clock.elapsed();
        global->waitForDone();
        QCOMPARE(converted.size(), image.size());
        QVERIFY2(elapsed >= 1000, qPrintable(QStringLiteral("%1 ms").arg(elapsed)));
#endif
    }

    void paintingDoesNotWaitForBusyWorkers()
    {
        // Every background thread busy until released, as a comparison keeps them.
        const int threads = gpumem::ui::backgroundThreadPool()->maxThreadCount();
        QSemaphore release;
        QList<QFuture<ThreadOutcome>> busy;
        for (int i = 0; i < threads; ++i)
            busy << gpumem::ui::runInBackground<ThreadOutcome>([&release](ThreadOutcome &) { release.acquire(); });
        // A large image converted and scaled: Qt 6.4 splits this over its global pool and waits.
        QImage image(2048, 2048, QImage::Format_ARGB32);
        image.fill(Qt::red);
        QElapsedTimer clock;
        clock.start();
        const QImage converted = image.convertToFormat(QImage::Format_RGB888)
                                     .scaled(1500, 1500, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        const qint64 elapsed = clock.elapsed();
        release.release(threads);
        for (auto &future : busy)
            future.waitForFinished();
        QCOMPARE(converted.size(), QSize(1500, 1500));
        // Behind the busy workers it would wait until one was released: never, here.
        QVERIFY2(elapsed < 5000, qPrintable(QStringLiteral("%1 ms").arg(elapsed)));
    }
};

QTEST_MAIN(TestBackgroundThreads)
#include "test_BackgroundThreads.moc"
