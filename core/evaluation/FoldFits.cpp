// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/FoldFits.h"

#include "calibration/BoundMetrics.h"
#include "models/RegressorRegistry.h"
#include "runtime/ParallelFor.h"
#include "runtime/Stopwatch.h"
#include "training/KernelThreads.h"

#include <c10/util/Exception.h>

#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <sstream>

namespace gpumem::evaluation {

namespace {

// Returns the first non-blank line of a failure: LibTorch and XGBoost append
// stack traces of dozens of lines, which would bury the reason in the report.
std::string failureLine(const std::exception &error)
{
    const auto *torchError = dynamic_cast<const c10::Error *>(&error);
    std::istringstream lines(torchError ? torchError->what_without_backtrace() : error.what());
    std::string line;
    while (std::getline(lines, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos)
            return line.substr(line.find_first_not_of(" \t\r"));
    return "failed";
}

// Forwards one fit's training progress to the experiment observer, tagged with
// the model and fold, under the lock that serialises observer calls.
class FitProgressForwarder final : public training::TrainingObserver
{
  public:
    // advanced(share, elapsedSeconds) hears how far the fit has come, under the same lock.
    FitProgressForwarder(ExperimentObserver *observer, std::mutex &mutex, std::string model, int fold,
                         std::function<void(double, double)> advanced)
        : mObserver(observer)
        , mMutex(mutex)
        , mModel(std::move(model))
        , mFold(fold)
        , mAdvanced(std::move(advanced))
    {
    }

    void batchFinished(const training::BatchProgress &progress) override
    {
        const std::lock_guard lock(mMutex);
        mObserver->batchFinished(mModel, mFold, progress);
        if (progress.epochs > 0 && progress.batches > 0)
            mAdvanced(training::fitShare(progress), progress.elapsedSeconds);
    }

    void epochFinished(const training::EpochProgress &progress) override
    {
        const std::lock_guard lock(mMutex);
        mObserver->epochFinished(mModel, mFold, progress);
        if (progress.epochs > 0)
            mAdvanced(training::fitShare(progress), progress.elapsedSeconds);
    }

  private:
    ExperimentObserver *mObserver;
    std::mutex &mMutex;
    std::string mModel;
    int mFold;
    std::function<void(double, double)> mAdvanced;
};

// The smallest change of the overall share worth an observer call: a tenth of a
// percent is below what a progress bar shows, and keeps a fast model's thousands
// of batches from flooding the observer.
constexpr double visibleProgressStep = 0.001;

// Scores the bound of one calibrated fold fit on the fold's test rows, with the
// fixed-headroom rules beside it; upperBounds receives every row's bound.
FoldBound scoreBound(const data::Dataset &dataset, const calibration::CalibratedFit &fit,
                     const Eigen::VectorXd &predicted, const Split &split, double coverage,
                     Eigen::VectorXd &upperBounds)
{
    const calibration::Calibration &calibration = *fit.calibration;
    const Eigen::VectorXd &actual = dataset.target();
    // The difficulty model finds its columns by name, so every numeric column may be passed.
    const Eigen::VectorXd scales =
        calibration.scales(dataset.numericFeatures(), dataset.numericFeatureNames(), predicted, fit.memberSpread);
    FoldBound bound;
    bound.calibrationRowCount = calibration.calibrationRowCount();
    bound.calibrationRows = fit.rows.calibration;
    bound.margin = calibration.margin(coverage);
    upperBounds = predicted + bound.margin * scales;
    bound.bound = calibration::boundMetrics(actual, upperBounds, split.test);
    bound.tenPercent = calibration::boundMetrics(actual, calibration::headroomBounds(predicted, 10.0), split.test);
    // Chosen on the calibration rows as the model that never saw them predicted them.
    bound.fixedHeadroomPercent =
        calibration::smallestHeadroomPercent(actual, fit.calibrationPredicted, fit.rows.calibration, coverage);
    bound.fixedHeadroom = calibration::boundMetrics(
        actual, calibration::headroomBounds(predicted, bound.fixedHeadroomPercent), split.test);
    bound.curve = calibration::tradeOffCurve(calibration, scales, predicted, actual, split.test, tradeOffPointCount);
    return bound;
}

} // namespace

FoldFits::FoldFits(const data::Dataset &dataset, const ExperimentSettings &settings, const std::vector<Split> &splits,
                   ExperimentObserver *observer, runtime::OperationControl *control)
    : mDataset(dataset)
    , mSettings(settings)
    , mSplits(splits)
    , mObserver(observer)
    , mFoldCount(static_cast<int>(splits.size()))
    , mFoldsPerRepetition(mFoldCount / settings.repeats)
    , mModels(settings.models.size())
    , mProgress(settings.models.size(), mFoldCount)
    , mThrottle(observer, visibleProgressStep)
    , mFailureOf(settings.models.size())
    , mWarnings(settings.models.size() * splits.size())
    , mFinished(settings.models.size() * splits.size(), 0)
    , mControl(control ? *control : mOwnControl)
{
    for (std::size_t m = 0; m < settings.models.size(); ++m) {
        ModelResult &model = mModels[m];
        model.name = settings.models[m].name;
        model.title = models::regressorTitle(model.name);
        model.hyperparameters = settings.models[m].hyperparameters;
        model.folds.resize(splits.size());
        model.predictions = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(dataset.rowCount()),
                                                      std::numeric_limits<double>::quiet_NaN());
        if (settings.calibration) {
            model.bound.emplace();
            model.bound->upperBounds = model.predictions;
        }
    }
    if (settings.explanation) {
        const InputEditor &inputs = *settings.explanation->inputs;
        mGrids = partialDependenceGrids(inputs, settings.explanation->gridPoints);
        mAveragedRows = partialDependenceRows(inputs.rowCount(), settings.explanation->averagedRows, settings.seed);
    }
}

void FoldFits::run()
{
    runtime::parallelFor(
        mWarnings.size(), mSettings.parallelFits, [this](std::size_t job) { runOrRecord(job); },
        [this] { return mControl.isCancelled(); });
}

bool FoldFits::cancelled() const
{
    return mControl.isCancelled();
}

std::size_t FoldFits::job(std::size_t model, int fold) const
{
    return model * static_cast<std::size_t>(mFoldCount) + static_cast<std::size_t>(fold);
}

// Called under mObserverMutex: progress is throttled here, at its source.
void FoldFits::reportProgress()
{
    if (mThrottle.isWatched())
        mThrottle.advance(mProgress.share());
}

void FoldFits::runOrRecord(std::size_t job)
{
    const std::size_t m = job / static_cast<std::size_t>(mFoldCount);
    {
        const std::lock_guard lock(mObserverMutex);
        if (!mFailureOf[m].empty())
            return; // the model already failed on another fold
    }
    // Pinned before the fit: a worker thread's first LibTorch operation would otherwise
    // take whatever thread count another fit had set at that moment.
    const training::KernelThreadsGuard kernelThreads(mSettings.compute.threads);
    try {
        fit(job);
    } catch (const std::bad_alloc &) {
        // Out of memory is the machine's state, not one model's: stop everything.
        mControl.cancel();
        throw;
    } catch (const std::exception &error) {
        // One model's failure (unusable hyperparameters, a numerical
        // breakdown) leaves the others to finish; the result names it.
        const std::lock_guard lock(mObserverMutex);
        if (mFailureOf[m].empty())
            mFailureOf[m] = failureLine(error);
        mProgress.modelAbandoned(m);
        reportProgress();
    }
}

void FoldFits::fit(std::size_t job)
{
    const std::size_t m = job / static_cast<std::size_t>(mFoldCount);
    const int fold = static_cast<int>(job % static_cast<std::size_t>(mFoldCount));
    const ModelSpec &spec = mSettings.models[m];
    const Split &split = mSplits[static_cast<std::size_t>(fold)];
    if (mObserver) {
        const std::lock_guard lock(mObserverMutex);
        mObserver->fitStarted(spec.name, fold, mFoldCount);
    }
    const int repetition = fold / mFoldsPerRepetition;
    models::ComputeSettings compute = mSettings.compute;
    compute.seed = repetitionSeed(mSettings.seed, repetition);
    std::unique_ptr<models::Regressor> regressor = models::createRegressor(spec.name, spec.hyperparameters, compute);

    FoldResult foldResult;
    foldResult.fold = fold;
    foldResult.repetition = repetition;
    std::unique_ptr<FitProgressForwarder> forwarder;
    if (mObserver)
        forwarder = std::make_unique<FitProgressForwarder>(mObserver, mObserverMutex, spec.name, fold,
                                                           [this, m, fold](double share, double elapsed) {
                                                               mProgress.fitAdvanced(m, fold, share, elapsed);
                                                               reportProgress();
                                                           });
    const runtime::Stopwatch fitTime;
    std::optional<calibration::CalibratedFit> calibrated;
    training::TrainingResult training;
    if (mSettings.calibration) {
        // Only the fold's training rows reach the calibration: its test rows stay unseen.
        calibrated = calibration::fitCalibrated(*regressor, mDataset, split.train, *mSettings.calibration,
                                                forwarder.get(), &mControl);
        training = std::move(calibrated->training);
    } else {
        training = regressor->fit(mDataset, split.train, forwarder.get(), &mControl);
    }
    foldResult.trainSeconds = fitTime.seconds();
    foldResult.stopReason = training.stopReason;
    foldResult.epochs = std::move(training.epochs);
    mWarnings[job] = std::move(training.warnings);
    if (training.stopReason == training::StopReason::Cancelled || mControl.isCancelled())
        return;

    const runtime::Stopwatch predictTime;
    // A calibrated fit predicted every row already, within its train time; predicting again would only repeat it.
    const Eigen::VectorXd predicted =
        calibrated && calibrated->predicted.size() != 0 ? calibrated->predicted : regressor->predict(mDataset);
    foldResult.predictSeconds = predictTime.seconds();
    const Eigen::VectorXd actualTest = mDataset.target()(split.test);
    const Eigen::VectorXd predictedTest = predicted(split.test);
    foldResult.metrics = computeMetrics(actualTest, predictedTest);

    ModelResult &model = mModels[m];
    // Each repetition tests every row once; the first one's predictions stand for them all.
    if (repetition == 0)
        model.predictions(split.test) = predictedTest;
    if (calibrated && calibrated->calibration) {
        Eigen::VectorXd upperBounds;
        foldResult.bound =
            scoreBound(mDataset, *calibrated, predicted, split, mSettings.calibration->coverage, upperBounds);
        if (repetition == 0)
            model.bound->upperBounds(split.test) = upperBounds(split.test);
    }
    const runtime::Stopwatch explainTime;
    if (mSettings.explanation) {
        try {
            if (!explain(*regressor, fold, foldResult))
                return;
        } catch (const std::bad_alloc &) {
            throw;
        } catch (const std::exception &error) {
            // A job rebuilt with a value the model cannot take (e.g. one its simulation refuses) costs the
            // fold its explanation, not the model its scores.
            foldResult.importance.clear();
            foldResult.partialDependence.clear();
            mWarnings[job].push_back("not explained on one fold: " + failureLine(error));
        }
    }
    model.folds[static_cast<std::size_t>(fold)] = foldResult;
    mFinished[job] = 1;
    const std::lock_guard lock(mObserverMutex);
    mProgress.fitFinished(m, fold, foldResult.trainSeconds + foldResult.predictSeconds + explainTime.seconds());
    if (mObserver)
        mObserver->foldFinished(spec.name, foldResult);
    reportProgress();
}

bool FoldFits::explain(const models::Regressor &regressor, int fold, FoldResult &foldResult)
{
    const ExplanationSettings &settings = *mSettings.explanation;
    const InputEditor &inputs = *settings.inputs;
    const DatasetPredictor predict = [&regressor](const data::Dataset &rows) { return regressor.predict(rows); };
    const auto cancelled = [this] { return mControl.isCancelled(); };
    foldResult.importance = permutationImportance(predict, inputs, mSplits[static_cast<std::size_t>(fold)].test,
                                                  settings.importanceRepeats, mSettings.seed, fold, cancelled);
    for (const PartialDependenceGrid &grid : mGrids) {
        if (cancelled())
            return false;
        foldResult.partialDependence.push_back(partialDependence(predict, inputs, mAveragedRows, grid));
    }
    return !cancelled();
}

} // namespace gpumem::evaluation
