// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs/RunTraining.h"

#include "evaluation/Splits.h"
#include "models/RegressorRegistry.h"
#include "training/FitProgressRelay.h"

namespace gpumem::runs {

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
        batches.push_back(batchPoint(progress));
        if (mNext)
            mNext->batchFinished(progress);
    }

    void epochFinished(const training::EpochProgress &progress) override
    {
        epochs.push_back(epochPoint(progress));
        if (mNext)
            mNext->epochFinished(progress);
    }

    std::vector<BatchPoint> batches;
    std::vector<EpochPoint> epochs;

  private:
    training::TrainingObserver *mNext;
};

} // namespace

TrainedRun trainRun(const data::Dataset &dataset, const RunSettings &settings, training::TrainingObserver *observer,
                    runtime::OperationControl *control)
{
    const auto rows = static_cast<Eigen::Index>(dataset.rowCount());
    evaluation::Split split;
    if (settings.validationFraction > 0.0) {
        split = evaluation::holdOutSplit(rows, settings.validationFraction, settings.compute.seed);
    } else {
        for (Eigen::Index row = 0; row < rows; ++row)
            split.train.push_back(row);
    }
    std::shared_ptr<models::Regressor> model =
        models::createRegressor(settings.model, settings.hyperparameters, settings.compute);
    training::FitProgressRelay relay(observer);
    RecordingObserver recorder(&relay);
    const training::TrainingResult result = model->fit(dataset, split.train, &recorder, control);

    TrainedRun run;
    RunRecord &record = run.record;
    record.name = settings.name;
    record.model = settings.model;
    record.hyperparameters = hyperparameterValues(model->hyperparameters());
    record.seed = settings.compute.seed;
    record.batches = thinnedBatches(recorder.batches);
    record.epochs = std::move(recorder.epochs);
    record.bestEpoch = result.bestEpoch;
    record.trainRows = split.train.size();
    record.validationRows = split.test.size();
    record.seconds = result.seconds;
    record.stopReason = result.stopReason;
    record.message = result.message;
    const bool fitted =
        result.stopReason == training::StopReason::Completed || result.stopReason == training::StopReason::EarlyStopped;
    if (fitted && model->isFitted()) {
        const Eigen::VectorXd predicted = model->predict(dataset);
        record.trainMetrics = evaluation::computeMetrics(dataset.target()(split.train), predicted(split.train));
        if (!split.test.empty())
            record.validationMetrics = evaluation::computeMetrics(dataset.target()(split.test), predicted(split.test));
        run.model = std::move(model);
    }
    return run;
}

} // namespace gpumem::runs
