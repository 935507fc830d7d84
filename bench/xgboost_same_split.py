#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Scores XGBoost (library defaults) on the train/test split that gpumem used,
read from the `split` column of a `gpumem train --predictions` file, with the flat
features gpumem's tabular models see: numeric columns, one-hot activation function
and the layer-sequence summaries (length, count per layer type, sum and max of
each field). Usage: xgboost_same_split.py DATA.csv PREDICTIONS.csv
"""
import ast
import sys

import numpy as np
import pandas as pd
import xgboost

data = pd.read_csv(sys.argv[1])
split = pd.read_csv(sys.argv[2])["split"].to_numpy()
sequences = data["Activations-Params"].map(ast.literal_eval)
features = data.drop(columns=["Filename", "Activations-Params", "Activation Function", "Max GPU Memory (MiB)",
                              "Avg GPUTL", "Avg GRACT", "Avg SMACT", "Avg SMOCC", "Avg FP32A"])
features = pd.concat([features, pd.get_dummies(data["Activation Function"], dtype=float)], axis=1)
features["length"] = sequences.map(len)
for kind in sorted({layer[0] for s in sequences for layer in s}):
    features["count_" + kind] = sequences.map(lambda s: sum(1 for layer in s if layer[0] == kind))
for field in (1, 2):
    features[f"sum_{field}"] = sequences.map(lambda s: sum(layer[field] for layer in s))
    features[f"max_{field}"] = sequences.map(lambda s: max(layer[field] for layer in s))
target = data["Max GPU Memory (MiB)"].to_numpy(float)
train, test = split == "train", split == "test"
model = xgboost.XGBRegressor(random_state=42).fit(features[train], target[train])
error = model.predict(features[test]) - target[test]
rmse = float(np.sqrt(np.mean(error ** 2)))
r2 = 1 - np.sum(error ** 2) / np.sum((target[test] - target[test].mean()) ** 2)
print(f"{'xgboost':<18} test RMSE {rmse:7.2f}  MAE {np.mean(np.abs(error)):6.2f}  R2 {r2:.5f}  "
      f"under {100 * np.mean(error < 0):.1f}%  (same {test.sum()} test rows)")
