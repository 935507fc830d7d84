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

std::size_t countOf(const io::JsonValue &object, std::string_view key, std::size_t most)
{
    const double value = object.numberOr(key, 0.0);
    if (!(value >= 0.0 && value <= static_cast<double>(most)))
        throw io::InputError("\"" + std::string(key) + "\" must be a count of at most " + std::to_string(most));
    return static_cast<std::size_t>(value);
}

calibration::BoundMetrics readMetrics(const io::JsonValue &object)
{
    calibration::BoundMetrics metrics;
    metrics.rows = countOf(object, "rows", std::size_t{1} << 40);
    metrics.underPredictionRate = object.numberOr("under_prediction_rate", notANumber);
    metrics.meanOverAllocation = object.numberOr("mean_over_allocation_mib", notANumber);
    metrics.medianOverAllocation = object.numberOr("median_over_allocation_mib", notANumber);
    metrics.meanOverAllocationPercent = object.numberOr("mean_over_allocation_percent", notANumber);
    metrics.medianOverAllocationPercent = object.numberOr("median_over_allocation_percent", notANumber);
    return metrics;
}

std::vector<calibration::TradeOffPoint> readCurve(const io::JsonValue &array)
{
    const auto &items = array.toArray();
    if (items.size() > maxCurvePoints)
        throw io::InputError("a trade-off curve may hold at most " + std::to_string(maxCurvePoints) + " points");
    std::vector<calibration::TradeOffPoint> curve;
    for (const auto &item : items)
        curve.push_back({item.numberOr("margin", notANumber), item.numberOr("under_rate", notANumber),
                         item.numberOr("mean_over_alloc_mib", notANumber)});
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

calibration::CalibrationSettings readModelBound(const io::JsonValue &object, evaluation::ModelResult &model)
{
    calibration::CalibrationSettings settings;
    settings.coverage = object.at("coverage").toNumber();
    calibration::checkCoverage(settings.coverage, "a bound's coverage");
    settings.score = calibration::parseScore(object.at("score").toString());
    settings.fraction = object.numberOr("calibration_fraction", settings.fraction);

    evaluation::ModelBound bound;
    bound.bound = readMetrics(object.at("bound"));
    bound.tenPercent = readMetrics(object.at("ten_percent"));
    bound.fixedHeadroomPercent = object.numberOr("fixed_headroom_percent", notANumber);
    bound.fixedHeadroom = readMetrics(object.at("fixed_headroom"));
    bound.curve = readCurve(object.at("curve"));
    const auto &perFold = object.at("per_fold").toArray();
    if (perFold.size() != model.folds.size())
        throw io::InputError("model '" + model.name + "' has " + std::to_string(perFold.size()) + " bound folds for " +
                             std::to_string(model.folds.size()) + " folds");
    for (std::size_t index = 0; index < perFold.size(); ++index) {
        const io::JsonValue &item = perFold[index];
        if (item.isNull())
            continue;
        evaluation::FoldBound fold;
        fold.calibrationRowCount = countOf(item, "calibration_rows", std::size_t{1} << 40);
        fold.margin = item.numberOr("margin", notANumber);
        fold.bound = readMetrics(item.at("bound"));
        fold.tenPercent = readMetrics(item.at("ten_percent"));
        fold.fixedHeadroomPercent = item.numberOr("fixed_headroom_percent", notANumber);
        fold.fixedHeadroom = readMetrics(item.at("fixed_headroom"));
        fold.curve = readCurve(item.at("curve"));
        model.folds[index].bound = std::move(fold);
    }
    if (const io::JsonValue *rows = object.find("upper_bounds")) {
        const auto &items = rows->toArray();
        bound.upperBounds.resize(static_cast<Eigen::Index>(items.size()));
        for (std::size_t row = 0; row < items.size(); ++row)
            bound.upperBounds[static_cast<Eigen::Index>(row)] =
                items[row].isNull() ? notANumber : items[row].toNumber();
    }
    model.bound = std::move(bound);
    return settings;
}

} // namespace gpumem::report
