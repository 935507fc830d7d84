#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The paper's comparison as a researcher would run it in Python: scikit-learn's
decision tree, random forest, AdaBoost and ridge, xgboost, and the PyTorch
BiGRU-optimised Transformer as reference_hand_batched.py writes it (tensors
batched by hand, no DataLoader), on the folds of a gpumem compare run
(--folds-from its --predictions file) or 5 shuffled folds of its own, each model
with library defaults (the network with the sizes, batch size and learning rate of
gpumem's default preset and the given epochs).

Usage: paper_comparison.py DATA.csv [--epochs N] [--folds K] [--threads T] [--batch-size B]
                           [--learning-rate R] [--grouped] [--folds-from PREDICTIONS.csv]
(T: n_jobs of the forest and XGBoost; PyTorch keeps 1 thread, its fastest here.)
Prints one JSON line: {"seconds": total wall time, "models": {name: {"rmse", "r2", "seconds"}}}.
"""
import argparse
import json
import time

import numpy as np
import pandas as pd
import torch
from sklearn.ensemble import AdaBoostRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_squared_error, r2_score
from sklearn.model_selection import KFold
from sklearn.tree import DecisionTreeRegressor
from xgboost import XGBRegressor

from reference_bigru_transformer import add_training_arguments, load_features
from reference_hand_batched import HandBatchedNetwork, token_map, train_hand_batched


def standardise(train, values):
    """Log-scales wide non-negative columns and standardises on the training rows only."""
    wide = (train.min(axis=0) >= 0) & (train.max(axis=0) > 100)
    scale = lambda v: np.where(wide, np.log1p(np.maximum(v, 0)), v)
    mean, std = scale(train).mean(axis=0), scale(train).std(axis=0)
    std[std == 0] = 1
    return (scale(values) - mean) / std


def fit_network(features, target, train, test, token_of, arguments):
    """The network of reference_hand_batched.py (the fastest Python loop), trained on the training rows."""
    torch.manual_seed(42)
    scaled = torch.tensor(standardise(features[train], features), dtype=torch.float32)
    log_target = np.log1p(target)
    mean, std = log_target[train].mean(), log_target[train].std()
    model = HandBatchedNetwork(features.shape[1], token_of)
    train_hand_batched(model, scaled[train], torch.tensor((log_target[train] - mean) / std, dtype=torch.float32),
                       arguments.epochs, arguments.batch_size, arguments.learning_rate)
    model.eval()
    with torch.no_grad():
        predicted = model(scaled[test]).numpy()
    return np.expm1(predicted * std + mean)


def main():
    parser = argparse.ArgumentParser()
    add_training_arguments(parser, epochs=250)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--learning-rate", type=float, default=2e-3)
    parser.add_argument("--grouped", action="store_true", help="gpumem's grouped feature tokens")
    parser.add_argument("--folds-from", help="a gpumem compare --predictions file: use its fold column")
    arguments = parser.parse_args()
    torch.set_num_threads(1)

    start = time.perf_counter()
    features, _, _, target, type_count = load_features(arguments.data)
    token_of = token_map(features, type_count, arguments.grouped)
    if arguments.folds_from:
        fold = pd.read_csv(arguments.folds_from)["fold"].to_numpy()
        folds = [(np.flatnonzero(fold != k), np.flatnonzero(fold == k)) for k in np.unique(fold)]
    else:
        folds = KFold(arguments.folds, shuffle=True, random_state=42).split(features)
    # The tabular models see the numeric columns, the one-hot activation function
    # and the layer-sequence summary, as gpumem's feature encoder gives them.
    tabular = {
        "decision_tree": lambda: DecisionTreeRegressor(random_state=42),
        "random_forest": lambda: RandomForestRegressor(random_state=42, n_jobs=arguments.threads),
        "adaboost": lambda: AdaBoostRegressor(DecisionTreeRegressor(max_depth=3), random_state=42),
        "xgboost": lambda: XGBRegressor(random_state=42, n_jobs=arguments.threads),
        "ridge": lambda: Ridge(),
    }
    results = {name: {"rmse": [], "r2": [], "seconds": 0.0} for name in ["bigru_transformer", *tabular]}
    for train, test in folds:
        for name, make in tabular.items():
            began = time.perf_counter()
            predicted = make().fit(features[train], target[train]).predict(features[test])
            results[name]["seconds"] += time.perf_counter() - began
            results[name]["rmse"].append(mean_squared_error(target[test], predicted) ** 0.5)
            results[name]["r2"].append(r2_score(target[test], predicted))
        began = time.perf_counter()
        predicted = fit_network(features, target, train, test, token_of, arguments)
        results["bigru_transformer"]["seconds"] += time.perf_counter() - began
        results["bigru_transformer"]["rmse"].append(mean_squared_error(target[test], predicted) ** 0.5)
        results["bigru_transformer"]["r2"].append(r2_score(target[test], predicted))
    summary = {name: {"rmse": float(np.mean(r["rmse"])), "r2": float(np.mean(r["r2"])), "seconds": r["seconds"]}
               for name, r in results.items()}
    print(json.dumps({"seconds": time.perf_counter() - start, "models": summary}))


if __name__ == "__main__":
    main()
