#include "training/Trainer.h"

#include "data/SeededRandom.h"
#include "training/LearningRateSchedule.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <map>

namespace gpumem::training {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

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

// Runs the forward and backward passes of rows, split across workers threads,
// and returns the batch's mean loss. Each share's loss is weighted by its share of
// the rows, so the gradients add up to those of the whole batch. With two shares the
// sum is the same whichever finishes first (float addition commutes), so training
// stays bit-reproducible; with more, the last bits may depend on timing.
double accumulateGradients(const std::vector<Eigen::Index> &rows, int workers, const BatchLoss &loss)
{
    const auto shares = static_cast<std::size_t>(
        std::clamp<std::int64_t>(std::min<std::int64_t>(workers, static_cast<std::int64_t>(rows.size()) / 8), 1, 64));
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
    std::vector<std::future<double>> helpers;
    for (std::size_t share = 1; share < shares; ++share)
        helpers.push_back(std::async(std::launch::async, [&run, share] {
            // Kernels stay single-threaded: the workers are the parallelism. (The OpenMP
            // thread count is per thread, so a new thread must be told.)
            at::set_num_threads(1);
            return run(share);
        }));
    double total = run(0);
    for (auto &helper : helpers)
        total += helper.get();
    return total;
}

} // namespace

TrainingResult trainModel(torch::nn::Module &model, const TrainerSettings &settings,
                          const std::vector<Eigen::Index> &trainingRows,
                          const std::vector<Eigen::Index> &validationRows, const BatchLoss &loss,
                          TrainingObserver *observer, TrainingControl *control)
{
    TrainingResult result;
    const auto start = Clock::now();
    const auto batchSize = std::max<std::int64_t>(1, settings.batchSize);
    const auto rowCount = static_cast<std::int64_t>(trainingRows.size());
    const std::int64_t batches = (rowCount + batchSize - 1) / batchSize;
    const std::int64_t totalSteps = std::max<std::int64_t>(1, batches * settings.epochs);
    auto optimizer = makeOptimizer(model, settings);
    LearningRateSchedule schedule(settings.schedule, settings.learningRate, totalSteps, settings.warmupFraction);
    WeightSnapshot best;
    double bestLoss = std::numeric_limits<double>::infinity();
    int epochsWithoutImprovement = 0;
    std::int64_t step = 0;
    std::int64_t samplesSeen = 0;
    model.train();

    for (int epoch = 1; epoch <= settings.epochs; ++epoch) {
        // A fresh permutation per epoch, fixed by seed and epoch, the same on every platform.
        const auto order = data::shuffledRows(rowCount, settings.seed + static_cast<std::uint64_t>(epoch));
        double epochLoss = 0.0;
        for (std::int64_t batch = 0; batch < batches; ++batch) {
            if (control && !control->waitWhilePaused()) {
                result.stopReason = StopReason::Cancelled;
                result.message = "training cancelled in epoch " + std::to_string(epoch);
                break;
            }
            std::vector<Eigen::Index> rows;
            for (std::int64_t i = batch * batchSize; i < std::min(rowCount, (batch + 1) * batchSize); ++i)
                rows.push_back(trainingRows[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])]);

            const double rate = schedule.rate(step);
            setLearningRate(*optimizer, rate);
            optimizer->zero_grad();
            const double lossValue = accumulateGradients(rows, settings.workers, loss);
            if (!std::isfinite(lossValue)) {
                result.stopReason = StopReason::NotFinite;
                result.message = "the training loss became " + std::string(std::isnan(lossValue) ? "NaN" : "infinite") +
                                 " in epoch " + std::to_string(epoch) + "; try a lower learning_rate or gradient_clip";
                break;
            }
            if (settings.gradientClip > 0.0)
                torch::nn::utils::clip_grad_norm_(model.parameters(), settings.gradientClip);
            optimizer->step();
            ++step;
            samplesSeen += static_cast<std::int64_t>(rows.size());
            epochLoss += lossValue * static_cast<double>(rows.size());

            if (observer) {
                BatchProgress progress;
                progress.epoch = epoch;
                progress.epochs = settings.epochs;
                progress.batch = batch + 1;
                progress.batches = batches;
                progress.trainLoss = lossValue;
                progress.learningRate = rate;
                progress.elapsedSeconds = secondsSince(start);
                progress.samplesPerSecond = static_cast<double>(samplesSeen) / progress.elapsedSeconds;
                progress.remainingSeconds =
                    progress.elapsedSeconds * static_cast<double>(totalSteps - step) / static_cast<double>(step);
                observer->batchFinished(progress);
            }
        }
        if (result.stopReason != StopReason::Completed)
            break;

        EpochProgress progress;
        progress.epoch = epoch;
        progress.epochs = settings.epochs;
        progress.trainLoss = epochLoss / static_cast<double>(rowCount);
        progress.learningRate = schedule.rate(std::max<std::int64_t>(step - 1, 0));
        if (!validationRows.empty()) {
            progress.validationLoss = meanLoss(model, validationRows, batchSize, loss);
            schedule.epochFinished(progress.validationLoss);
        }
        const double judged = validationRows.empty() ? progress.trainLoss : progress.validationLoss;
        progress.best = std::isfinite(judged) && (validationRows.empty() || judged < bestLoss);
        if (progress.best) {
            bestLoss = judged;
            result.bestEpoch = epoch;
            epochsWithoutImprovement = 0;
            best.take(model);
        } else {
            ++epochsWithoutImprovement;
        }
        progress.elapsedSeconds = secondsSince(start);
        progress.samplesPerSecond = static_cast<double>(samplesSeen) / progress.elapsedSeconds;
        progress.remainingSeconds =
            progress.elapsedSeconds * static_cast<double>(settings.epochs - epoch) / static_cast<double>(epoch);
        result.epochs.push_back(progress);
        if (observer)
            observer->epochFinished(progress);
        if (settings.patience > 0 && epochsWithoutImprovement >= settings.patience) {
            result.stopReason = StopReason::EarlyStopped;
            result.message = "stopped early after epoch " + std::to_string(epoch) + ": no better validation loss for " +
                             std::to_string(settings.patience) + " epochs";
            break;
        }
    }

    // Keep the best validated weights; without validation the last finished epoch's,
    // which after a NaN are the last weights known to be sound.
    if (!validationRows.empty() || result.stopReason == StopReason::NotFinite)
        best.restore(model);
    if (result.stopReason == StopReason::Completed)
        result.message = "trained " + std::to_string(settings.epochs) + " epochs";
    model.eval();
    result.seconds = secondsSince(start);
    return result;
}

} // namespace gpumem::training
