// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "calibration/CalibrationRows.h"
#include "calibration/DifficultyModel.h"

#include <Eigen/Core>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::calibration {

// How a residual r = actual - predicted is normalised into a conformal score s,
// and so how the margin m widens a prediction into upper bound = predicted + scale · m.
enum class Score
{
    Absolute,   // scale 1: one margin in MiB for every job
    Relative,   // scale max(predicted, 1 MiB): a margin in parts of the prediction
    Difficulty, // scale from a DifficultyModel fitted on half of the calibration rows
    // scale max(predicted, 1 MiB) · max(spread, floor), spread how much an ensemble's
    // networks disagree on the job relative to its prediction (MemberSpread.h)
    Spread,
};

// Returns "absolute", "relative", "difficulty" or "spread".
std::string_view scoreName(Score score);
// Parses a name scoreName() returns; throws io::InputError listing them otherwise.
Score parseScore(std::string_view name);

// Returns how many of calibrationRows calibration rows give conformal scores with
// this score: all of them, or for Difficulty the larger half.
std::size_t scoreRowCount(Score score, std::size_t calibrationRows);
// Throws io::InputError, naming how many calibration rows coverage needs, when
// calibrationRows rows cannot serve coverage with score (ceil((n + 1) · c) > n);
// also when coverage is not strictly inside (0, 1).
void checkCalibrationRowsSuffice(Score score, std::size_t calibrationRows, double coverage);

// A split-conformal calibration of one fitted model. Its residuals on calibration
// rows the model never trained on, normalised by the score, are kept sorted, so a
// bound for any coverage c is served later without refitting: the margin is the
// ceil((n + 1) · c)-th smallest of the n scores. When the calibration rows and new
// jobs are exchangeable, P(actual > upper bound) <= 1 - c for a new job (marginal,
// finite-sample coverage; for Difficulty the scores come from the rows the
// difficulty model did not see, and Spread's floor comes from the fit rows, so the
// guarantee holds the same way).
// A plain value type: copies may be read from any thread.
class Calibration
{
  public:
    // Calibrates with the calibration rows of rows, given every row's numeric
    // features (by name), actual and predicted values of a model fitted on rows.fit,
    // and for Spread every row's relative member spread (memberSpreadForScore()).
    // Difficulty splits the calibration rows with seed: half fit the difficulty
    // model, the other half give the scores. coverage becomes the default level.
    // Throws io::InputError when a calibration row's value is not finite, when
    // coverage is invalid, or when Difficulty has fewer than 2 calibration rows.
    static Calibration fit(Score score, const Eigen::MatrixXd &features, const std::vector<std::string> &featureNames,
                           const Eigen::VectorXd &actual, const Eigen::VectorXd &predicted, const CalibrationRows &rows,
                           double coverage, std::uint64_t seed, const Eigen::VectorXd &memberSpread = {});

    // Builds a calibration from stored parts (see CalibrationJson); the caller has
    // checked them. sortedScores must be ascending and not empty; difficulty is
    // given for Difficulty only, spreadFloor (> 0) for Spread only.
    Calibration(Score score, double coverage, std::size_t calibrationRowCount, std::vector<double> sortedScores,
                std::optional<DifficultyModel> difficulty, std::optional<double> spreadFloor = std::nullopt);

    Score score() const { return mScore; }
    // The coverage chosen when calibrating: what predict serves unless asked for another.
    double coverage() const { return mCoverage; }
    // How many training rows were set aside to calibrate (for Difficulty, both halves).
    std::size_t calibrationRowCount() const { return mCalibrationRowCount; }
    // The n conformal scores, ascending.
    const std::vector<double> &sortedScores() const { return mSortedScores; }
    const std::optional<DifficultyModel> &difficulty() const { return mDifficulty; }
    // Spread's floor under every row's relative member spread (fitSpreadFloor()).
    const std::optional<double> &spreadFloor() const { return mSpreadFloor; }

    // Returns the margin, in score units, for coverage. Throws io::InputError when
    // coverage is not strictly inside (0, 1), or when ceil((n + 1) · c) > n, naming
    // how many calibration rows that coverage needs.
    double margin(double coverage) const;

    // Returns every row's scale (see Score): the bound is predicted + scale · margin.
    // memberSpread is what memberSpreadForScore() returns for the model that predicted;
    // Spread throws std::invalid_argument when it does not hold one value per row.
    Eigen::VectorXd scales(const Eigen::MatrixXd &features, const std::vector<std::string> &featureNames,
                           const Eigen::VectorXd &predicted, const Eigen::VectorXd &memberSpread = {}) const;
    // Returns every row's upper bound (MiB) at coverage.
    Eigen::VectorXd upperBounds(const Eigen::MatrixXd &features, const std::vector<std::string> &featureNames,
                                const Eigen::VectorXd &predicted, double coverage,
                                const Eigen::VectorXd &memberSpread = {}) const;

  private:
    Score mScore;
    double mCoverage;
    std::size_t mCalibrationRowCount;
    std::vector<double> mSortedScores;
    std::optional<DifficultyModel> mDifficulty;
    std::optional<double> mSpreadFloor;
};

} // namespace gpumem::calibration
