// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/CalibrationOptions.h"

#include "calibration/Calibration.h"
#include "calibration/Coverage.h"
#include "cli/CommandParser.h"
#include "io/InputError.h"

namespace gpumem::cli {

void addCalibrationOptions(CLI::App &app, CalibrationOptions &options, CalibrationScope scope)
{
    const bool eachFold = scope == CalibrationScope::EachFold;
    app.add_option("--coverage", options.coverage,
                   eachFold ? "also calibrate each fold's fit inside its training rows and score an upper bound that "
                              "holds a share C of new jobs, e.g. 0.95"
                            : "calibrate an upper bound that holds a share C of new jobs, e.g. 0.95, and store it "
                              "with the model")
        ->type_name("C")
        ->transform(
            numberReadBy([](const std::string &text) { return calibration::parseCoverage(text, "--coverage"); }));
    app.add_option("--calibration-fraction", options.fraction,
                   eachFold ? "with --coverage: the share of each fold's training rows set aside to calibrate "
                              "(default 0.2)"
                            : "with --coverage: the share of the training rows set aside to calibrate, before the "
                              "model trains again on all of them (default 0.2)")
        ->type_name("F")
        ->transform(fractionBelowOne());
    app.add_option("--calibration-score", options.score,
                   "with --coverage: how residuals are normalised (default difficulty; see docs/calibration.md)")
        ->type_name("absolute|relative|difficulty|spread")
        ->check(textCheckedBy([](const std::string &text) { calibration::parseScore(text); }));
}

std::optional<calibration::CalibrationSettings> calibrationSettingsFrom(const CalibrationOptions &options,
                                                                        std::uint64_t seed)
{
    if (!options.coverage) {
        if (options.fraction)
            throw io::InputError("--calibration-fraction takes effect only with --coverage");
        if (options.score)
            throw io::InputError("--calibration-score takes effect only with --coverage");
        return std::nullopt;
    }
    calibration::CalibrationSettings settings;
    settings.seed = seed;
    settings.coverage = *options.coverage;
    if (options.fraction) {
        if (*options.fraction == 0.0)
            throw io::InputError("--calibration-fraction must be above 0");
        settings.fraction = *options.fraction;
    }
    if (options.score)
        settings.score = calibration::parseScore(*options.score);
    return settings;
}

} // namespace gpumem::cli
