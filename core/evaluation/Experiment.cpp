// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/Experiment.h"

#include "calibration/Coverage.h"
#include "evaluation/WeightedProgress.h"
#include "io/InputError.h"
#include "models/RegressorRegistry.h"
#include "runtime/ParallelFor.h"
#include "training/KernelThreads.h"

#include <c10/util/Exception.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace gpumem::evaluation {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::vector<Split> splitsFor(Eigen::Index rows, const ExperimentSettings &settings)
{
    // The split functions refuse too few rows, folds or groups with io::InputError, in words for the user.
    if (settings.repeats < 1)
        throw io::InputError("a comparison needs at least 1 repetition, not " + std::to_string(settings.repeats));
    if (!settings.groups.empty() && settings.groups.size() != static_cast<std::size_t>(rows))
        throw std::invalid_argument("runExperiment: the group labels do not match the rows");
    if (settings.testFraction > 0.0) {
        if (settings.repeats > 1 || !settings.groups.empty())
            throw io::InputError("repetitions and grouped folds need cross-validation, not a hold-out split");
        return {holdOutSplit(rows, settings.testFraction, settings.seed)};
    }
    std::vector<Split> splits;
    for (int repetition = 0; repetition < settings.repeats; ++repetition) {
        const std::uint64_t seed = repetitionSeed(settings.seed, repetition);
        std::vector<Split> folds = settings.groups.empty() ? kFoldSplits(rows, settings.folds, seed)
                                                           : groupedKFoldSplits(settings.groups, settings.folds, seed);
        std::move(folds.begin(), folds.end(), std::back_inserter(splits));
    }
    return splits;
}

// The test rows over the training rows of the average fit: the corrected t-test's n₂/n₁.
double testToTrainRatio(const std::vector<Split> &splits)
{
    double test = 0.0;
    double train = 0.0;
    for (const Split &split : splits) {
        test += static_cast<double>(split.test.size());
        train += static_cast<double>(split.train.size());
    }
    return test / train;
}

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

template <typename Field> RegressionMetrics combine(const std::vector<FoldResult> &folds, Field field)
{
    RegressionMetrics combined;
    const auto apply = [&](double RegressionMetrics::*member) {
        std::vector<double> values;
        for (const auto &fold : folds)
            values.push_back(fold.metrics.*member);
        combined.*member = field(values);
    };
    for (const auto &metric : metricDescriptions())
        apply(metric.member);
    return combined;
}

double meanOf(const std::vector<double> &values)
{
    double sum = 0.0;
    for (double value : values)
        sum += value;
    return sum / static_cast<double>(values.size());
}

double standardDeviationOf(const std::vector<double> &values)
{
    if (values.size() < 2)
        return 0.0;
    const double mean = meanOf(values);
    double squares = 0.0;
    for (double value : values)
        squares += (value - mean) * (value - mean);
    return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

// The mean of each repetition's consecutive share of values (fit results in split order).
std::vector<double> repetitionMeans(const std::vector<double> &values, int repeats)
{
    const std::size_t perRepetition = values.size() / static_cast<std::size_t>(repeats);
    std::vector<double> means;
    for (std::size_t first = 0; first + perRepetition <= values.size() && perRepetition > 0; first += perRepetition)
        means.push_back(meanOf({values.begin() + static_cast<std::ptrdiff_t>(first),
                                values.begin() + static_cast<std::ptrdiff_t>(first + perRepetition)}));
    return means;
}

// Pairs each model with the best one: per-fold RMSE over k folds, or per-row
// squared errors of a single hold-out split (one fold gives nothing to pair).
// Repeated folds overlap in their training rows, which only the corrected
// resampled t-test allows for, so they report that test alone.
std::vector<PairedTest> compareWithBest(const ExperimentResult &result, const data::Dataset &dataset)
{
    std::vector<PairedTest> tests;
    const auto best = std::find_if(result.models.begin(), result.models.end(),
                                   [&](const ModelResult &model) { return model.name == result.best; });
    if (best == result.models.end())
        return tests;
    const bool holdOut = result.splits.size() == 1;
    for (const auto &model : result.models) {
        if (&model == &*best)
            continue;
        std::vector<double> errors;
        std::vector<double> bestErrors;
        std::string metric;
        if (holdOut) {
            metric = "squared error per test row";
            for (Eigen::Index row : result.splits.front().test) {
                const double actual = dataset.target()[row];
                errors.push_back(std::pow(model.predictions[row] - actual, 2));
                bestErrors.push_back(std::pow(best->predictions[row] - actual, 2));
            }
        } else {
            metric = "rmse per fold";
            for (std::size_t fold = 0; fold < model.folds.size(); ++fold) {
                errors.push_back(model.folds[fold].metrics.rmse);
                bestErrors.push_back(best->folds[fold].metrics.rmse);
            }
        }
        if (errors.size() < 2)
            continue;
        if (result.repeats > 1) {
            PairedTest test = correctedResampledTTest(errors, bestErrors, testToTrainRatio(result.splits));
            test.model = model.name;
            test.versus = best->name;
            test.metric = "rmse per fit";
            test.reported = test.pairs >= minimumReportedPairs;
            tests.push_back(test);
            continue;
        }
        for (PairedTest test : {pairedTTest(errors, bestErrors), wilcoxonSignedRank(errors, bestErrors)}) {
            test.model = model.name;
            test.versus = best->name;
            test.metric = metric;
            // The exact Wilcoxon test cannot reach p < 0.05 with fewer than 6
            // pairs, so few folds report the t-test; fewer than 5 report none.
            test.reported = test.pairs >= minimumReportedPairs && (test.test == "paired_t") == (test.pairs < 6);
            tests.push_back(test);
        }
    }
    return tests;
}

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
        calibration.scales(dataset.numericFeatures(), dataset.numericFeatureNames(), predicted);
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

calibration::BoundMetrics meanMetrics(const std::vector<const calibration::BoundMetrics *> &folds)
{
    calibration::BoundMetrics mean;
    if (folds.empty())
        return calibration::boundMetrics(Eigen::VectorXd(), Eigen::VectorXd(), {}); // NaN values
    const auto count = static_cast<double>(folds.size());
    for (const auto *fold : folds) {
        mean.rows += fold->rows;
        mean.underPredictionRate += fold->underPredictionRate / count;
        mean.meanOverAllocation += fold->meanOverAllocation / count;
        mean.medianOverAllocation += fold->medianOverAllocation / count;
        mean.meanOverAllocationPercent += fold->meanOverAllocationPercent / count;
        mean.medianOverAllocationPercent += fold->medianOverAllocationPercent / count;
    }
    return mean;
}

// Fills the means over the folds that have a bound.
void averageBounds(const std::vector<FoldResult> &folds, ModelBound &model)
{
    std::vector<const FoldBound *> scored;
    for (const auto &fold : folds)
        if (fold.bound)
            scored.push_back(&*fold.bound);
    std::vector<const calibration::BoundMetrics *> bound, tenPercent, fixedHeadroom;
    const auto count = static_cast<double>(scored.size());
    model.fixedHeadroomPercent = scored.empty() ? std::numeric_limits<double>::quiet_NaN() : 0.0;
    model.curve.assign(scored.empty() ? 0 : static_cast<std::size_t>(tradeOffPointCount), {});
    for (const FoldBound *fold : scored) {
        bound.push_back(&fold->bound);
        tenPercent.push_back(&fold->tenPercent);
        fixedHeadroom.push_back(&fold->fixedHeadroom);
        model.fixedHeadroomPercent += fold->fixedHeadroomPercent / count;
        for (std::size_t point = 0; point < model.curve.size() && point < fold->curve.size(); ++point) {
            model.curve[point].margin += fold->curve[point].margin / count;
            model.curve[point].underPredictionRate += fold->curve[point].underPredictionRate / count;
            model.curve[point].meanOverAllocation += fold->curve[point].meanOverAllocation / count;
        }
    }
    model.bound = meanMetrics(bound);
    model.tenPercent = meanMetrics(tenPercent);
    model.fixedHeadroom = meanMetrics(fixedHeadroom);
}

} // namespace

ExperimentResult runExperiment(const data::Dataset &dataset, const ExperimentSettings &settings,
                               ExperimentObserver *observer, runtime::OperationControl *control)
{
    const auto start = Clock::now();
    if (!dataset.hasTarget())
        throw io::InputError("the data has no target column to compare models on");
    if (settings.models.empty())
        throw io::InputError("no models to compare");
    for (const auto &spec : settings.models)
        models::regressorTitle(spec.name); // throws for an unknown name, before any work

    if (settings.calibration)
        calibration::checkCoverage(settings.calibration->coverage);

    ExperimentResult result;
    result.calibration = settings.calibration;
    result.splits = splitsFor(static_cast<Eigen::Index>(dataset.rowCount()), settings);
    result.repeats = settings.repeats;
    const int foldCount = static_cast<int>(result.splits.size());
    const int foldsPerRepetition = foldCount / settings.repeats;
    if (settings.calibration)
        for (const Split &split : result.splits) {
            // Known before any fit, which can take minutes: a coverage the folds cannot serve.
            const std::size_t rows = calibration::splitCalibrationRows(split.train, settings.calibration->fraction,
                                                                       settings.calibration->seed)
                                         .calibration.size();
            calibration::checkCalibrationRowsSuffice(settings.calibration->score, rows, settings.calibration->coverage);
        }
    result.actual = dataset.target();

    std::vector<ModelResult> modelResults(settings.models.size());
    for (std::size_t m = 0; m < settings.models.size(); ++m) {
        ModelResult &model = modelResults[m];
        model.name = settings.models[m].name;
        model.title = models::regressorTitle(model.name);
        model.hyperparameters = settings.models[m].hyperparameters;
        model.folds.resize(static_cast<std::size_t>(foldCount));
        model.predictions = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(dataset.rowCount()),
                                                      std::numeric_limits<double>::quiet_NaN());
        if (settings.calibration) {
            model.bound.emplace();
            model.bound->upperBounds = model.predictions;
        }
    }

    // Every (model, fold) fit is an independent job: each builds its own model
    // with the experiment's seed and writes only its own slots, so the number
    // of workers cannot change any result.
    const std::size_t jobCount = settings.models.size() * static_cast<std::size_t>(foldCount);
    std::mutex observerMutex; // serialises observer calls and guards failureOf, progress and throttle
    WeightedProgress progress(settings.models.size(), foldCount);
    runtime::ProgressThrottle throttle(observer, visibleProgressStep);
    // Called under observerMutex: progress is throttled here, at its source.
    const auto reportProgress = [&] {
        if (throttle.isWatched())
            throttle.advance(progress.share());
    };
    std::vector<std::string> failureOf(settings.models.size()); // per model: why it failed, or empty
    std::vector<std::vector<std::string>> fitWarnings(jobCount);
    std::vector<char> fitFinished(jobCount, 0); // each job writes only its own slot
    runtime::OperationControl ownControl;
    runtime::OperationControl &sharedControl = control ? *control : ownControl;

    const auto runJob = [&](std::size_t job) {
        const std::size_t m = job / static_cast<std::size_t>(foldCount);
        const int fold = static_cast<int>(job % static_cast<std::size_t>(foldCount));
        const ModelSpec &spec = settings.models[m];
        const Split &split = result.splits[static_cast<std::size_t>(fold)];
        if (observer) {
            const std::lock_guard lock(observerMutex);
            observer->fitStarted(spec.name, fold, foldCount);
        }
        const int repetition = fold / foldsPerRepetition;
        models::ComputeSettings compute = settings.compute;
        compute.seed = repetitionSeed(settings.seed, repetition);
        std::unique_ptr<models::Regressor> regressor =
            models::createRegressor(spec.name, spec.hyperparameters, compute);

        FoldResult foldResult;
        foldResult.fold = fold;
        foldResult.repetition = repetition;
        std::unique_ptr<FitProgressForwarder> forwarder;
        if (observer)
            forwarder = std::make_unique<FitProgressForwarder>(observer, observerMutex, spec.name, fold,
                                                               [&, m, fold](double share, double elapsed) {
                                                                   progress.fitAdvanced(m, fold, share, elapsed);
                                                                   reportProgress();
                                                               });
        const auto fitStart = Clock::now();
        std::optional<calibration::CalibratedFit> calibrated;
        training::TrainingResult training;
        if (settings.calibration) {
            // Only the fold's training rows reach the calibration: its test rows stay unseen.
            calibrated = calibration::fitCalibrated(*regressor, dataset, split.train, *settings.calibration,
                                                    forwarder.get(), &sharedControl);
            training = std::move(calibrated->training);
        } else {
            training = regressor->fit(dataset, split.train, forwarder.get(), &sharedControl);
        }
        foldResult.trainSeconds = secondsSince(fitStart);
        foldResult.stopReason = training.stopReason;
        foldResult.epochs = std::move(training.epochs);
        fitWarnings[job] = std::move(training.warnings);
        if (training.stopReason == training::StopReason::Cancelled || sharedControl.isCancelled())
            return;

        const auto predictStart = Clock::now();
        // A calibrated fit predicted every row already, within its train time; predicting again would only repeat it.
        const Eigen::VectorXd predicted =
            calibrated && calibrated->predicted.size() != 0 ? calibrated->predicted : regressor->predict(dataset);
        foldResult.predictSeconds = secondsSince(predictStart);
        const Eigen::VectorXd actualTest = dataset.target()(split.test);
        const Eigen::VectorXd predictedTest = predicted(split.test);
        foldResult.metrics = computeMetrics(actualTest, predictedTest);

        ModelResult &model = modelResults[m];
        // Each repetition tests every row once; the first one's predictions stand for them all.
        if (repetition == 0)
            model.predictions(split.test) = predictedTest;
        if (calibrated && calibrated->calibration) {
            Eigen::VectorXd upperBounds;
            foldResult.bound =
                scoreBound(dataset, *calibrated, predicted, split, settings.calibration->coverage, upperBounds);
            if (repetition == 0)
                model.bound->upperBounds(split.test) = upperBounds(split.test);
        }
        model.folds[static_cast<std::size_t>(fold)] = foldResult;
        fitFinished[job] = 1;
        const std::lock_guard lock(observerMutex);
        progress.fitFinished(m, fold, foldResult.trainSeconds + foldResult.predictSeconds);
        if (observer)
            observer->foldFinished(spec.name, foldResult);
        reportProgress();
    };

    const auto runOrRecord = [&](std::size_t job) {
        const std::size_t m = job / static_cast<std::size_t>(foldCount);
        {
            const std::lock_guard lock(observerMutex);
            if (!failureOf[m].empty())
                return; // the model already failed on another fold
        }
        // Pinned before the fit: a worker thread's first LibTorch operation would otherwise
        // take whatever thread count another fit had set at that moment.
        const training::KernelThreadsGuard kernelThreads(settings.compute.threads);
        try {
            runJob(job);
        } catch (const std::bad_alloc &) {
            // Out of memory is the machine's state, not one model's: stop everything.
            sharedControl.cancel();
            throw;
        } catch (const std::exception &error) {
            // One model's failure (unusable hyperparameters, a numerical
            // breakdown) leaves the others to finish; the result names it.
            const std::lock_guard lock(observerMutex);
            if (failureOf[m].empty())
                failureOf[m] = failureLine(error);
            progress.modelAbandoned(m);
            reportProgress();
        }
    };
    runtime::parallelFor(jobCount, settings.parallelFits, runOrRecord, [&] { return sharedControl.isCancelled(); });

    result.cancelled = sharedControl.isCancelled();
    for (std::size_t m = 0; m < modelResults.size(); ++m) {
        ModelResult &model = modelResults[m];
        if (!failureOf[m].empty()) {
            result.failures.push_back({model.name, failureOf[m]});
            result.warnings.push_back(model.name + " failed: " + failureOf[m]);
            continue;
        }
        bool complete = true;
        for (int fold = 0; fold < foldCount; ++fold) {
            const std::size_t job = m * static_cast<std::size_t>(foldCount) + static_cast<std::size_t>(fold);
            for (const auto &warning : fitWarnings[job])
                if (std::find(model.warnings.begin(), model.warnings.end(), warning) == model.warnings.end())
                    model.warnings.push_back(warning);
            const FoldResult &foldResult = model.folds[static_cast<std::size_t>(fold)];
            complete = complete && fitFinished[job];
            model.trainSeconds += foldResult.trainSeconds;
            model.predictSeconds += foldResult.predictSeconds;
        }
        if (result.cancelled && !complete)
            continue;
        model.mean = combine(model.folds, meanOf);
        model.standardDeviation = combine(model.folds, standardDeviationOf);
        model.repetitionSpread = combine(model.folds, [&](const std::vector<double> &values) {
            return standardDeviationOf(repetitionMeans(values, result.repeats));
        });
        if (model.bound)
            averageBounds(model.folds, *model.bound);
        if (observer) {
            const std::lock_guard lock(observerMutex);
            observer->modelFinished(model);
        }
        result.models.push_back(std::move(model));
    }

    if (result.models.empty() && !result.failures.empty() && !result.cancelled)
        throw io::InputError("every model failed; " + result.failures.front().model + ": " +
                             result.failures.front().message);

    const auto best = std::min_element(result.models.begin(), result.models.end(),
                                       [](const ModelResult &left, const ModelResult &right) {
                                           // NaN (a diverged model) never wins.
                                           if (std::isnan(right.mean.rmse))
                                               return !std::isnan(left.mean.rmse);
                                           return left.mean.rmse < right.mean.rmse;
                                       });
    if (best != result.models.end())
        result.best = best->name;
    if (!result.cancelled)
        result.significance = compareWithBest(result, dataset);
    result.seconds = secondsSince(start);
    return result;
}

std::size_t splitsPerRepetition(const ExperimentResult &result)
{
    const auto repeats = static_cast<std::size_t>(std::max(result.repeats, 1));
    return std::max<std::size_t>(result.splits.size() / repeats, 1);
}

} // namespace gpumem::evaluation
