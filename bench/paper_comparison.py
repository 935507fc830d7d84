#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The paper's comparison as a researcher would run it in Python: scikit-learn's
decision tree, random forest, AdaBoost and ridge, xgboost, and the PyTorch
BiGRU-optimised Transformer of reference_bigru_transformer.py, on 5 shuffled
folds of the same data, each model with library defaults (the network with
gpumem's default preset and the given epochs).

Usage: paper_comparison.py DATA.csv [--epochs N] [--folds K] [--threads T]
(T: n_jobs of the forest and XGBoost; PyTorch keeps 1 thread, its fastest here.)
Prints one JSON line: {"seconds": total wall time, "models": {name: {"rmse", "r2", "seconds"}}}.
"""
import argparse
import json
import time

import numpy as np
import torch
from sklearn.ensemble import AdaBoostRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_squared_error, r2_score
from sklearn.model_selection import KFold
from sklearn.tree import DecisionTreeRegressor
from torch.utils.data import DataLoader
from xgboost import XGBRegressor

from reference_bigru_transformer import BiGruTransformer, JobDataset, collate, load_features
from reference_bigru_transformer import train as train_network


def standardise(train, values):
    """Log-scales wide non-negative columns and standardises on the training rows only."""
    wide = (train.min(axis=0) >= 0) & (train.max(axis=0) > 100)
    scale = lambda v: np.where(wide, np.log1p(np.maximum(v, 0)), v)
    mean, std = scale(train).mean(axis=0), scale(train).std(axis=0)
    std[std == 0] = 1
    return (scale(values) - mean) / std


def fit_network(features, types, fields, target, train, test, type_count, epochs):
    torch.manual_seed(42)
    scaled = standardise(features[train], features)
    all_fields = np.concatenate(fields)
    train_fields = np.concatenate([fields[i] for i in train])
    scaled_fields = np.split(standardise(train_fields, all_fields), np.cumsum([len(f) for f in fields])[:-1])
    log_target = np.log1p(target)
    mean, std = log_target[train].mean(), log_target[train].std()
    dataset = JobDataset(scaled[train], [types[i] for i in train], [scaled_fields[i] for i in train],
                         (log_target[train] - mean) / std)
    loader = DataLoader(dataset, batch_size=64, shuffle=True, collate_fn=collate)
    model = BiGruTransformer(features.shape[1], type_count, False)
    train_network(model, loader, epochs)
    model.eval()
    test_set = JobDataset(scaled[test], [types[i] for i in test], [scaled_fields[i] for i in test], target[test])
    with torch.no_grad():
        batch = collate([test_set[i] for i in range(len(test_set))])
        predicted = model(*batch[:4]).numpy()
    return np.expm1(predicted * std + mean)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("--epochs", type=int, default=250)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    arguments = parser.parse_args()
    torch.set_num_threads(1)

    start = time.perf_counter()
    features, types, fields, target, type_count = load_features(arguments.data)
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
    for train, test in KFold(arguments.folds, shuffle=True, random_state=42).split(features):
        for name, make in tabular.items():
            began = time.perf_counter()
            predicted = make().fit(features[train], target[train]).predict(features[test])
            results[name]["seconds"] += time.perf_counter() - began
            results[name]["rmse"].append(mean_squared_error(target[test], predicted) ** 0.5)
            results[name]["r2"].append(r2_score(target[test], predicted))
        began = time.perf_counter()
        predicted = fit_network(features, types, fields, target, train, test, type_count, arguments.epochs)
        results["bigru_transformer"]["seconds"] += time.perf_counter() - began
        results["bigru_transformer"]["rmse"].append(mean_squared_error(target[test], predicted) ** 0.5)
        results["bigru_transformer"]["r2"].append(r2_score(target[test], predicted))
    summary = {name: {"rmse": float(np.mean(r["rmse"])), "r2": float(np.mean(r["r2"])), "seconds": r["seconds"]}
               for name, r in results.items()}
    print(json.dumps({"seconds": time.perf_counter() - start, "models": summary}))


if __name__ == "__main__":
    main()
