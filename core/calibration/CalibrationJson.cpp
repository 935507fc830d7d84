// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/CalibrationJson.h"

#include "calibration/Coverage.h"
#include "calibration/MemberSpread.h"
#include "io/InputError.h"
#include "models/ModelFolder.h"

#include <cmath>
#include <sstream>

namespace gpumem::calibration {

namespace {

// exp() of a log-scale estimate beyond this overflows or underflows a double.
constexpr double maxLogScale = 700.0;
// The largest spread floor read: members that disagree by a factor e^10 on the
// jobs they trained on hold no usable model, and a larger floor could overflow a bound.
constexpr double maxSpreadFloor = 10.0;

double readFinite(const io::Json &value, const std::string &what)
{
    const double number = io::toNumber(value);
    if (!std::isfinite(number))
        throw io::InputError(what + " must be a finite number");
    return number;
}

std::vector<double> readNumbers(const io::Json &value, std::size_t maxCount, const std::string &what)
{
    const auto &items = io::toArray(value);
    if (items.size() > maxCount)
        throw io::InputError(what + " holds " + std::to_string(items.size()) + " numbers, more than the " +
                             std::to_string(maxCount) + " allowed");
    std::vector<double> numbers;
    numbers.reserve(items.size());
    for (const auto &item : items)
        numbers.push_back(readFinite(item, what + "'s items"));
    return numbers;
}

// Reads the "spread" member of a spread calibration: {"floor": F}.
double readSpreadFloor(const io::Json &value)
{
    const double floor = readFinite(io::member(value, "floor"), "the spread's \"floor\"");
    if (!(floor >= minimumSpreadFloor && floor <= maxSpreadFloor)) {
        std::ostringstream message;
        message << "the spread's \"floor\" must be between " << minimumSpreadFloor << " and " << maxSpreadFloor;
        throw io::InputError(message.str());
    }
    return floor;
}

} // namespace

void to_json(io::Json &json, const DifficultyModel &difficulty)
{
    json = io::Json::object();
    json["floor"] = difficulty.floor;
    json["columns"] = difficulty.columns;
    json["means"] = difficulty.means;
    json["deviations"] = difficulty.deviations;
    json["coefficients"] = difficulty.coefficients;
    json["lowest"] = difficulty.lowest;
    json["highest"] = difficulty.highest;
}

void from_json(const io::Json &value, DifficultyModel &model)
{
    model.floor = readFinite(io::member(value, "floor"), "the difficulty's \"floor\"");
    model.columns =
        models::readStrings(io::member(value, "columns"), models::maxModelColumns, "the difficulty's columns");
    const std::size_t inputs = model.columns.size() + 1;
    model.means = readNumbers(io::member(value, "means"), inputs, "the difficulty's \"means\"");
    model.deviations = readNumbers(io::member(value, "deviations"), inputs, "the difficulty's \"deviations\"");
    model.coefficients =
        readNumbers(io::member(value, "coefficients"), inputs + 1, "the difficulty's \"coefficients\"");
    if (model.means.size() != inputs || model.deviations.size() != inputs || model.coefficients.size() != inputs + 1)
        throw io::InputError("the difficulty's means, deviations and coefficients must hold " + std::to_string(inputs) +
                             ", " + std::to_string(inputs) + " and " + std::to_string(inputs + 1) +
                             " numbers for its " + std::to_string(model.columns.size()) + " columns");
    for (double deviation : model.deviations)
        if (!(deviation > 0.0))
            throw io::InputError("the difficulty's \"deviations\" must be positive");
    model.lowest = readFinite(io::member(value, "lowest"), "the difficulty's \"lowest\"");
    model.highest = readFinite(io::member(value, "highest"), "the difficulty's \"highest\"");
    if (!(model.lowest <= model.highest && model.lowest >= -maxLogScale && model.highest <= maxLogScale))
        throw io::InputError("the difficulty's \"lowest\" and \"highest\" must be ordered and within +-" +
                             std::to_string(static_cast<int>(maxLogScale)));
}

void to_json(io::Json &json, const Calibration &calibration)
{
    json = io::Json{{"score", scoreName(calibration.score())},
                    {"coverage", calibration.coverage()},
                    {"calibration_rows", calibration.calibrationRowCount()},
                    {"scores", calibration.sortedScores()}};
    if (const auto &difficulty = calibration.difficulty())
        json["difficulty"] = *difficulty;
    if (const auto &floor = calibration.spreadFloor())
        json["spread"] = io::Json{{"floor", *floor}};
}

Calibration readCalibration(const io::Json &value)
{
    const Score score = parseScore(io::toString(io::member(value, "score")));
    const double coverage = io::toNumber(io::member(value, "coverage"));
    checkCoverage(coverage, "the calibration's \"coverage\"");
    std::vector<double> scores =
        readNumbers(io::member(value, "scores"), maxCalibrationScores, "the calibration's \"scores\"");
    if (scores.empty())
        throw io::InputError("the calibration's \"scores\" must not be empty");
    // Finite is not enough: -1e308 times a scale above 1 is an upper bound of -inf.
    for (std::size_t i = 0; i < scores.size(); ++i)
        if (!(std::abs(scores[i]) <= maxCalibrationScoreMagnitude)) {
            std::ostringstream message;
            message << "the calibration's \"scores\" must lie within +-" << maxCalibrationScoreMagnitude << " (item "
                    << i << " is " << scores[i] << ")";
            throw io::InputError(message.str());
        }
    for (std::size_t i = 1; i < scores.size(); ++i)
        if (scores[i] < scores[i - 1])
            throw io::InputError("the calibration's \"scores\" must be in ascending order (item " + std::to_string(i) +
                                 " is smaller than the one before)");
    const auto rows = static_cast<std::size_t>(
        io::toWholeNumber(io::member(value, "calibration_rows"), static_cast<std::int64_t>(scores.size()),
                          2 * static_cast<std::int64_t>(maxCalibrationScores), "\"calibration_rows\""));
    std::optional<DifficultyModel> difficulty;
    const io::Json *stored = io::findMember(value, "difficulty");
    if (score == Score::Difficulty) {
        if (!stored)
            throw io::InputError("a difficulty calibration lacks its \"difficulty\" member");
        difficulty = stored->get<DifficultyModel>();
    } else if (stored) {
        throw io::InputError("only a difficulty calibration has a \"difficulty\" member");
    }
    std::optional<double> spreadFloor;
    const io::Json *spread = io::findMember(value, "spread");
    if (score == Score::Spread) {
        if (!spread)
            throw io::InputError("a spread calibration lacks its \"spread\" member");
        spreadFloor = readSpreadFloor(*spread);
    } else if (spread) {
        throw io::InputError("only a spread calibration has a \"spread\" member");
    }
    return Calibration(score, coverage, rows, std::move(scores), std::move(difficulty), spreadFloor);
}

std::optional<Calibration> readStoredCalibration(const io::Json &metadata, const std::string &directory)
{
    const io::Json *stored = io::findMember(metadata, "calibration");
    if (!stored)
        return std::nullopt;
    try {
        return readCalibration(*stored);
    } catch (const io::InputError &error) {
        throw io::InputError(directory + "/model.json", 0, 0, "\"calibration\": " + error.markedMessage());
    }
}

void saveCalibratedModel(const models::Regressor &model, const std::optional<Calibration> &calibration,
                         const std::string &directory)
{
    if (calibration)
        model.save(directory, {{"calibration", *calibration}});
    else
        model.save(directory);
}

} // namespace gpumem::calibration
