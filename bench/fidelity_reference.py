#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fits the scikit-learn / xgboost counterparts of gpumem's tabular baselines on
the folds gpumem_baseline_fidelity used (OUT/folds.csv), with the same features
(six numeric columns plus the one-hot activation function), and prints a table
of our mean per-fold RMSE next to the reference's, with R² and fit time.
Usage: fidelity_reference.py DATA.csv OUT_DIR [THREADS]
"""
import sys
import time
import warnings

import numpy as np
import pandas as pd
import xgboost
from sklearn.ensemble import AdaBoostRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from scipy.linalg import LinAlgWarning
from sklearn.tree import DecisionTreeRegressor

# Ridge on the raw columns (parameters in the millions next to 0/1 one-hot
# columns, whose block is collinear with the intercept) is ill-conditioned; scipy
# says so on every fold, and our LDLT solve lands on the same coefficients.
warnings.filterwarnings("ignore", category=LinAlgWarning)

NUMERIC = ["Depth", "Total Activations", "Total Parameters", "Batch Size", "Batch Normalization Layers",
           "Dropout Layers"]
TARGET = "Max GPU Memory (MiB)"

data_path, out = sys.argv[1], sys.argv[2]
threads = int(sys.argv[3]) if len(sys.argv) > 3 else 1
data = pd.read_csv(data_path)
folds = pd.read_csv(f"{out}/folds.csv")
# Every record of the file is one line (the sequences are quoted but never span
# lines), so data row i is file line i + 2.
if len(folds) != len(data) or not (folds["line"].to_numpy() == np.arange(len(data)) + 2).all():
    sys.exit("folds.csv does not list every row of the data in order")
fold_of = folds["fold"].to_numpy()
features = pd.concat([data[NUMERIC], pd.get_dummies(data["Activation Function"], dtype=float)], axis=1).to_numpy(float)
target = data[TARGET].to_numpy(float)

references = {
    "decision_tree": lambda: DecisionTreeRegressor(random_state=42),
    "random_forest": lambda: RandomForestRegressor(random_state=42, n_jobs=threads),
    "adaboost": lambda: AdaBoostRegressor(DecisionTreeRegressor(max_depth=3), random_state=42),
    "xgboost": lambda: xgboost.XGBRegressor(n_jobs=threads),
    "ridge": lambda: Ridge(),
}

rows = []
for name, make in references.items():
    scores = []
    for fold in range(fold_of.max() + 1):
        train, test = fold_of != fold, fold_of == fold
        model = make()
        start = time.perf_counter()
        model.fit(features[train], target[train])
        seconds = time.perf_counter() - start
        error = model.predict(features[test]) - target[test]
        rmse = float(np.sqrt(np.mean(error ** 2)))
        r2 = 1 - np.sum(error ** 2) / np.sum((target[test] - target[test].mean()) ** 2)
        scores.append((name, fold, rmse, r2, seconds))
    rows += scores
reference = pd.DataFrame(rows, columns=["model", "fold", "rmse", "r2", "fit_seconds"])
reference.to_csv(f"{out}/reference.csv", index=False)

ours = pd.read_csv(f"{out}/ours.csv").groupby("model").mean(numeric_only=True)
theirs = reference.groupby("model").mean(numeric_only=True)
print(f"{'model':<14} {'our RMSE':>9} {'ref RMSE':>9} {'ratio':>6} {'±10%':>5} {'our R²':>7} {'ref R²':>7} "
      f"{'our fit s':>9} {'ref fit s':>9}")
for name in references:
    if name not in ours.index:
        continue
    a, b = ours.loc[name], theirs.loc[name]
    ratio = a["rmse"] / b["rmse"]
    print(f"{name:<14} {a['rmse']:9.2f} {b['rmse']:9.2f} {ratio:6.3f} {'yes' if abs(ratio - 1) <= 0.1 else 'NO':>5} "
          f"{a['r2']:7.4f} {b['r2']:7.4f} {a['fit_seconds']:9.4f} {b['fit_seconds']:9.4f}")
