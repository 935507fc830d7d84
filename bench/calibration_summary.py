#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Summarises the calibrated upper bounds of one model on its --test-fraction rows.

Reads the `gpumem train --coverage ... --predictions` file (columns prediction,
upper_bound, actual, split) and, for each coverage, the `gpumem predict --coverage C`
output on the same data file (same rows, in order). Prints Markdown table rows:
  bounds: model | coverage | RMSE | under-predicted | mean over-allocation (MiB, %)
          | best fixed headroom at the same rate, chosen knowing the test rows | "+10%"
  scores: model | coverage | difficulty (gpumem) | relative | absolute | fixed headroom
          chosen on the calibration rows (the rule users would pick from the same data)
The relative and absolute split-conformal bounds are computed here from the same
calibration rows and predictions, with the same rank ceil((n + 1) c).
Usage: calibration_summary.py MODEL TRAIN_PREDICTIONS.csv C1=PREDICT1.csv [C2=PREDICT2.csv ...]
"""
import math
import sys

import numpy as np
import pandas as pd


def waste(bound, actual):
    over = np.maximum(bound - actual, 0.0)
    return float(np.mean(over)), float(np.mean(100.0 * over / actual))


def miss(bound, actual):
    return float(np.mean(actual > bound))


def conformal(scores, coverage):
    s = np.sort(scores)
    k = math.ceil((len(s) + 1) * coverage - 1e-9)
    return s[k - 1] if k <= len(s) else float("nan")


def headroom(actual, predicted, coverage):
    """Smallest percentage p with actual <= predicted (1 + p/100) on a share coverage of rows."""
    needed = np.sort(100.0 * (actual / predicted - 1.0))
    k = min(max(math.ceil(len(needed) * coverage - 1e-9), 1), len(needed))
    return needed[k - 1] + 1e-9


def main():
    model, train_file = sys.argv[1], sys.argv[2]
    train = pd.read_csv(train_file)
    split = train["split"].to_numpy()
    test, cal = split == "test", split == "calibration"
    y, p = train["actual"].to_numpy(float), train["prediction"].to_numpy(float)
    rmse = float(np.sqrt(np.mean((p[test] - y[test]) ** 2)))
    bound_rows, score_rows = [], []
    for item in sys.argv[3:]:
        coverage_text, path = item.split("=", 1)
        coverage = float(coverage_text)
        served = pd.read_csv(path)["upper_bound"].to_numpy(float)
        b = served[test]
        rate = miss(b, y[test])
        mean_mib, mean_pct = waste(b, y[test])
        oracle = headroom(y[test], p[test], 1.0 - rate)
        oracle_mib, _ = waste(p[test] * (1 + oracle / 100), y[test])
        ten_mib, _ = waste(p[test] * 1.1, y[test])
        ten_rate = miss(p[test] * 1.1, y[test])
        bound_rows.append(f"| {model} | {coverage:.2f} | {rmse:.2f} | {100 * rate:.1f}% | {mean_mib:.1f} ({mean_pct:.2f}%) "
                          f"| {oracle:+.2f}%: {oracle_mib:.1f} | {100 * ten_rate:.1f}%: {ten_mib:.1f} |")
        cells = [f"{100 * rate:.1f}%, {mean_mib:.1f}"]
        relative = p * (1 + conformal((y[cal] - p[cal]) / np.maximum(p[cal], 1.0), coverage))
        absolute = p + conformal(y[cal] - p[cal], coverage)
        chosen = headroom(y[cal], p[cal], coverage)
        for bound in (relative, absolute, p * (1 + chosen / 100)):
            cells.append(f"{100 * miss(bound[test], y[test]):.1f}%, {waste(bound[test], y[test])[0]:.1f}")
        score_rows.append(f"| {model} | {coverage:.2f} | " + " | ".join(cells[:3]) + f" | {chosen:+.2f}%: {cells[3]} |")
    print("\n".join(bound_rows))
    print("\n".join(score_rows))


if __name__ == "__main__":
    main()
