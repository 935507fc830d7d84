#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Prints one line of test metrics from the last line of `gpumem train --json`.
Usage: gpumem train … --json | summarize_training.py LABEL"""
import json
import sys

summary = json.loads(sys.stdin.readlines()[-1])
metrics = summary["test_metrics"]
label = sys.argv[1]
print(f"{label:<18} test RMSE {metrics['rmse']:7.2f}  MAE {metrics['mae']:6.2f}  R2 {metrics['r2']:.5f}  "
      f"under {100 * metrics['under_rate']:.1f}%  {summary['seconds']:.0f} s, best epoch {summary['best_epoch']}")
