// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/BoundJson.h"

#include "calibration/Coverage.h"
#include "io/InputError.h"

#include <limits>

namespace gpumem::report {

namespace {

constexpr double notANumber = std::numeric_limits<double>::quiet_NaN();

void writeCurve(io::JsonWriter &json, const std::vector<calibration::TradeOffPoint> &curve)
{
    json.beginArray();
    for (const auto &point : curve) {
        json.beginObject();
        json.key("margin").value(point.margin);
        json.key("under_rate").value(point.underPredictionRate);
        json.key("mean_over_alloc_mib").value(point.meanOverAllocation);
        json.endObject();
    }
    json.endArray();
}

// The members every fold and the model's means share.
void writeReferences(io::JsonWriter &json, const calibration::BoundMetrics &bound,
                     const calibration::BoundMetrics &tenPercent, double fixedHeadroomPercent,
                     const calibration::BoundMetrics &fixedHeadroom,
                     const std::vector<calibration::TradeOffPoint> &curve)
{
    json.key("bound");
    calibration::writeBoundMetrics(json, bound);
    json.key("ten_percent");
    calibration::writeBoundMetrics(json, tenPercent);
    json.key("fixed_headroom_percent").value(fixedHeadroomPercent);
    json.key("fixed_headroom");
    calibration::writeBoundMetrics(json, fixedHeadroom);
    json.key("curve");
    writeCurve(json, curve);
}

std::size_t countOf(const io::Json &object, std::string_view key, std::size_t most)
{
    const double value = io::numberOr(object, key, 0.0);
    if (!(value >= 0.0 && value <= static_cast<double>(most)))
        throw io::InputError("\"" + std::string(key) + "\" must be a count of at most " + std::to_string(most));
    return static_cast<std::size_t>(value);
}

calibration::BoundMetrics readMetrics(const io::Json &object)
{
    calibration::BoundMetrics metrics;
    metrics.rows = countOf(object, "rows", std::size_t{1} << 40);
    metrics.underPredictionRate = io::numberOr(object, "under_prediction_rate", notANumber);
    metrics.meanOverAllocation = io::numberOr(object, "mean_over_allocation_mib", notANumber);
    metrics.medianOverAllocation = io::numberOr(object, "median_over_allocation_mib", notANumber);
    metrics.meanOverAllocationPercent = io::numberOr(object, "mean_over_allocation_percent", notANumber);
    metrics.medianOverAllocationPercent = io::numberOr(object, "median_over_allocation_percent", notANumber);
    return metrics;
}

std::vector<calibration::TradeOffPoint> readCurve(const io::Json &array)
{
    const auto &items = io::toArray(array);
    if (items.size() > maxCurvePoints)
        throw io::InputError("a trade-off curve may hold at most " + std::to_string(maxCurvePoints) + " points");
    std::vector<calibration::TradeOffPoint> curve;
    for (const auto &item : items)
        curve.push_back({io::numberOr(item, "margin", notANumber), io::numberOr(item, "under_rate", notANumber),
                         io::numberOr(item, "mean_over_alloc_mib", notANumber)});
    return curve;
}

} // namespace

void writeModelBound(io::JsonWriter &json, const calibration::CalibrationSettings &settings,
                     const evaluation::ModelResult &model, bool withRows)
{
    const evaluation::ModelBound &bound = *model.bound;
    json.beginObject();
    json.key("coverage").value(settings.coverage);
    json.key("score").value(std::string(calibration::scoreName(settings.score)));
    json.key("calibration_fraction").value(settings.fraction);
    writeReferences(json, bound.bound, bound.tenPercent, bound.fixedHeadroomPercent, bound.fixedHeadroom, bound.curve);
    json.key("per_fold").beginArray();
    for (const auto &fold : model.folds) {
        if (!fold.bound) {
            json.null(); // a fit that diverged has no bound
            continue;
        }
        json.beginObject();
        json.key("calibration_rows").value(fold.bound->calibrationRowCount);
        json.key("margin").value(fold.bound->margin);
        writeReferences(json, fold.bound->bound, fold.bound->tenPercent, fold.bound->fixedHeadroomPercent,
                        fold.bound->fixedHeadroom, fold.bound->curve);
        json.endObject();
    }
    json.endArray();
    if (withRows) {
        json.key("upper_bounds").beginArray();
        for (Eigen::Index row = 0; row < bound.upperBounds.size(); ++row)
            json.value(bound.upperBounds[row]); // NaN (never tested) becomes null
        json.endArray();
    }
    json.endObject();
}

calibration::CalibrationSettings readModelBound(const io::Json &object, evaluation::ModelResult &model)
{
    calibration::CalibrationSettings settings;
    settings.coverage = io::toNumber(io::member(object, "coverage"));
    calibration::checkCoverage(settings.coverage, "a bound's coverage");
    settings.score = calibration::parseScore(io::toString(io::member(object, "score")));
    settings.fraction = io::numberOr(object, "calibration_fraction", settings.fraction);

    evaluation::ModelBound bound;
    bound.bound = readMetrics(io::member(object, "bound"));
    bound.tenPercent = readMetrics(io::member(object, "ten_percent"));
    bound.fixedHeadroomPercent = io::numberOr(object, "fixed_headroom_percent", notANumber);
    bound.fixedHeadroom = readMetrics(io::member(object, "fixed_headroom"));
    bound.curve = readCurve(io::member(object, "curve"));
    const auto &perFold = io::toArray(io::member(object, "per_fold"));
    if (perFold.size() != model.folds.size())
        throw io::InputError("model '" + model.name + "' has " + std::to_string(perFold.size()) + " bound folds for " +
                             std::to_string(model.folds.size()) + " folds");
    for (std::size_t index = 0; index < perFold.size(); ++index) {
        const io::Json &item = perFold[index];
        if (item.is_null())
            continue;
        evaluation::FoldBound fold;
        fold.calibrationRowCount = countOf(item, "calibration_rows", std::size_t{1} << 40);
        fold.margin = io::numberOr(item, "margin", notANumber);
        fold.bound = readMetrics(io::member(item, "bound"));
        fold.tenPercent = readMetrics(io::member(item, "ten_percent"));
        fold.fixedHeadroomPercent = io::numberOr(item, "fixed_headroom_percent", notANumber);
        fold.fixedHeadroom = readMetrics(io::member(item, "fixed_headroom"));
        fold.curve = readCurve(io::member(item, "curve"));
        model.folds[index].bound = std::move(fold);
    }
    if (const io::Json *rows = io::findMember(object, "upper_bounds")) {
        const auto &items = io::toArray(*rows);
        bound.upperBounds.resize(static_cast<Eigen::Index>(items.size()));
        for (std::size_t row = 0; row < items.size(); ++row)
            bound.upperBounds[static_cast<Eigen::Index>(row)] =
                items[row].is_null() ? notANumber : io::toNumber(items[row]);
    }
    model.bound = std::move(bound);
    return settings;
}

} // namespace gpumem::report
