// SPDX-License-Identifier: GPL-3.0-or-later
#include "calibration/Calibration.h"

#include "calibration/Coverage.h"
#include "calibration/MemberSpread.h"
#include "data/SeededRandom.h"
#include "io/InputError.h"
#include "io/NamedValues.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace gpumem::calibration {

namespace {

std::string coverageText(double coverage)
{
    std::ostringstream text;
    text << coverage;
    return text.str();
}

// The relative score divides by the prediction; a prediction at or below 1 MiB
// (a broken model, or a negative one from a linear fit) must not flip or blow up the bound.
double relativeScale(double predicted)
{
    return std::isnan(predicted) ? predicted : std::max(predicted, 1.0);
}

constexpr io::NamedValues<Score, 4> kScores{{{"absolute", Score::Absolute},
                                             {"relative", Score::Relative},
                                             {"difficulty", Score::Difficulty},
                                             {"spread", Score::Spread}}};

} // namespace

std::string_view scoreName(Score score)
{
    return io::nameOf(kScores, score);
}

Score parseScore(std::string_view name)
{
    return io::parseNamedOr(kScores, name, [](const std::string &quoted) {
        return "unknown calibration score " + quoted + "; choose absolute, relative, difficulty or spread";
    });
}

Calibration::Calibration(Score score, double coverage, std::size_t calibrationRowCount,
                         std::vector<double> sortedScores, std::optional<DifficultyModel> difficulty,
                         std::optional<double> spreadFloor)
    : mScore(score)
    , mCoverage(coverage)
    , mCalibrationRowCount(calibrationRowCount)
    , mSortedScores(std::move(sortedScores))
    , mDifficulty(std::move(difficulty))
    , mSpreadFloor(spreadFloor)
{
    if (mScore == Score::Difficulty && !mDifficulty)
        throw std::invalid_argument("a difficulty calibration needs its difficulty model");
    if ((mScore == Score::Spread) != mSpreadFloor.has_value() || (mSpreadFloor && !(*mSpreadFloor > 0.0)))
        throw std::invalid_argument("a positive spread floor belongs to a spread calibration, and only there");
}

Calibration Calibration::fit(Score score, const Eigen::MatrixXd &features, const std::vector<std::string> &featureNames,
                             const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted,
                             const CalibrationRows &rows, double coverage, std::uint64_t seed,
                             const Eigen::VectorXd &memberSpread)
{
    checkCoverage(coverage);
    if (rows.calibration.empty() || rows.fit.empty())
        throw io::InputError("calibrating needs both fit rows and calibration rows");
    for (Eigen::Index row : rows.calibration)
        if (!std::isfinite(actual[row]) || !std::isfinite(predicted[row]))
            throw io::InputError("cannot calibrate: row " + std::to_string(row + 1) +
                                 " has a non-finite actual or predicted value");

    std::vector<Eigen::Index> scoreRows = rows.calibration;
    std::optional<DifficultyModel> difficulty;
    if (score == Score::Difficulty) {
        if (rows.calibration.size() < 2)
            throw io::InputError("the difficulty score needs at least 2 calibration rows, one to fit the difficulty "
                                 "and one to calibrate; there is 1");
        // A seeded half of the calibration rows fits the difficulty model; the scores
        // come from the other half only, so they stay exchangeable with new jobs.
        const std::vector<Eigen::Index> order =
            data::shuffledRows(static_cast<Eigen::Index>(rows.calibration.size()), seed ^ 0x646966666963756cull);
        const std::size_t difficultyCount = rows.calibration.size() / 2;
        std::vector<Eigen::Index> difficultyRows;
        scoreRows.clear();
        for (std::size_t position = 0; position < order.size(); ++position)
            (position < difficultyCount ? difficultyRows : scoreRows)
                .push_back(rows.calibration[static_cast<std::size_t>(order[position])]);
        std::sort(difficultyRows.begin(), difficultyRows.end());
        std::sort(scoreRows.begin(), scoreRows.end());
        double floor = actual[rows.fit.front()];
        for (Eigen::Index row : rows.fit)
            floor = std::min(floor, actual[row]);
        difficulty = DifficultyModel::fit(features, featureNames, actual, predicted, difficultyRows, floor);
    }

    std::optional<double> spreadFloor;
    if (score == Score::Spread) {
        if (memberSpread.size() != predicted.size())
            throw std::invalid_argument("the spread score needs the members' spread on every row");
        for (Eigen::Index row : rows.calibration)
            if (!std::isfinite(memberSpread[row]))
                throw io::InputError("cannot calibrate: the members' spread on row " + std::to_string(row + 1) +
                                     " is not finite");
        spreadFloor = fitSpreadFloor(memberSpread, rows.fit);
    }

    Calibration calibration(score, coverage, rows.calibration.size(), {}, std::move(difficulty), spreadFloor);
    const Eigen::VectorXd scale = calibration.scales(features, featureNames, predicted, memberSpread);
    std::vector<double> scores;
    scores.reserve(scoreRows.size());
    for (Eigen::Index row : scoreRows)
        scores.push_back((actual[row] - predicted[row]) / scale[row]);
    std::sort(scores.begin(), scores.end());
    calibration.mSortedScores = std::move(scores);
    return calibration;
}

std::size_t scoreRowCount(Score score, std::size_t calibrationRows)
{
    // Difficulty scores come from the larger half of the calibration rows.
    return score == Score::Difficulty ? calibrationRows - calibrationRows / 2 : calibrationRows;
}

void checkCalibrationRowsSuffice(Score score, std::size_t calibrationRows, double coverage)
{
    checkCoverage(coverage);
    const std::size_t scores = scoreRowCount(score, calibrationRows);
    if (conformalRank(scores, coverage) <= scores)
        return;
    const std::size_t neededScores = requiredScoreCount(coverage);
    const std::size_t neededRows = score == Score::Difficulty ? 2 * neededScores - 1 : neededScores;
    throw io::InputError("coverage " + coverageText(coverage) + " needs at least " + std::to_string(neededRows) +
                         " calibration rows with the " + std::string(scoreName(score)) + " score, but there are " +
                         std::to_string(calibrationRows) + " (train on more rows or with a larger " +
                         io::parameter("calibration_fraction") + ", or ask for less coverage)");
}

double Calibration::margin(double coverage) const
{
    checkCalibrationRowsSuffice(mScore, mCalibrationRowCount, coverage);
    // A stored calibration may hold fewer scores than its row count implies; the scores decide.
    const std::size_t rank = conformalRank(mSortedScores.size(), coverage);
    if (rank > mSortedScores.size())
        throw io::InputError("coverage " + coverageText(coverage) + " needs " + std::to_string(rank) +
                             " calibration scores, but the calibration holds " + std::to_string(mSortedScores.size()));
    return mSortedScores[rank - 1];
}

Eigen::VectorXd Calibration::scales(const Eigen::MatrixXd &features, const std::vector<std::string> &featureNames,
                                    const Eigen::VectorXd &predicted, const Eigen::VectorXd &memberSpread) const
{
    switch (mScore) {
    case Score::Absolute: return Eigen::VectorXd::Ones(predicted.size());
    case Score::Relative: return predicted.unaryExpr(&relativeScale);
    case Score::Difficulty: return mDifficulty->scales(features, featureNames, predicted);
    case Score::Spread:
        if (memberSpread.size() != predicted.size())
            throw std::invalid_argument("the spread score needs the members' spread on every row");
        // The relative spread becomes MiB as the relative score's scale does; the floor keeps it above 0.
        return predicted.unaryExpr(&relativeScale).cwiseProduct(memberSpread.cwiseMax(*mSpreadFloor));
    }
    return Eigen::VectorXd::Ones(predicted.size());
}

Eigen::VectorXd Calibration::upperBounds(const Eigen::MatrixXd &features, const std::vector<std::string> &featureNames,
                                         const Eigen::VectorXd &predicted, double coverage,
                                         const Eigen::VectorXd &memberSpread) const
{
    const double chosen = margin(coverage);
    return predicted + chosen * scales(features, featureNames, predicted, memberSpread);
}

} // namespace gpumem::calibration
