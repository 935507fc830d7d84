// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"
#include "io/Json.h"
#include "io/JsonWriter.h"

#include <cstddef>

namespace gpumem::report {

// The "bound" member of a model in a comparison's JSON (docs/comparison-report.md):
//   {"coverage", "score", "calibration_fraction", "bound": {metrics}, "ten_percent": {metrics},
//    "fixed_headroom_percent", "fixed_headroom": {metrics},
//    "curve": [{"margin", "under_rate", "mean_over_alloc_mib"}, …],
//    "per_fold": [{"calibration_rows", "margin", "bound", "ten_percent", "fixed_headroom_percent",
//                  "fixed_headroom", "curve"}, …], "upper_bounds": [per row, null where never tested]}
// ("upper_bounds" only with rows). The metrics objects are calibration::writeBoundMetrics()'s.

// The most points a stored trade-off curve may hold.
constexpr std::size_t maxCurvePoints = 10000;

// Writes model's bound, calibrated with settings, as one object value (the caller writes the key).
void writeModelBound(io::JsonWriter &json, const calibration::CalibrationSettings &settings,
                     const evaluation::ModelResult &model, bool withRows);

// Reads what writeModelBound() wrote into model (its folds already read) and
// returns the settings it names. Throws io::InputError (without a file) when malformed.
calibration::CalibrationSettings readModelBound(const io::Json &object, evaluation::ModelResult &model);

} // namespace gpumem::report
