#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares the calibration scores over several seeded splits.

  calibration_scores.py row MODEL SCORE SEED TRAIN_PREDICTIONS.csv C1=PREDICT1.csv [...]
      prints one tab-separated line per coverage: model, score, seed, coverage,
      under-prediction rate and mean over-allocation (MiB) on the test rows.
  calibration_scores.py table ROWS.tsv
      prints a Markdown table: per model and coverage, each score's mean
      under-prediction rate and mean over-allocation over the seeds (the
      columns: the scores the rows hold).
  calibration_scores.py shape MODEL SCORE SEED TRAIN_PREDICTIONS.csv PREDICT.csv
      prints one tab-separated line per miss rate 10%, 5% and 1%: the mean
      over-allocation of the score's bound shape (upper_bound - prediction)
      scaled to miss exactly that share of the test rows, chosen knowing them:
      how well the score ranks the jobs, whatever its calibration.
  calibration_scores.py shape-table SHAPES.tsv
      prints a Markdown table of those, means over the seeds.
"""
import sys

import numpy as np
import pandas as pd


def row(model, score, seed, train_file, levels):
    train = pd.read_csv(train_file)
    test = train["split"].to_numpy() == "test"
    actual = train["actual"].to_numpy(float)[test]
    for item in levels:
        coverage, path = item.split("=", 1)
        bound = pd.read_csv(path)["upper_bound"].to_numpy(float)[test]
        under = np.mean(actual > bound)
        waste = np.mean(np.maximum(bound - actual, 0.0))
        print(f"{model}\t{score}\t{seed}\t{coverage}\t{under:.6f}\t{waste:.6f}")


def table(path):
    rows = pd.read_csv(path, sep="\t", names=["model", "score", "seed", "coverage", "under", "waste"])
    # The scores the rows hold, in this order (spread only for an ensemble network).
    scores = [s for s in ["absolute", "relative", "difficulty", "spread"] if s in set(rows.score)]
    print("| model | coverage | seeds | " + " | ".join(scores) + " |")
    print("|---|---|---|" + "---|" * len(scores))
    for (model, coverage), group in rows.groupby(["model", "coverage"], sort=False):
        cells = []
        means = {s: group[group.score == s] for s in scores}
        best = min(scores, key=lambda s: means[s].waste.mean())
        for s in scores:
            text = f"{100 * means[s].under.mean():.1f}%, {means[s].waste.mean():.1f}"
            cells.append(f"**{text}**" if s == best else text)
        print(f"| {model} | {coverage:.2f} | {group.seed.nunique()} | " + " | ".join(cells) + " |")


def shape(model, score, seed, train_file, predict_file):
    train = pd.read_csv(train_file)
    test = train["split"].to_numpy() == "test"
    actual = train["actual"].to_numpy(float)[test]
    served = pd.read_csv(predict_file)
    predicted = served["prediction"].to_numpy(float)[test]
    width = served["upper_bound"].to_numpy(float)[test] - predicted
    # The multiple of the width each job needs; the (k+1)-th largest lets exactly k jobs miss.
    needed = np.sort((actual - predicted) / width)[::-1]
    for rate in (0.10, 0.05, 0.01):
        factor = max(needed[int(np.floor(rate * len(actual)))], 0.0)
        waste = np.mean(np.maximum(predicted + factor * width - actual, 0.0))
        print(f"{model}\t{score}\t{seed}\t{rate:.2f}\t{waste:.6f}")


def shape_table(path):
    rows = pd.read_csv(path, sep="\t", names=["model", "score", "seed", "rate", "waste"])
    scores = list(dict.fromkeys(rows.score))
    print("| model | test miss rate | seeds | " + " | ".join(scores) + " |")
    print("|---|---|---|" + "---|" * len(scores))
    for (model, rate), group in rows.groupby(["model", "rate"], sort=False):
        means = {s: group[group.score == s].waste.mean() for s in scores}
        best = min(scores, key=lambda s: means[s])
        cells = [f"**{means[s]:.1f}**" if s == best else f"{means[s]:.1f}" for s in scores]
        print(f"| {model} | {100 * rate:.0f}% | {group.seed.nunique()} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if sys.argv[1] == "row":
        row(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:])
    elif sys.argv[1] == "shape":
        shape(*sys.argv[2:7])
    elif sys.argv[1] == "shape-table":
        shape_table(sys.argv[2])
    else:
        table(sys.argv[2])
