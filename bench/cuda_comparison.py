#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares GPU measurements of torchvision training with `gpumem estimate`.

    /usr/bin/python3 bench/cuda_comparison.py tables MEASURED.jsonl OUT_FOLDER
        writes OUT_FOLDER/h200_torchvision.csv (one row per model, optimizer, batch size and
        variant) and OUT_FOLDER/h200_conv_workspaces.csv (one row per convolution and batch
        size: the largest block its forward and its backward allocated and freed within the
        call, and every such block) from what bench/measure_torchvision_cuda.py recorded
    /usr/bin/python3 bench/cuda_comparison.py compare MEASURED.csv ESTIMATES.csv[.gz] [CONTEXT_MIB]
        ESTIMATES.csv is what bench/make_zoo_dataset.sh writes for the measured GPU's profile
        (GPU=h200); prints, per model, the estimate's error on nvidia-smi's figure, on
        max_memory_reserved and on max_memory_allocated, and the per-sample slope
        ((batch 128 - batch 32) / 96) of the device total, measured and estimated. The
        caching allocator holds the cuBLAS workspaces, so its two figures are compared with
        the replay's plus the estimate's workspace: what its device total holds beyond the
        reserved peak and the profile's context_mib (default 760, the H200 profile's); a
        model without matrix products has none, and less context
"""
import csv
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zoo_dataset import open_text  # noqa: E402

JOB_COLUMNS = ["model", "input_shape", "batch_size", "optimizer", "variant", "parameter_mib",
               "max_memory_allocated_mib", "max_memory_reserved_mib", "nvidia_smi_mib", "context_mib",
               "held_beside_tensors_mib", "step1_allocated_mib", "step1_reserved_mib", "step2_allocated_mib",
               "step2_reserved_mib", "gpu", "driver", "torch", "cuda", "cudnn"]
CONV_COLUMNS = ["model", "batch_size", "in_channels", "out_channels", "kernel", "stride", "padding", "groups",
                "input_shape", "output_shape", "input_mib", "output_mib", "forward_workspace_mib",
                "backward_workspace_mib", "forward_transients_mib", "backward_transients_mib"]
MIB = 2.0**20


def mib(value):
    return "" if value is None else "%.3f" % value


def shape_mib(shape):
    count = 1
    for extent in shape:
        count *= extent
    return count * 4 / MIB


def tables(measured, folder):
    environment, jobs, convolutions = {}, [], []
    for line in open(measured):
        record = json.loads(line)
        if record["kind"] == "environment":
            environment = record
        elif record["kind"] == "job" and "error" not in record:
            jobs.append(record)
        elif record["kind"] == "convolution":
            convolutions.append(record)
    with open(os.path.join(folder, "h200_torchvision.csv"), "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(JOB_COLUMNS)
        for job in jobs:
            writer.writerow([job["model"], job["input_shape"], job["batch"], job["optimizer"], job["variant"],
                             mib(job["parameter_mib"]), mib(job["peak_allocated_mib"]), mib(job["peak_reserved_mib"]),
                             mib(job.get("device_mib")), mib(job.get("context_mib")), mib(job["held_not_tensors_mib"]),
                             mib(job["step1_allocated_mib"]), mib(job["step1_reserved_mib"]),
                             mib(job["step2_allocated_mib"]), mib(job["step2_reserved_mib"]), environment.get("gpu"),
                             environment.get("driver"), environment.get("torch"), environment.get("cuda"),
                             environment.get("cudnn")])
    with open(os.path.join(folder, "h200_conv_workspaces.csv"), "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CONV_COLUMNS)
        for conv in convolutions:
            writer.writerow([conv["model"], conv["batch"], conv["in_channels"], conv["out_channels"],
                             "x".join(map(str, conv["kernel"])), "x".join(map(str, conv["stride"])),
                             "x".join(map(str, conv["padding"])), conv["groups"],
                             "x".join(map(str, conv["input_shape"])), "x".join(map(str, conv["output_shape"])),
                             mib(shape_mib(conv["input_shape"])), mib(shape_mib(conv["output_shape"])),
                             mib(max(conv["forward_transient_bytes"], default=0) / MIB),
                             mib(max(conv["backward_transient_bytes"], default=0) / MIB),
                             " ".join(mib(b / MIB) for b in conv["forward_transient_bytes"]),
                             " ".join(mib(b / MIB) for b in conv["backward_transient_bytes"])])


def workspace_mib(estimate, context_mib):
    """The cuBLAS workspaces in an estimate's device total: reserved + workspace + context."""
    beside = float(estimate["simulated_device_mib"]) - float(estimate["simulated_reserved_mib"])
    return max(0.0, beside - context_mib)


def compare(measured, estimates, context_mib):
    jobs = {(r["model"], r["optimizer"], int(r["batch_size"])): r for r in csv.DictReader(open(measured))
            if r["variant"] == "default"}
    measured_shapes = {r["model"]: r["input_shape"] for r in jobs.values()}
    # The zoo script's rows of each model's own input only (it may add other image sizes).
    estimated = {(r["model"], r["optimizer"], int(r["Batch Size"])): r for r in csv.DictReader(open_text(estimates))
                 if r["input_shape"] == measured_shapes.get(r["model"])}
    columns = [("nvidia_smi_mib", "simulated_device_mib", False),
               ("max_memory_reserved_mib", "simulated_reserved_mib", True),
               ("max_memory_allocated_mib", "simulated_allocated_mib", True)]
    errors = {key: [] for key, _, _ in columns}
    print("%-18s %-5s %11s %11s %11s %8s %8s %7s" % ("model", "opt", "smi worst", "reserved", "allocated",
                                                    "slope", "est", "error"))
    for model in sorted({key[0] for key in jobs}):
        for optimizer in ("sgd", "adam"):
            keys = [k for k in jobs if k[:2] == (model, optimizer) and k in estimated]
            if not keys:
                continue
            worst = {}
            for measure, estimate, with_workspace in columns:
                relative = [100 * (float(estimated[k][estimate]) - float(jobs[k][measure]) +
                                   (workspace_mib(estimated[k], context_mib) if with_workspace else 0.0)) /
                            float(jobs[k][measure]) for k in keys]
                errors[measure] += relative
                worst[measure] = max(relative, key=abs)
            slope = estimated_slope = float("nan")
            if (model, optimizer, 32) in estimated and (model, optimizer, 128) in estimated:
                slope = (float(jobs[(model, optimizer, 128)]["nvidia_smi_mib"]) -
                         float(jobs[(model, optimizer, 32)]["nvidia_smi_mib"])) / 96
                estimated_slope = (float(estimated[(model, optimizer, 128)]["simulated_device_mib"]) -
                                   float(estimated[(model, optimizer, 32)]["simulated_device_mib"])) / 96
            print("%-18s %-5s %+10.1f%% %+10.1f%% %+10.1f%% %8.1f %8.1f %+6.1f%%" % (
                model, optimizer, worst["nvidia_smi_mib"], worst["max_memory_reserved_mib"],
                worst["max_memory_allocated_mib"], slope, estimated_slope, 100 * (estimated_slope - slope) / slope))
    for measure, _, _ in columns:
        magnitudes = [abs(e) for e in errors[measure]]
        print("%-24s %d jobs: median |error| %.1f%%, worst %.1f%%, mean signed %+.1f%%" % (
            measure, len(magnitudes), statistics.median(magnitudes), max(magnitudes), statistics.mean(errors[measure])))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "tables":
        tables(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], float(sys.argv[4]) if len(sys.argv) == 5 else 760.0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
