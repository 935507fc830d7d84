// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/Experiment.h"

#include "calibration/Coverage.h"
#include "evaluation/FoldFits.h"
#include "io/InputError.h"
#include "models/RegressorRegistry.h"
#include "runtime/Stopwatch.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>

namespace gpumem::evaluation {

namespace {

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
            // Few folds report the t-test (see minimumWilcoxonPairs); fewer than
            // minimumReportedPairs report none.
            test.reported =
                test.pairs >= minimumReportedPairs && (test.test == "paired_t") == (test.pairs < minimumWilcoxonPairs);
            tests.push_back(test);
        }
    }
    return tests;
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

// Moves the models whose every fold finished into result with their means and
// spreads; a failed model goes to failures (and warnings), one cut short by a cancel nowhere.
void summariseModels(FoldFits &fits, ExperimentObserver *observer, ExperimentResult &result)
{
    const int foldCount = static_cast<int>(result.splits.size());
    for (std::size_t m = 0; m < fits.models().size(); ++m) {
        ModelResult &model = fits.models()[m];
        if (!fits.failure(m).empty()) {
            result.failures.push_back({model.name, fits.failure(m)});
            result.warnings.push_back(model.name + " failed: " + fits.failure(m));
            continue;
        }
        bool complete = true;
        for (int fold = 0; fold < foldCount; ++fold) {
            for (const auto &warning : fits.warnings(m, fold))
                if (std::find(model.warnings.begin(), model.warnings.end(), warning) == model.warnings.end())
                    model.warnings.push_back(warning);
            const FoldResult &foldResult = model.folds[static_cast<std::size_t>(fold)];
            complete = complete && fits.finished(m, fold);
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
        if (!result.inputs.empty()) {
            std::vector<std::vector<std::vector<double>>> importance;
            std::vector<std::vector<std::vector<double>>> partialDependence;
            for (const FoldResult &foldResult : model.folds) {
                importance.push_back(foldResult.importance);
                partialDependence.push_back(foldResult.partialDependence);
            }
            model.importance = summariseImportance(result.inputs, importance);
            model.partialDependence = summarisePartialDependence(result.partialDependenceGrids, partialDependence);
        }
        if (observer) // every fit has ended: nothing calls the observer beside this
            observer->modelFinished(model);
        result.models.push_back(std::move(model));
    }
}

} // namespace

ExperimentResult runExperiment(const data::Dataset &dataset, const ExperimentSettings &settings,
                               ExperimentObserver *observer, runtime::OperationControl *control)
{
    const runtime::Stopwatch time;
    if (!dataset.hasTarget())
        throw io::InputError("the data has no target column to compare models on");
    if (settings.models.empty())
        throw io::InputError("no models to compare");
    for (const auto &spec : settings.models)
        models::regressorTitle(spec.name); // throws for an unknown name, before any work

    if (settings.calibration)
        calibration::checkCoverage(settings.calibration->coverage);
    if (settings.explanation &&
        (!settings.explanation->inputs || settings.explanation->inputs->rowCount() != dataset.rowCount()))
        throw std::invalid_argument("explaining a comparison needs the inputs of its dataset's rows");

    ExperimentResult result;
    result.calibration = settings.calibration;
    result.splits = splitsFor(static_cast<Eigen::Index>(dataset.rowCount()), settings);
    result.repeats = settings.repeats;
    if (settings.calibration)
        for (const Split &split : result.splits) {
            // Known before any fit, which can take minutes: a coverage the folds cannot serve.
            const std::size_t rows = calibration::splitCalibrationRows(split.train, settings.calibration->fraction,
                                                                       settings.calibration->seed)
                                         .calibration.size();
            calibration::checkCalibrationRowsSuffice(settings.calibration->score, rows, settings.calibration->coverage);
        }
    result.actual = dataset.target();

    FoldFits fits(dataset, settings, result.splits, observer, control);
    if (settings.explanation) {
        for (const ModelInput &input : settings.explanation->inputs->inputs())
            result.inputs.push_back(input.name);
        result.partialDependenceGrids = fits.grids();
    }
    fits.run();
    result.cancelled = fits.cancelled();
    summariseModels(fits, observer, result);
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
    result.seconds = time.seconds();
    return result;
}

std::size_t splitsPerRepetition(const ExperimentResult &result)
{
    const auto repeats = static_cast<std::size_t>(std::max(result.repeats, 1));
    return std::max<std::size_t>(result.splits.size() / repeats, 1);
}

} // namespace gpumem::evaluation
