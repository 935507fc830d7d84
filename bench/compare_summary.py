#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Prints a `gpumem compare --report X.json` as a Markdown table: per model the mean RMSE
over every fit, its spread over fits and over repetitions, R², the median relative error,
the share within ±10% and the corrected repeated k-fold t-test against the best.

    /usr/bin/python3 bench/compare_summary.py REPORT.json
"""
import json
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as file:
        report = json.load(file)
    tests = {t["model"]: t for t in report["significance"] if t["reported"]}
    print(f'{report["repeats"]} x {report["folds"]}-fold, {report["rows"]} rows')
    print("| model | RMSE mean (MiB) | sd over fits | sd over repetitions | R² | median rel. error "
          "| within ±10% | p vs best |")
    print("|---|---|---|---|---|---|---|---|")
    for model in report["models"]:
        metrics, spread, repetitions = model["metrics"], model["std"], model["repetition_std"]
        test = tests.get(model["name"])
        p = "best" if model["name"] == report["best"] else (f'{test["p_value"]:.3g}' if test else "")
        print(f'| {model["name"]} | {metrics["rmse"]:.2f} | {spread["rmse"]:.2f} | {repetitions["rmse"]:.2f} | '
              f'{metrics["r2"]:.4f} | {metrics["median_rel_error"]:.2f}% | {100 * metrics["within_10pct"]:.1f}% | {p} |')


if __name__ == "__main__":
    main()
