// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/KernelThreads.h"
#include "training/Trainer.h"

#include <QTest>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

using gpumem::training::KernelThreadsGuard;

namespace {

// Runs first() and then second() on a fresh thread, with between() run on this
// thread in the middle, and returns what second() returned.
int onFreshThread(const std::function<void()> &first, const std::function<void()> &between,
                  const std::function<int()> &second)
{
    std::mutex mutex;
    std::condition_variable changed;
    int stage = 0;
    int result = 0;
    std::thread thread([&] {
        first();
        std::unique_lock lock(mutex);
        stage = 1;
        changed.notify_all();
        changed.wait(lock, [&] { return stage == 2; });
        lock.unlock();
        result = second();
    });
    {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stage == 1; });
    }
    between();
    {
        const std::lock_guard lock(mutex);
        stage = 2;
    }
    changed.notify_all();
    thread.join();
    return result;
}

} // namespace

class TestKernelThreads : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void init() { at::set_num_threads(2); }

    // What the guard exists for: LibTorch sets a thread's count up lazily from
    // the process-wide value, so a count set on a fresh thread is lost when
    // another thread sets its own first.
    void bareSettingOnAFreshThreadIsLost()
    {
        const int seen = onFreshThread([] { at::set_num_threads(1); }, [] { at::set_num_threads(2); },
                                       [] { return at::get_num_threads(); });
        QCOMPARE(seen, 2);
    }

    void guardedCountSurvivesAnotherThreadsSetting()
    {
        std::unique_ptr<KernelThreadsGuard> guard;
        const int seen =
            onFreshThread([&] { guard = std::make_unique<KernelThreadsGuard>(1); }, [] { at::set_num_threads(2); },
                          [&] {
                              const int count = at::get_num_threads();
                              guard.reset();
                              return count;
                          });
        QCOMPARE(seen, 1);
    }

    void guardRestoresThePreviousCount()
    {
        QCOMPARE(at::get_num_threads(), 2);
        {
            const KernelThreadsGuard guard(1);
            QCOMPARE(at::get_num_threads(), 1);
        }
        QCOMPARE(at::get_num_threads(), 2);
        {
            const KernelThreadsGuard unchanged(0);
            QCOMPARE(at::get_num_threads(), 2);
        }
        QCOMPARE(at::get_num_threads(), 2);
    }

    // Regression: with --jobs 2 --threads 2 a comparison's results changed from
    // run to run in the last digits. A training's share workers were fresh
    // threads per batch whose kernel thread count could come from another fit
    // (which sets 1 while it trains and back to 2 after), changing the order of
    // LibTorch's parallel reductions. Here another thread keeps setting 2 while
    // a training with two workers runs: every share must still see one thread.
    void trainingWorkersKeepOneKernelThread()
    {
        torch::manual_seed(3);
        const torch::Tensor inputs = torch::linspace(-1, 1, 256).unsqueeze(1); // [rows, 1]
        const torch::Tensor targets = 2 * inputs.squeeze(1) + 0.5;             // [rows]
        torch::nn::Linear model(1, 1);
        std::vector<Eigen::Index> rows;
        for (Eigen::Index row = 0; row < 256; ++row)
            rows.push_back(row);

        std::mutex mutex;
        std::vector<int> counts; // guarded by mutex
        const gpumem::training::BatchLoss loss = [&](const std::vector<Eigen::Index> &batch) {
            {
                const std::lock_guard lock(mutex);
                counts.push_back(at::get_num_threads());
            }
            const auto index = torch::tensor(std::vector<std::int64_t>(batch.begin(), batch.end()), torch::kInt64);
            return torch::mse_loss(model->forward(inputs.index_select(0, index)).squeeze(1),
                                   targets.index_select(0, index));
        };
        gpumem::training::TrainerSettings settings;
        settings.batchSize = 32;
        settings.epochs = 20;
        settings.schedule = "constant";
        settings.workers = 2;

        std::atomic_bool training{true};
        std::thread disturber([&] {
            const KernelThreadsGuard own(2);
            while (training.load())
                at::set_num_threads(2);
        });
        gpumem::training::trainModel(*model, settings, rows, {}, loss, nullptr, nullptr);
        training.store(false);
        disturber.join();

        QCOMPARE(counts.size(), std::size_t{8 * 20 * 2}); // 8 batches of 2 shares per epoch
        for (int count : counts)
            QCOMPARE(count, 1);
        QCOMPARE(at::get_num_threads(), 2); // the calling thread's count is back
    }
};

QTEST_GUILESS_MAIN(TestKernelThreads)
#include "test_KernelThreads.moc"
