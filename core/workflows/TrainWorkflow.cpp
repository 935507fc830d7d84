// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/TrainWorkflow.h"

#include "calibration/CalibrationJson.h"
#include "io/InputError.h"
#include "models/NeuralNetworkRegressor.h"
#include "models/RegressorRegistry.h"
#include "prediction/PredictionFile.h"
#include "runtime/ThreadSettings.h"
#include "training/FitProgressRelay.h"
#include "workflows/ConfigurationChecks.h"

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

// Bounds every row of a kept, calibrated fit and, with a hold-out, reports the bound there.
void boundRows(const data::Dataset &dataset, TrainResult &result)
{
    const calibration::Calibration &stored = *result.fit.calibration;
    result.bounds = stored.upperBounds(dataset.numericFeatures(), dataset.numericFeatureNames(), result.fit.predicted,
                                       stored.coverage(), result.fit.memberSpread);
    if (!result.split.test.empty())
        result.boundReport = calibration::boundReport(stored, dataset, result.fit, result.bounds, result.split.test);
}

} // namespace

void TrainConfiguration::validate() const
{
    checkHoldOutFraction(holdOutFraction);
    // A continued network keeps the stopped run's calibration rows in its training rows.
    if (calibration && continuing)
        throw io::InputError(io::parameter("coverage") + " cannot be combined with " + io::parameter("resume_from") +
                             "; calibrate a training from scratch");
}

TrainResult train(const data::Dataset &dataset, const TrainConfiguration &configuration,
                  training::TrainingObserver *observer, runtime::OperationControl *control)
{
    configuration.validate();
    runtime::setComputeThreads(configuration.compute.threads);
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
    if (result.model && result.fit.calibration)
        boundRows(dataset, result);
    return result;
}

int resumeTraining(TrainConfiguration &configuration, const std::string &folder, std::optional<std::uint64_t> epochs,
                   std::optional<std::uint64_t> seed)
{
    auto network = std::make_shared<models::NeuralNetworkRegressor>(
        models::NeuralNetworkRegressor::load(folder, configuration.compute));
    if (seed && *seed != network->seed())
        throw io::InputError(io::parameter("seed") + " " + std::to_string(*seed) + " differs from the seed " +
                             std::to_string(network->seed()) + " that " + folder + " was trained with");
    const int done = network->epochsTrained();
    if (done == 0)
        throw io::InputError(folder, 0, 0, "holds no training state to continue (no optimizer.safetensors)");
    const auto target =
        static_cast<int>(epochs.value_or(static_cast<std::uint64_t>(network->hyperparameters().integer("epochs"))));
    if (target <= done)
        throw io::InputError(folder, 0, 0,
                             "has trained " + std::to_string(done) + " epochs; give " + io::parameter("epochs") +
                                 " above " + std::to_string(done) + " to train further");
    network->continueTrainingTo(target);
    configuration.compute.seed = network->seed(); // the stopped run's split and validation rows
    configuration.continuing = std::move(network);
    return done;
}

std::string predictionsCsv(const DataSelection &data, const TrainResult &trained)
{
    const data::Dataset &dataset = *data.dataset;
    std::vector<std::string> splits(static_cast<std::size_t>(dataset.rowCount()), "train");
    for (Eigen::Index row : trained.fit.rows.calibration)
        splits[static_cast<std::size_t>(row)] = "calibration";
    for (Eigen::Index row : trained.split.test)
        splits[static_cast<std::size_t>(row)] = "test";
    return prediction::predictionCsv(data.table->rowCount(), data.usableRows, dataset, trained.fit.predicted, splits,
                                     trained.bounds);
}

void saveTrainedModel(const TrainResult &trained, const std::string &directory)
{
    calibration::saveCalibratedModel(*trained.model, trained.fit.calibration, directory);
}

} // namespace gpumem::workflows
