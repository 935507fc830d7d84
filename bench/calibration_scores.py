#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares the calibration scores over several seeded splits.

  calibration_scores.py row MODEL SCORE SEED TRAIN_PREDICTIONS.csv C1=PREDICT1.csv [...]
      prints one tab-separated line per coverage: model, score, seed, coverage,
      under-prediction rate and mean over-allocation (MiB) on the test rows.
  calibration_scores.py table ROWS.tsv
      prints a Markdown table: per model and coverage, each score's mean
      under-prediction rate and mean over-allocation over the seeds.
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
    scores = ["absolute", "relative", "difficulty"]
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


if __name__ == "__main__":
    if sys.argv[1] == "row":
        row(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:])
    else:
        table(sys.argv[2])
