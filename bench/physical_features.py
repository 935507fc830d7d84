#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Adds physically informed inputs to a probe dataset, to measure whether the network
learns better from them than from the columns it has (bench/README.md, "Jobs people train").

    /usr/bin/python3 bench/physical_features.py IN.csv OUT.csv

Three columns go before `layer_sequence`, each in bytes at the job's batch size and element
size (4 for float32, 8 for float64): `activation_bytes` (every layer's output),
`largest_activation_bytes` (the largest layer output) and `training_state_bytes` (the
parameters with their gradients and the optimizer's state: none for sgd, one buffer for
sgd_momentum, two for adam and adamw). IN.csv's column notes are copied beside OUT.csv.
"""
import ast
import csv
import shutil
import sys

OPTIMIZER_STATES = {"sgd": 0, "sgd_momentum": 1, "adam": 2, "adamw": 2}
ELEMENT_BYTES = {"float32": 4, "float64": 8}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, target = sys.argv[1], sys.argv[2]
    if not (source.endswith(".csv") and target.endswith(".csv")):
        sys.exit("both files must end in .csv")
    with open(source, newline="") as file:
        rows = list(csv.DictReader(file))
    columns = list(rows[0].keys())
    at = columns.index("layer_sequence")
    added = ["activation_bytes", "largest_activation_bytes", "training_state_bytes"]
    with open(target, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns[:at] + added + columns[at:])
        for row in rows:
            element = ELEMENT_BYTES[row["dtype"]]
            batch = int(row["batch_size"])
            outputs = [layer[1] for layer in ast.literal_eval(row["layer_sequence"])]
            state = int(row["total_parameters"]) * element * (2 + OPTIMIZER_STATES[row["optimizer"]])
            values = [sum(outputs) * batch * element, max(outputs) * batch * element, state]
            writer.writerow([row[c] for c in columns[:at]] + values + [row[c] for c in columns[at:]])
    shutil.copyfile(source[:-4] + ".columns.json", target[:-4] + ".columns.json")


if __name__ == "__main__":
    main()
