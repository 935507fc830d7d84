// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/AnalyticRegressor.h"

#include "io/InputError.h"
#include "models/ModelFolder.h"
#include "runtime/Stopwatch.h"

#include <cmath>

namespace gpumem::models {

AnalyticRegressor::AnalyticRegressor(Hyperparameters hyperparameters, ComputeSettings compute)
    : RegressorBase(std::move(hyperparameters), std::move(compute))
{
}

Eigen::VectorXd AnalyticRegressor::estimates(const data::Dataset &dataset, const std::vector<Eigen::Index> &rows,
                                             training::TrainingObserver *observer, runtime::OperationControl *control,
                                             bool &cancelled) const
{
    const JobRowReader reader(dataset, name(), hyperparameters().choice("assumed_optimizer"));
    const auto count = static_cast<Eigen::Index>(rows.empty() ? dataset.rowCount() : rows.size());
    Eigen::VectorXd result(count);
    const runtime::Stopwatch time;
    cancelled = false;
    for (Eigen::Index index = 0; index < count; ++index) {
        if (control != nullptr && !control->waitWhilePaused()) {
            cancelled = true;
            return result;
        }
        const auto row = static_cast<std::size_t>(rows.empty() ? index : rows[static_cast<std::size_t>(index)]);
        const JobRow job = reader.row(row);
        try {
            result[index] = estimateMebibytes(job);
        } catch (const io::InputError &error) {
            throw reader.atRow(row, error);
        }
        // About a hundred progress reports per fit, whatever the row count.
        if (observer != nullptr && ((index + 1) % std::max<Eigen::Index>(1, count / 100) == 0 || index + 1 == count)) {
            training::BatchProgress progress;
            progress.epoch = 1;
            progress.epochs = 1;
            progress.batch = index + 1;
            progress.batches = count;
            progress.trainLoss = std::nan("");
            progress.elapsedSeconds = time.seconds();
            progress.samplesPerSecond = progress.elapsedSeconds > 0.0 ? (index + 1) / progress.elapsedSeconds : 0.0;
            progress.remainingSeconds =
                progress.samplesPerSecond > 0.0 ? (count - index - 1) / progress.samplesPerSecond : 0.0;
            observer->batchFinished(progress);
        }
    }
    return result;
}

training::TrainingResult AnalyticRegressor::fitRows(const data::Dataset &dataset,
                                                    const std::vector<Eigen::Index> &trainingRows,
                                                    training::TrainingObserver *observer,
                                                    runtime::OperationControl *control)
{
    const runtime::Stopwatch time;
    training::TrainingResult result;
    bool cancelled = false;
    const Eigen::VectorXd estimate = estimates(dataset, trainingRows, observer, control, cancelled);
    if (cancelled) {
        result.stopReason = training::StopReason::Cancelled;
        result.message = "cancelled";
        return result;
    }
    const Eigen::VectorXd target = dataset.target()(trainingRows);
    const double rows = static_cast<double>(target.size());
    const double meanEstimate = estimate.mean();
    const double meanTarget = target.mean();
    mScale = 1.0;
    if (fitsScale()) {
        // Ordinary least squares of target on the estimate, with an intercept.
        const double variance = (estimate.array() - meanEstimate).square().sum();
        if (variance > 0.0)
            mScale = ((estimate.array() - meanEstimate) * (target.array() - meanTarget)).sum() / variance;
    }
    // The mean residual minimises the squared error for a fixed scale.
    mOffset = meanTarget - mScale * meanEstimate;
    setSchema({dataset.targetName(),
               JobRowReader(dataset, name(), hyperparameters().choice("assumed_optimizer")).columnsUsed()});

    training::EpochProgress epoch;
    epoch.epoch = 1;
    epoch.epochs = 1;
    epoch.trainLoss = (mScale * estimate.array() + mOffset - target.array()).square().sum() / rows;
    epoch.elapsedSeconds = time.seconds();
    epoch.samplesPerSecond = epoch.elapsedSeconds > 0.0 ? rows / epoch.elapsedSeconds : 0.0;
    epoch.best = true;
    if (observer != nullptr)
        observer->epochFinished(epoch);
    result.epochs.push_back(epoch);
    result.bestEpoch = 1;
    char message[160];
    std::snprintf(message, sizeof message, "calibrated: prediction = %.6g × estimate + %.6g MiB", mScale, mOffset);
    result.message = message;
    result.seconds = epoch.elapsedSeconds;
    return result;
}

Eigen::VectorXd AnalyticRegressor::predictFitted(const data::Dataset &dataset) const
{
    bool cancelled = false;
    const Eigen::VectorXd estimate = estimates(dataset, {}, nullptr, nullptr, cancelled);
    return (mScale * estimate.array() + mOffset).matrix();
}

io::Json AnalyticRegressor::fittedState(const std::string &) const
{
    return {{"scale", mScale}, {"offset_mib", mOffset}};
}

void AnalyticRegressor::readFitted(const io::Json &fitted, const io::Json &, const std::string &)
{
    mScale = io::toNumber(io::member(fitted, "scale"));
    mOffset = io::toNumber(io::member(fitted, "offset_mib"));
    if (!std::isfinite(mScale) || !std::isfinite(mOffset))
        throw io::InputError("the fitted scale and offset must be finite numbers");
}

} // namespace gpumem::models
