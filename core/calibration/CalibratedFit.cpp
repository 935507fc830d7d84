#include "calibration/CalibratedFit.h"

#include "calibration/Coverage.h"
#include "io/InputError.h"

namespace gpumem::calibration {

CalibratedFit fitCalibrated(models::Regressor &model, const data::Dataset &dataset,
                            const std::vector<Eigen::Index> &trainingRows, const CalibrationSettings &settings,
                            training::TrainingObserver *observer, training::TrainingControl *control)
{
    checkCoverage(settings.coverage);
    if (!dataset.hasTarget())
        throw io::InputError("calibrating needs the target column");
    CalibratedFit result;
    result.rows = splitCalibrationRows(trainingRows, settings.fraction, settings.seed);
    // Before the fit, which can take minutes: a coverage the rows cannot serve is known now.
    checkCalibrationRowsSuffice(settings.score, result.rows.calibration.size(), settings.coverage);
    result.training = model.fit(dataset, result.rows.fit, observer, control);
    if (result.training.stopReason == training::StopReason::NotFinite ||
        result.training.stopReason == training::StopReason::Cancelled)
        return result;
    result.predicted = model.predict(dataset);
    result.calibration =
        Calibration::fit(settings.score, dataset.numericFeatures(), dataset.numericFeatureNames(), dataset.target(),
                         result.predicted, result.rows, settings.coverage, settings.seed);
    return result;
}

} // namespace gpumem::calibration
