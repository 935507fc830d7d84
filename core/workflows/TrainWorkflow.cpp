// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/TrainWorkflow.h"

#include "models/RegressorRegistry.h"
#include "training/FitProgressRelay.h"

#include <utility>

namespace gpumem::workflows {

namespace {

// Keeps every batch and epoch of the run and passes them on.
class RecordingObserver : public training::TrainingObserver
{
  public:
    explicit RecordingObserver(training::TrainingObserver *next)
        : mNext(next)
    {
    }

    void batchFinished(const training::BatchProgress &progress) override
    {
        batches.push_back(runs::batchPoint(progress));
        if (mNext)
            mNext->batchFinished(progress);
    }

    void epochFinished(const training::EpochProgress &progress) override
    {
        epochs.push_back(runs::epochPoint(progress));
        if (mNext)
            mNext->epochFinished(progress);
    }

    // A run records the curve of the model it keeps, an ensemble's mean; its members' own
    // curves are only shown live.
    void memberEpochFinished(int member, const training::EpochProgress &progress) override
    {
        if (mNext)
            mNext->memberEpochFinished(member, progress);
    }

    std::vector<runs::BatchPoint> batches;
    std::vector<runs::EpochPoint> epochs;

  private:
    training::TrainingObserver *mNext;
};

evaluation::Split holdOut(const data::Dataset &dataset, const TrainConfiguration &configuration)
{
    const auto rows = static_cast<Eigen::Index>(dataset.rowCount());
    if (configuration.holdOutFraction > 0.0)
        return evaluation::holdOutSplit(rows, configuration.holdOutFraction,
                                        configuration.holdOutSeed.value_or(configuration.compute.seed));
    evaluation::Split split;
    for (Eigen::Index row = 0; row < rows; ++row)
        split.train.push_back(row);
    return split;
}

// The record of the run; its metrics only when the fit gave a model to keep.
runs::RunRecord recordOf(const TrainConfiguration &configuration, const models::Regressor &model,
                         RecordingObserver &recorder, const TrainResult &result, const data::Dataset &dataset)
{
    const training::TrainingResult &training = result.fit.training;
    runs::RunRecord record;
    record.name = configuration.name;
    record.model = configuration.model;
    record.hyperparameters = runs::hyperparameterValues(model.hyperparameters());
    record.seed = configuration.compute.seed;
    record.batches = runs::thinnedBatches(recorder.batches);
    record.epochs = std::move(recorder.epochs);
    record.bestEpoch = training.bestEpoch;
    record.seconds = training.seconds;
    record.stopReason = training.stopReason;
    record.message = training.message;
    record.trainRows = result.fitRows.size();
    record.dataset = dataset.source();
    // The rows that judge the model: held out by the run, or else set aside by the fit.
    const std::vector<Eigen::Index> &validation =
        result.split.test.empty() ? training.validationRows : result.split.test;
    record.validationRows = validation.size();
    if (!result.succeeded())
        return record;
    const Eigen::VectorXd &predicted = result.fit.predicted;
    const Eigen::VectorXd &actual = dataset.target();
    record.trainMetrics = evaluation::computeMetrics(actual(result.fitRows), predicted(result.fitRows));
    if (!validation.empty())
        record.validationMetrics = evaluation::computeMetrics(actual(validation), predicted(validation));
    return record;
}

} // namespace

TrainResult train(const data::Dataset &dataset, const TrainConfiguration &configuration,
                  training::TrainingObserver *observer, runtime::OperationControl *control)
{
    std::shared_ptr<models::Regressor> model =
        configuration.continuing
            ? configuration.continuing
            : models::createRegressor(configuration.model, configuration.hyperparameters, configuration.compute);
    TrainResult result;
    result.split = holdOut(dataset, configuration);
    // Between the model and the observer, so a progress bar hears the share of the fit done.
    training::FitProgressRelay relay(observer);
    RecordingObserver recorder(&relay);
    if (configuration.calibration) {
        result.fit = calibration::fitCalibrated(*model, dataset, result.split.train, *configuration.calibration,
                                                &recorder, control);
    } else {
        result.fit.rows.fit = result.split.train;
        result.fit.training = model->fit(dataset, result.split.train, &recorder, control);
    }
    const training::StopReason reason = result.fit.training.stopReason;
    // A stop keeps the best epoch so far, when one finished; a calibration cut short has
    // no sound bound, so a calibrated training keeps nothing on a stop.
    const bool keptOnStop =
        reason == training::StopReason::Cancelled && result.fit.training.bestEpoch > 0 && !configuration.calibration;
    const bool fitted =
        (reason == training::StopReason::Completed || reason == training::StopReason::EarlyStopped || keptOnStop) &&
        model->isFitted();
    // With a refit the kept model saw every training row; else only those that were not calibrating.
    result.fitRows = result.fit.refitted ? result.split.train : result.fit.rows.fit;
    if (fitted) {
        if (!configuration.calibration)
            result.fit.predicted = model->predict(dataset);
        result.model = model;
    } else {
        result.fit.calibration.reset();
    }
    result.device = model->deviceName();
    result.record = recordOf(configuration, *model, recorder, result, dataset);
    return result;
}

} // namespace gpumem::workflows
