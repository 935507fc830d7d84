// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"
#include "io/Json.h"

#include <cstddef>

namespace gpumem::report {

// The "bound" member of a model in a comparison's JSON (docs/comparison-report.md):
//   {"coverage", "score", "calibration_fraction", "bound": {metrics}, "ten_percent": {metrics},
//    "fixed_headroom_percent", "fixed_headroom": {metrics},
//    "curve": [{"margin", "under_rate", "mean_over_alloc_mib"}, …],
//    "per_fold": [{"calibration_rows", "margin", "bound", "ten_percent", "fixed_headroom_percent",
//                  "fixed_headroom", "curve"} | null, …], "upper_bounds": [per row, null where never tested]}
// ("upper_bounds" only with rows). The metrics objects and curve points are
// calibration::BoundMetrics' and calibration::TradeOffPoint's JSON forms.

// The most points a stored trade-off curve may hold.
constexpr std::size_t maxCurvePoints = 10000;

// Returns model's bound, calibrated with settings, in the form above; withRows
// adds "upper_bounds". model.bound must be set.
io::Json modelBoundJson(const calibration::CalibrationSettings &settings, const evaluation::ModelResult &model,
                        bool withRows);

// Reads what modelBoundJson() wrote into model (its folds already read) and
// returns the settings it names. Throws io::InputError (without a file) when malformed.
calibration::CalibrationSettings readModelBound(const io::Json &object, evaluation::ModelResult &model);

} // namespace gpumem::report

namespace gpumem::calibration {

// The settings' members of a model's bound: {"coverage", "score", "calibration_fraction"}
// (the seed is the comparison's own).
void to_json(io::Json &json, const CalibrationSettings &settings);
// Reads what to_json() wrote; a missing fraction keeps the default. Throws
// io::InputError when the coverage is outside (0, 1) or the score unknown.
void from_json(const io::Json &json, CalibrationSettings &settings);

} // namespace gpumem::calibration

namespace gpumem::evaluation {

// One fold's bound, an item of the bound's "per_fold" above (its calibration rows are not kept).
void to_json(io::Json &json, const FoldBound &bound);
// Reads what to_json() wrote. Throws io::InputError (without a file) when malformed.
void from_json(const io::Json &json, FoldBound &bound);

} // namespace gpumem::evaluation
