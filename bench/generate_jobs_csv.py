#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a synthetic CSV of deep-learning jobs in the GPUMemNet layout, for load benchmarks.

Each row is a random multi-layer perceptron: an identifier, depth, a layer sequence
[('linear', activations, parameters), ('ReLU', activations, 0), ...], an activation
function, totals, batch size and a made-up memory figure. Only the shape of the file
matters here, not the realism of the memory column.

Usage: generate_jobs_csv.py ROWS OUT.csv [SEED]
"""
import csv
import random
import sys

ACTIVATIONS = ["ReLU", "GELU", "Tanh", "Sigmoid", "SiLU", "Mish", "ELU", "Softplus"]


def job(rng, index):
    depth = rng.randint(2, 8)
    width = rng.randint(64, 4096)
    act = rng.choice(ACTIVATIONS)
    layers, inputs = [], rng.randint(32, 2048)
    for _ in range(depth):
        outputs = max(8, int(width * rng.uniform(0.3, 1.0)))
        layers.append(("linear", outputs, inputs * outputs + outputs))
        layers.append((act, outputs, 0))
        inputs = outputs
    batch = rng.randint(4, 1024)
    activations = sum(layer[1] for layer in layers)
    parameters = sum(layer[2] for layer in layers)
    memory = 1400 + parameters * 16 / 2**20 + activations * batch * 8 / 2**20
    sequence = "[" + ", ".join(f"('{t}', {a}, {p})" for t, a, p in layers) + "]"
    return [f"job{index}", depth, sequence, act, activations, parameters, batch, round(memory, 1)]


def main():
    rows, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
    with open(path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["Filename", "Depth", "Activations-Params", "Activation Function",
                         "Total Activations", "Total Parameters", "Batch Size", "Max GPU Memory (MiB)"])
        for index in range(rows):
            writer.writerow(job(rng, index))


if __name__ == "__main__":
    main()
