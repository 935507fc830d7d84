#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where the test error of several trainings of one split comes from.

Reads the prediction files that `gpumem train --predictions` wrote for the same
split with different --seed values and prints, on the test rows: each seed's
RMSE, the RMSE of their average in the log space (what an ensemble of those
members would predict), the RMSE without the few largest errors, and the rows
whose errors are largest on average (their row in the data file), with how many
seeds share them.

Usage: seed_errors.py PREDICTIONS.csv [PREDICTIONS.csv ...] [--top 5]
"""
import argparse
import sys

import numpy as np
import pandas as pd


def rmse(errors):
    return float(np.sqrt(np.mean(np.square(errors))))


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="prediction CSVs of one split, one per training seed")
    parser.add_argument("--top", type=int, default=5, help="how many of the largest errors to single out")
    args = parser.parse_args(argv)

    tables = [pd.read_csv(path) for path in args.files]
    test = tables[0]["split"].astype(str).str.strip() == "test"
    actual = tables[0]["actual"][test].to_numpy(float)
    data_rows = np.flatnonzero(test.to_numpy())  # each test row's place in the data file
    for path, table in zip(args.files, tables):
        if not ((table["split"].astype(str).str.strip() == "test") == test).all() or not np.array_equal(
                table["actual"][test].to_numpy(float), actual):
            sys.exit(f"{path}: not the split of {args.files[0]}")
    predicted = np.stack([table["prediction"][test].to_numpy(float) for table in tables])  # [seeds, rows]
    errors = predicted - actual

    per_seed = [rmse(row) for row in errors]
    for path, value in zip(args.files, per_seed):
        print(f"{path}: RMSE {value:.2f}")
    print(f"mean of the seeds {np.mean(per_seed):.2f}, sd {np.std(per_seed, ddof=1) if len(per_seed) > 1 else 0:.2f}")
    ensemble = np.expm1(np.mean(np.log1p(np.maximum(predicted, 0.0)), axis=0))
    print(f"log-space average of the {len(tables)} seeds: RMSE {rmse(ensemble - actual):.2f}")

    largest = np.argsort(-np.mean(np.abs(errors), axis=0))[:args.top]
    rest = np.setdiff1d(np.arange(actual.size), largest)
    print(f"without the {args.top} largest mean errors: RMSE {np.mean([rmse(row[rest]) for row in errors]):.2f} "
          f"(mean of the seeds); those {args.top} rows hold "
          f"{100 * np.mean(np.sum(np.square(errors[:, largest]), axis=1) / np.sum(np.square(errors), axis=1)):.0f}% "
          f"of the squared error")
    threshold = 3 * np.median(np.abs(errors))
    for row in largest:
        shared = int(np.sum(np.abs(errors[:, row]) > threshold))
        print(f"  data row {data_rows[row] + 1} (line {data_rows[row] + 2}): actual {actual[row]:.0f} MiB, mean error {np.mean(errors[:, row]):+.1f} MiB, "
              f"beyond 3x the median error in {shared} of {len(tables)} seeds")


if __name__ == "__main__":
    main(sys.argv[1:])
