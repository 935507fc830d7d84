// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The input of the spread score: how much the networks of an ensemble disagree on
// each job. Disagreement is the model's own account of where it is unsure, so the
// bound widens there and narrows where every member predicts the same.

#include "calibration/Calibration.h"
#include "data/Dataset.h"
#include "models/Regressor.h"

#include <Eigen/Core>

#include <vector>

namespace gpumem::calibration {

// The least floor of a spread calibration (a relative spread of 0.01%): the members
// of a fitted ensemble never agree exactly on every row, but a scale of 0 would
// turn one residual into an infinite score.
constexpr double minimumSpreadFloor = 1e-4;

// Throws io::InputError, naming the score to use instead, unless model is an
// ensemble of at least two networks (bigru_transformer with ensemble >= 2): a
// single model has no members to disagree.
void checkModelHasMembers(const models::Regressor &model);

// Returns every row's relative member spread: the standard deviation of the
// members' outputs in the log space the network learns (log_target), which is
// relative to the prediction already, or without log_target their standard
// deviation in MiB divided by max(predicted, 1 MiB). predicted holds model's
// predictions of dataset. Throws io::InputError as checkModelHasMembers() does.
Eigen::VectorXd relativeMemberSpread(const models::Regressor &model, const data::Dataset &dataset,
                                     const Eigen::VectorXd &predicted);

// Returns what score reads of model besides the features: relativeMemberSpread()
// for Score::Spread, nothing (an empty vector) for the other scores.
Eigen::VectorXd memberSpreadForScore(Score score, const models::Regressor &model, const data::Dataset &dataset,
                                     const Eigen::VectorXd &predicted);

// Returns the floor under every row's relative spread: the median spread on
// fitRows, at least minimumSpreadFloor. The fit rows are ones the model trained
// on, never calibration rows, so the scores stay exchangeable with new jobs; their
// median is how much the members disagree on jobs they have all seen, so a job with
// less disagreement than that is not trusted to be easier than those.
// Throws io::InputError when fitRows is empty or a spread on them is not finite.
double fitSpreadFloor(const Eigen::VectorXd &spread, const std::vector<Eigen::Index> &fitRows);

} // namespace gpumem::calibration
