// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace gpumem::models {

// Checks a booster.json as XGBoost would trust it, before it is handed to the
// library (which reads indices unchecked: an edited file crashed it, looped
// forever on a cycle, or allocated per declared feature). Only what
// XGBoostRegressor writes is accepted: a regression ("reg:squarederror") gbtree
// with one output and one tree per round, numbered features, no categorical
// splits. Every tree must really be a tree: node counts agreeing with the
// arrays, children in range, each node but the root the child of exactly one
// node whose index its "parents" entry names, every node reached from the root,
// split features in [0, featureCount), values finite; the counts of trees and
// of features must agree with the declared ones and with featureCount (from
// model.json). Throws io::InputError(path, 0, 0, …) naming the first problem.
// Needs neither XGBoost nor LibTorch, so the fuzzers run it.
void checkBoosterJson(const std::string &text, std::int64_t featureCount, const std::string &path);

} // namespace gpumem::models
