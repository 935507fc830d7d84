// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/BoundJson.h"

#include "calibration/Coverage.h"
#include "io/InputError.h"
#include "report/RowValuesJson.h"

#include <limits>

namespace gpumem::report {

namespace {

constexpr double notANumber = std::numeric_limits<double>::quiet_NaN();

std::vector<calibration::TradeOffPoint> readCurve(const io::Json &array)
{
    if (io::toArray(array).size() > maxCurvePoints)
        throw io::InputError("a trade-off curve may hold at most " + std::to_string(maxCurvePoints) + " points");
    return array.get<std::vector<calibration::TradeOffPoint>>();
}

// The members a fold's bound and the model's means over the folds share; both
// types name them alike.
template <typename Bound> void addReferences(io::Json &json, const Bound &bound)
{
    json["bound"] = bound.bound;
    json["ten_percent"] = bound.tenPercent;
    json["fixed_headroom_percent"] = bound.fixedHeadroomPercent;
    json["fixed_headroom"] = bound.fixedHeadroom;
    json["curve"] = bound.curve;
}

template <typename Bound> void readReferences(const io::Json &json, Bound &bound)
{
    bound.bound = io::member(json, "bound").get<calibration::BoundMetrics>();
    bound.tenPercent = io::member(json, "ten_percent").get<calibration::BoundMetrics>();
    bound.fixedHeadroomPercent = io::numberOr(json, "fixed_headroom_percent", notANumber);
    bound.fixedHeadroom = io::member(json, "fixed_headroom").get<calibration::BoundMetrics>();
    bound.curve = readCurve(io::member(json, "curve"));
}

} // namespace

io::Json modelBoundJson(const calibration::CalibrationSettings &settings, const evaluation::ModelResult &model,
                        bool withRows)
{
    const evaluation::ModelBound &bound = *model.bound;
    io::Json json = settings;
    addReferences(json, bound);
    io::Json perFold = io::Json::array();
    for (const auto &fold : model.folds)
        perFold.push_back(fold.bound ? io::Json(*fold.bound) : io::Json()); // a fit that diverged has no bound
    json["per_fold"] = std::move(perFold);
    if (withRows)
        json["upper_bounds"] = rowValuesJson(bound.upperBounds);
    return json;
}

calibration::CalibrationSettings readModelBound(const io::Json &object, evaluation::ModelResult &model)
{
    const auto settings = object.get<calibration::CalibrationSettings>();
    evaluation::ModelBound bound;
    readReferences(object, bound);
    const auto &perFold = io::toArray(io::member(object, "per_fold"));
    if (perFold.size() != model.folds.size())
        throw io::InputError("model '" + model.name + "' has " + std::to_string(perFold.size()) + " bound folds for " +
                             std::to_string(model.folds.size()) + " folds");
    for (std::size_t index = 0; index < perFold.size(); ++index)
        if (!perFold[index].is_null())
            model.folds[index].bound = perFold[index].get<evaluation::FoldBound>();
    if (const io::Json *rows = io::findMember(object, "upper_bounds"))
        bound.upperBounds = readRowValues(*rows);
    model.bound = std::move(bound);
    return settings;
}

} // namespace gpumem::report

namespace gpumem::calibration {

void to_json(io::Json &json, const CalibrationSettings &settings)
{
    json = io::Json{{"coverage", settings.coverage},
                    {"score", scoreName(settings.score)},
                    {"calibration_fraction", settings.fraction}};
}

void from_json(const io::Json &json, CalibrationSettings &settings)
{
    settings.coverage = io::toNumber(io::member(json, "coverage"));
    checkCoverage(settings.coverage, "a bound's coverage");
    settings.score = parseScore(io::toString(io::member(json, "score")));
    settings.fraction = io::numberOr(json, "calibration_fraction", settings.fraction);
}

} // namespace gpumem::calibration

namespace gpumem::evaluation {

void to_json(io::Json &json, const FoldBound &bound)
{
    json = io::Json{{"calibration_rows", bound.calibrationRowCount}, {"margin", bound.margin}};
    report::addReferences(json, bound);
}

void from_json(const io::Json &json, FoldBound &bound)
{
    bound.calibrationRowCount = static_cast<std::size_t>(io::toWholeNumber(
        io::member(json, "calibration_rows"), 0, std::int64_t{1} << 40, "a fold's \"calibration_rows\""));
    bound.margin = io::numberOr(json, "margin", report::notANumber);
    report::readReferences(json, bound);
}

} // namespace gpumem::evaluation
