// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/CalibratedFit.h"

#include "calibration/Coverage.h"
#include "calibration/MemberSpread.h"
#include "io/InputError.h"

#include <algorithm>

namespace gpumem::calibration {

CalibratedFit fitCalibrated(models::Regressor &model, const data::Dataset &dataset,
                            const std::vector<Eigen::Index> &trainingRows, const CalibrationSettings &settings,
                            training::TrainingObserver *observer, runtime::OperationControl *control)
{
    checkCoverage(settings.coverage);
    if (!dataset.hasTarget())
        throw io::InputError("calibrating needs the target column");
    CalibratedFit result;
    result.rows = splitCalibrationRows(trainingRows, settings.fraction, settings.seed);
    // Before the fit, which can take minutes: a coverage the rows cannot serve is known now.
    checkCalibrationRowsSuffice(settings.score, result.rows.calibration.size(), settings.coverage);
    if (settings.score == Score::Spread)
        checkModelHasMembers(model);
    result.training = model.fit(dataset, result.rows.fit, observer, control);
    if (result.training.stopReason == training::StopReason::NotFinite ||
        result.training.stopReason == training::StopReason::Cancelled)
        return result;
    result.predicted = model.predict(dataset);
    // The difficulty may read only columns the model itself reads: predict loads
    // those alone (formula and allocator_sim read none of the plain numeric columns).
    const std::vector<std::string> &modelColumns = model.schema().encoding.numericColumns;
    std::vector<std::string> names;
    std::vector<Eigen::Index> columns;
    for (std::size_t column = 0; column < dataset.numericFeatureNames().size(); ++column) {
        const std::string &name = dataset.numericFeatureNames()[column];
        if (std::find(modelColumns.begin(), modelColumns.end(), name) != modelColumns.end()) {
            names.push_back(name);
            columns.push_back(static_cast<Eigen::Index>(column));
        }
    }
    Eigen::MatrixXd features(dataset.numericFeatures().rows(), static_cast<Eigen::Index>(columns.size()));
    for (std::size_t column = 0; column < columns.size(); ++column)
        features.col(static_cast<Eigen::Index>(column)) = dataset.numericFeatures().col(columns[column]);
    // The spread of the model that never saw the calibration rows scores them, as its predictions do.
    result.memberSpread = memberSpreadForScore(settings.score, model, dataset, result.predicted);
    result.calibration = Calibration::fit(settings.score, features, names, dataset.target(), result.predicted,
                                          result.rows, settings.coverage, settings.seed, result.memberSpread);
    result.calibrationPredicted = result.predicted;
    if (!settings.refit)
        return result;
    training::TrainingResult refit = model.fit(dataset, trainingRows, observer, control);
    if (refit.stopReason == training::StopReason::NotFinite || refit.stopReason == training::StopReason::Cancelled) {
        result.training = std::move(refit);
        result.calibration.reset();
        return result;
    }
    // The kept model's training (its epochs) is the one reported, timed with the first fit's.
    refit.seconds += result.training.seconds;
    result.training = std::move(refit);
    result.predicted = model.predict(dataset);
    result.memberSpread = memberSpreadForScore(settings.score, model, dataset, result.predicted);
    result.refitted = true;
    return result;
}

} // namespace gpumem::calibration
