// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/Trainer.h"

#include "data/SeededRandom.h"
#include "runtime/Stopwatch.h"
#include "training/KernelThreads.h"
#include "training/LearningRateSchedule.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace gpumem::training {

namespace {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(torch::nn::Module &model, const TrainerSettings &settings)
{
    if (settings.optimizer == "adam")
        return std::make_unique<torch::optim::Adam>(
            model.parameters(), torch::optim::AdamOptions(settings.learningRate).weight_decay(settings.weightDecay));
    return std::make_unique<torch::optim::AdamW>(
        model.parameters(), torch::optim::AdamWOptions(settings.learningRate).weight_decay(settings.weightDecay));
}

void setLearningRate(torch::optim::Optimizer &optimizer, double rate)
{
    for (auto &group : optimizer.param_groups())
        group.options().set_lr(rate);
}

// At most count of rows, evenly spaced, in their order; all of them when they are fewer.
// Fixed for a training, so that its epochs' errors compare, and drawing nothing from the
// random generators, so that the training is the same with or without it.
std::vector<Eigen::Index> evenSample(const std::vector<Eigen::Index> &rows, std::size_t count)
{
    if (rows.size() <= count)
        return rows;
    std::vector<Eigen::Index> sample;
    sample.reserve(count);
    for (std::size_t index = 0; index < count; ++index)
        sample.push_back(rows[index * rows.size() / count]);
    return sample;
}

// A copy of every parameter and buffer, to restore the best epoch's weights.
// Taking one costs a copy of the weights: small next to an epoch.
class WeightSnapshot
{
  public:
    void take(const torch::nn::Module &model)
    {
        torch::NoGradGuard noGradients;
        mTensors.clear();
        for (const auto &item : model.named_parameters())
            mTensors[item.key()] = item.value().detach().clone();
        for (const auto &item : model.named_buffers())
            mTensors[item.key()] = item.value().detach().clone();
    }

    void restore(torch::nn::Module &model) const
    {
        if (mTensors.empty())
            return;
        torch::NoGradGuard noGradients;
        for (auto &item : model.named_parameters())
            item.value().copy_(mTensors.at(item.key()));
        for (auto &item : model.named_buffers())
            item.value().copy_(mTensors.at(item.key()));
    }

  private:
    std::map<std::string, torch::Tensor> mTensors;
};

double meanLoss(torch::nn::Module &model, const std::vector<Eigen::Index> &rows, std::int64_t batchSize,
                const BatchLoss &loss)
{
    torch::NoGradGuard noGradients;
    model.eval();
    double total = 0.0;
    for (std::size_t begin = 0; begin < rows.size(); begin += static_cast<std::size_t>(batchSize)) {
        const std::size_t end = std::min(rows.size(), begin + static_cast<std::size_t>(batchSize));
        const std::vector<Eigen::Index> batch(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                                              rows.begin() + static_cast<std::ptrdiff_t>(end));
        total += loss(batch).item<double>() * static_cast<double>(batch.size());
    }
    model.train();
    return total / static_cast<double>(rows.size());
}

// How many shares a batch of rows is split into: one per worker, but at least
// 8 rows each.
std::size_t shareCount(std::size_t rows, int workers)
{
    return static_cast<std::size_t>(
        std::clamp<std::int64_t>(std::min<std::int64_t>(workers, static_cast<std::int64_t>(rows) / 8), 1, 64));
}

// The helper threads of one training, started once and reused for every batch,
// so that share k of every batch runs on the same thread with the same kernel
// thread count. (Fresh threads per batch each had to set up LibTorch's thread
// count again, and that set-up could pick up another fit's count; see
// KernelThreadsGuard.)
class ShareWorkers
{
  public:
    explicit ShareWorkers(std::size_t helpers)
    {
        for (std::size_t share = 1; share <= helpers; ++share)
            mThreads.emplace_back([this, share] { serve(share); });
    }

    ~ShareWorkers()
    {
        {
            const std::lock_guard lock(mMutex);
            mStopping = true;
        }
        mWake.notify_all();
        for (auto &thread : mThreads)
            thread.join();
    }

    ShareWorkers(const ShareWorkers &) = delete;
    ShareWorkers &operator=(const ShareWorkers &) = delete;

    // Runs task(0) on the calling thread and task(1) … task(shares - 1) on the
    // helpers, waits for all, and returns the results in share order. Rethrows
    // the exception of the lowest share that threw.
    std::vector<double> run(std::size_t shares, const std::function<double(std::size_t)> &task)
    {
        {
            const std::lock_guard lock(mMutex);
            mTask = &task;
            mShares = shares;
            mResults.assign(shares, 0.0);
            mErrors.assign(shares, nullptr);
            mPending = shares - 1;
            ++mGeneration;
        }
        mWake.notify_all();
        double first = 0.0;
        std::exception_ptr firstError;
        try {
            first = task(0);
        } catch (...) {
            firstError = std::current_exception();
        }
        std::unique_lock lock(mMutex);
        mDone.wait(lock, [this] { return mPending == 0; });
        mResults[0] = first;
        mErrors[0] = firstError;
        for (const auto &error : mErrors)
            if (error)
                std::rethrow_exception(error);
        return mResults;
    }

  private:
    void serve(std::size_t share)
    {
        // Kernels stay single-threaded: the workers are the parallelism.
        const KernelThreadsGuard singleThreaded(1);
        std::uint64_t seen = 0;
        std::unique_lock lock(mMutex);
        for (;;) {
            mWake.wait(lock, [&] { return mStopping || mGeneration != seen; });
            if (mStopping)
                return;
            seen = mGeneration;
            if (share >= mShares)
                continue; // a small batch needs fewer shares
            const std::function<double(std::size_t)> &task = *mTask;
            lock.unlock();
            double value = 0.0;
            std::exception_ptr error;
            try {
                value = task(share);
            } catch (...) {
                error = std::current_exception();
            }
            lock.lock();
            mResults[share] = value;
            mErrors[share] = error;
            if (--mPending == 0)
                mDone.notify_all();
        }
    }

    std::vector<std::thread> mThreads;
    std::mutex mMutex; // guards every member below
    std::condition_variable mWake;
    std::condition_variable mDone;
    bool mStopping = false;
    std::uint64_t mGeneration = 0; // counts the batches handed out
    const std::function<double(std::size_t)> *mTask = nullptr;
    std::size_t mShares = 0;
    std::size_t mPending = 0; // helpers still running the current batch
    std::vector<double> mResults;
    std::vector<std::exception_ptr> mErrors;
};

// Runs the forward and backward passes of rows, split into shares across the
// workers, and returns the batch's mean loss. Each share's loss is weighted by
// its share of the rows, so the gradients add up to those of the whole batch.
// The losses add up in share order; the gradients add up in the order the shares
// finish, which for two shares gives the same sum either way (float addition
// commutes), so training stays bit-reproducible; with more, the last bits may
// depend on timing.
double accumulateGradients(const std::vector<Eigen::Index> &rows, int workers, ShareWorkers *helpers,
                           const BatchLoss &loss)
{
    const std::size_t shares = helpers ? shareCount(rows.size(), workers) : 1;
    const auto run = [&](std::size_t share) {
        const std::size_t begin = rows.size() * share / shares;
        const std::size_t end = rows.size() * (share + 1) / shares;
        const std::vector<Eigen::Index> part(rows.begin() + static_cast<std::ptrdiff_t>(begin),
                                             rows.begin() + static_cast<std::ptrdiff_t>(end));
        const double weight = static_cast<double>(part.size()) / static_cast<double>(rows.size());
        const torch::Tensor partLoss = loss(part) * weight;
        const double value = partLoss.item<double>();
        if (std::isfinite(value))
            partLoss.backward();
        return value;
    };
    if (shares == 1)
        return run(0);
    double total = 0.0;
    for (double value : helpers->run(shares, run))
        total += value;
    return total;
}

// One training of a model: the state carried from batch to batch and epoch to
// epoch, the batches of an epoch, and what is judged at each epoch's end.
class TrainingLoop
{
  public:
    TrainingLoop(torch::nn::Module &model, const TrainerSettings &settings,
                 const std::vector<Eigen::Index> &trainingRows, const std::vector<Eigen::Index> &validationRows,
                 const BatchLoss &loss, TrainingObserver *observer, OperationControl *control,
                 TrainingCheckpoint *checkpoint)
        : mModel(model)
        , mSettings(settings)
        , mTrainingRows(trainingRows)
        , mValidationRows(validationRows)
        , mLoss(loss)
        , mObserver(observer)
        , mControl(control)
        , mCheckpoint(checkpoint)
        , mBatchSize(std::max<std::int64_t>(1, settings.batchSize))
        , mRowCount(static_cast<std::int64_t>(trainingRows.size()))
        , mBatches((mRowCount + mBatchSize - 1) / mBatchSize)
        , mTotalSteps(std::max<std::int64_t>(1, mBatches * settings.epochs))
        , mOptimizer(makeOptimizer(model, settings))
        , mSchedule(settings.schedule, settings.learningRate, mTotalSteps, settings.warmupFraction)
    {
        mResult.validationRows = validationRows;
        mTrainingRmseRows = evenSample(trainingRows, maxTrainingRmseRows);
        // With workers, every thread of this training computes with one kernel
        // thread, whatever other threads (parallel fits) set meanwhile.
        const std::size_t maxShares =
            shareCount(std::min(trainingRows.size(), static_cast<std::size_t>(mBatchSize)), settings.workers);
        if (maxShares > 1) {
            mSingleThreaded.emplace(1);
            mHelpers = std::make_unique<ShareWorkers>(maxShares - 1);
        }
        if (checkpoint && checkpoint->holdsTraining()) {
            restoreOptimizerState(*mOptimizer, model, checkpoint->optimizerState);
            mSchedule.restore(checkpoint->schedule);
            mStep = checkpoint->step;
            mBestLoss = checkpoint->bestLoss;
            mEpochsWithoutImprovement = checkpoint->epochsWithoutImprovement;
            mFirstEpoch = checkpoint->epochsDone + 1;
            mResult.bestEpoch = checkpoint->epochsDone;
            mBest.take(model); // what a continued run that never improves gives back
            mBestCheckpoint = *checkpoint;
        }
        mFirstStep = mStep;
    }

    TrainingResult run()
    {
        mModel.train();
        for (int epoch = mFirstEpoch; epoch <= mSettings.epochs; ++epoch)
            if (!trainEpoch(epoch) || !finishEpoch(epoch))
                break;
        // Keep the best validated weights; without validation the last finished epoch's,
        // which after a NaN are the last weights known to be sound, and after a stop the
        // last the user watched finish: a stop keeps the best epoch so far, as an early
        // stop does, rather than weights from inside an epoch.
        const bool cancelled = mResult.stopReason == StopReason::Cancelled;
        if (!mValidationRows.empty() || mResult.stopReason == StopReason::NotFinite ||
            (cancelled && mResult.bestEpoch > 0))
            mBest.restore(mModel);
        if (mResult.stopReason == StopReason::Completed)
            mResult.message = "trained " + std::to_string(mSettings.epochs) + " epochs";
        if (cancelled && mResult.bestEpoch > 0)
            mResult.message += "; kept the weights of epoch " + std::to_string(mResult.bestEpoch) + ", the best so far";
        // Stopped inside the first epoch, the weights are of no epoch, which no checkpoint describes.
        if (cancelled && mResult.bestEpoch == 0)
            mBestCheckpoint = {};
        if (mCheckpoint)
            *mCheckpoint = std::move(mBestCheckpoint);
        mModel.eval();
        mResult.seconds = trainingSeconds();
        return std::move(mResult);
    }

  private:
    // Time spent paused is no training: speed, elapsed time and ETA leave it out.
    double trainingSeconds() const { return mTime.seconds() - mPausedSeconds; }

    // The epoch's batches; false when the training stops inside it (cancelled, not finite).
    bool trainEpoch(int epoch)
    {
        // A fresh permutation per epoch, fixed by seed and epoch, the same on every platform.
        const auto order = data::shuffledRows(mRowCount, mSettings.seed + static_cast<std::uint64_t>(epoch));
        mEpochLoss = 0.0;
        for (std::int64_t batch = 0; batch < mBatches; ++batch) {
            const runtime::Stopwatch wait;
            const bool goOn = !mControl || mControl->waitWhilePaused();
            mPausedSeconds += wait.seconds();
            if (!goOn) {
                mResult.stopReason = StopReason::Cancelled;
                mResult.message = "training cancelled in epoch " + std::to_string(epoch);
                return false;
            }
            std::vector<Eigen::Index> rows;
            for (std::int64_t i = batch * mBatchSize; i < std::min(mRowCount, (batch + 1) * mBatchSize); ++i)
                rows.push_back(mTrainingRows[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])]);

            const double rate = mSchedule.rate(mStep);
            setLearningRate(*mOptimizer, rate);
            mOptimizer->zero_grad();
            const double lossValue = accumulateGradients(rows, mSettings.workers, mHelpers.get(), mLoss);
            if (!std::isfinite(lossValue)) {
                mResult.stopReason = StopReason::NotFinite;
                mResult.message = "the training loss became " +
                                  std::string(std::isnan(lossValue) ? "NaN" : "infinite") + " in epoch " +
                                  std::to_string(epoch) + "; try a lower learning_rate or gradient_clip";
                return false;
            }
            if (mSettings.gradientClip > 0.0)
                torch::nn::utils::clip_grad_norm_(mModel.parameters(), mSettings.gradientClip);
            mOptimizer->step();
            ++mStep;
            mSamplesSeen += static_cast<std::int64_t>(rows.size());
            mEpochLoss += lossValue * static_cast<double>(rows.size());
            if (mObserver)
                reportBatch(epoch, batch, lossValue, rate);
        }
        return true;
    }

    void reportBatch(int epoch, std::int64_t batch, double lossValue, double rate) const
    {
        BatchProgress progress;
        progress.epoch = epoch;
        progress.epochs = mSettings.epochs;
        progress.batch = batch + 1;
        progress.batches = mBatches;
        progress.trainLoss = lossValue;
        progress.learningRate = rate;
        progress.elapsedSeconds = trainingSeconds();
        progress.samplesPerSecond = static_cast<double>(mSamplesSeen) / progress.elapsedSeconds;
        progress.remainingSeconds = progress.elapsedSeconds * static_cast<double>(mTotalSteps - mStep) /
                                    static_cast<double>(mStep - mFirstStep);
        mObserver->batchFinished(progress);
    }

    // Validates, keeps the best weights and reports; false when the training stops early.
    bool finishEpoch(int epoch)
    {
        EpochProgress progress;
        progress.epoch = epoch;
        progress.epochs = mSettings.epochs;
        progress.trainLoss = mEpochLoss / static_cast<double>(mRowCount);
        progress.learningRate = mSchedule.rate(std::max<std::int64_t>(mStep - 1, 0));
        if (!mValidationRows.empty()) {
            progress.validationLoss = meanLoss(mModel, mValidationRows, mBatchSize, mLoss);
            mSchedule.epochFinished(progress.validationLoss);
        }
        if (mSettings.targetRmse) {
            // Both errors from the weights at the epoch's end, as the validation loss is, and in
            // the same units: the epoch's mean training loss was taken while the weights moved.
            torch::NoGradGuard noGradients;
            mModel.eval();
            if (!mValidationRows.empty())
                progress.validationRmse = mSettings.targetRmse(mValidationRows);
            if (!mTrainingRmseRows.empty())
                progress.trainRmse = mSettings.targetRmse(mTrainingRmseRows);
            mModel.train();
        }
        const double judged = mValidationRows.empty() ? progress.trainLoss : progress.validationLoss;
        progress.best = std::isfinite(judged) && (mValidationRows.empty() || judged < mBestLoss);
        if (progress.best) {
            mBestLoss = judged;
            mResult.bestEpoch = epoch;
            mEpochsWithoutImprovement = 0;
            mBest.take(mModel);
            if (mCheckpoint)
                mBestCheckpoint = {
                    epoch, mStep, mBestLoss, 0, mSchedule.memory(), captureOptimizerState(*mOptimizer, mModel)};
        } else {
            ++mEpochsWithoutImprovement;
        }
        progress.elapsedSeconds = trainingSeconds();
        progress.samplesPerSecond = static_cast<double>(mSamplesSeen) / progress.elapsedSeconds;
        progress.remainingSeconds = progress.elapsedSeconds * static_cast<double>(mSettings.epochs - epoch) /
                                    static_cast<double>(epoch - mFirstEpoch + 1);
        mResult.epochs.push_back(progress);
        if (mObserver)
            mObserver->epochFinished(progress);
        if (mSettings.patience > 0 && mEpochsWithoutImprovement >= mSettings.patience) {
            mResult.stopReason = StopReason::EarlyStopped;
            mResult.message = "stopped early after epoch " + std::to_string(epoch) +
                              ": no better validation loss for " + std::to_string(mSettings.patience) + " epochs";
            return false;
        }
        return true;
    }

    torch::nn::Module &mModel;
    const TrainerSettings &mSettings;
    const std::vector<Eigen::Index> &mTrainingRows;
    const std::vector<Eigen::Index> &mValidationRows;
    std::vector<Eigen::Index> mTrainingRmseRows; // the training rows whose RMSE each epoch reports
    const BatchLoss &mLoss;
    TrainingObserver *mObserver;
    OperationControl *mControl;
    TrainingCheckpoint *mCheckpoint;
    const runtime::Stopwatch mTime;
    const std::int64_t mBatchSize;
    const std::int64_t mRowCount;
    const std::int64_t mBatches;
    const std::int64_t mTotalSteps;
    std::unique_ptr<torch::optim::Optimizer> mOptimizer;
    std::optional<KernelThreadsGuard> mSingleThreaded;
    std::unique_ptr<ShareWorkers> mHelpers;
    LearningRateSchedule mSchedule;
    TrainingResult mResult;
    WeightSnapshot mBest;
    TrainingCheckpoint mBestCheckpoint;
    double mBestLoss = std::numeric_limits<double>::infinity();
    int mEpochsWithoutImprovement = 0;
    std::int64_t mStep = 0;
    std::int64_t mFirstStep = 0;
    std::int64_t mSamplesSeen = 0;
    double mPausedSeconds = 0.0;
    double mEpochLoss = 0.0;
    int mFirstEpoch = 1;
};

} // namespace

TrainingResult trainModel(torch::nn::Module &model, const TrainerSettings &settings,
                          const std::vector<Eigen::Index> &trainingRows,
                          const std::vector<Eigen::Index> &validationRows, const BatchLoss &loss,
                          TrainingObserver *observer, OperationControl *control, TrainingCheckpoint *checkpoint)
{
    return TrainingLoop(model, settings, trainingRows, validationRows, loss, observer, control, checkpoint).run();
}

} // namespace gpumem::training
