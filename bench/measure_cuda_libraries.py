#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Measures on a CUDA GPU what the CUDA libraries add to a process beside its tensors:
the part of the context that each library's kernels take when they first run (lazy
loading), the cuBLAS workspaces per thread, and what attention saves for backward with
each backend of scaled_dot_product_attention (docs/estimate.md, "CPU versus GPU").

    python3 bench/measure_cuda_libraries.py OUT.jsonl [--device cuda|cpu]
    /usr/bin/python3 bench/measure_cuda_libraries.py tables OUT.jsonl FOLDER
        writes FOLDER/h200_cuda_libraries.csv (one row per stage and workspace setting) and
        FOLDER/h200_attention.csv (one row per token count and backend)

`stages` runs, in a fresh process for each CUBLAS_WORKSPACE_CONFIG (the default and
":4096:2:16:8"), one operation after another and records after each the process's
device memory (nvidia-smi's figure), the reserved and the allocated bytes once its
tensors are gone: CUDA initialised, a cuDNN convolution forward and backward, a matrix
product (the main thread's cuBLAS handle), one through autograd (backward runs on
autograd's device thread, with a handle of its own), a linear layer with a bias
(cuBLASLt) and a batched product. `attention` runs nn.MultiheadAttention (768 wide, 12
heads, batch 16, need_weights=False as in torchvision's ViT) over 50 to 785 tokens with
the default, math and memory-efficient backends and records the bytes its forward keeps
for backward (the output included) and the peak above that during backward.
`--device cpu` runs the same code without memory figures, as a smoke test.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_torchvision_cuda import MIB, Nvml, start_parent_or_worker  # noqa: E402

WORKSPACE_CONFIGS = ["", ":4096:2:16:8"]
STAGE_COLUMNS = ["stage", "cublas_workspace_config", "device_mib", "reserved_mib", "allocated_mib", "context_mib",
                 "gpu", "driver", "torch", "cuda", "cudnn"]
ATTENTION_COLUMNS = ["backend", "batch", "tokens", "heads", "embedding", "forward_kept_mib",
                     "backward_peak_above_kept_mib", "probabilities_mib", "output_mib", "gpu", "driver", "torch",
                     "cuda", "cudnn"]
TOKENS = [50, 101, 197, 401, 785]


def stages(torch, device, nvml, emit, config):
    cuda = device.type == "cuda"

    def record(stage):
        figures = {"kind": "stage", "stage": stage, "CUBLAS_WORKSPACE_CONFIG": config or "default"}
        if cuda:
            torch.cuda.synchronize()
            figures["allocated_mib"] = torch.cuda.memory_allocated() / MIB
            figures["reserved_mib"] = torch.cuda.memory_reserved() / MIB
            figures["device_mib"], figures["device_mib_from"] = nvml.process_mib()
        emit(figures)

    torch.zeros(1, device=device)
    record("cuda_initialised")
    convolution = torch.nn.Conv2d(64, 64, 3, padding=1).to(device)
    x = torch.randn(8, 64, 56, 56, device=device, requires_grad=True)
    convolution(x).sum().backward()
    del convolution, x
    record("cudnn_convolution")
    a = torch.randn(256, 256, device=device)
    b = torch.randn(256, 256, device=device)
    with torch.no_grad():
        torch.mm(a, b)
    record("mm_forward")
    a.requires_grad_(True)
    torch.mm(a, b).sum().backward()
    del a, b
    record("mm_backward")
    linear = torch.nn.Linear(256, 256).to(device)
    x = torch.randn(64, 256, device=device, requires_grad=True)
    linear(x).sum().backward()
    del linear, x
    record("linear_with_bias")
    p = torch.randn(8, 64, 64, device=device, requires_grad=True)
    torch.bmm(p, p).sum().backward()
    del p
    record("bmm")


def attention(torch, device, emit):
    cuda = device.type == "cuda"
    backends = {"default": None}
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel

        backends.update(math=SDPBackend.MATH, efficient=SDPBackend.EFFICIENT_ATTENTION)
    except ImportError:  # PyTorch 1.x: one implementation, no backends to choose
        pass
    torch.manual_seed(0)
    layer = torch.nn.MultiheadAttention(768, 12, batch_first=True).to(device)
    batch = 16
    for tokens in TOKENS:
        for name, backend in backends.items():
            x = torch.randn(batch, tokens, 768, device=device, requires_grad=True)
            figures = {"kind": "attention", "backend": name, "batch": batch, "tokens": tokens, "heads": 12,
                       "embedding": 768}
            try:
                if cuda:
                    torch.cuda.synchronize()
                    before = torch.cuda.memory_allocated()
                context = sdpa_kernel(backend) if backend is not None else None
                if context is not None:
                    context.__enter__()
                try:
                    output, _ = layer(x, x, x, need_weights=False)
                    if cuda:
                        torch.cuda.synchronize()
                        saved = torch.cuda.memory_allocated() - before
                        torch.cuda.reset_peak_memory_stats()
                    output.backward(torch.ones_like(output))
                finally:
                    if context is not None:
                        context.__exit__(None, None, None)
                if cuda:
                    torch.cuda.synchronize()
                    figures["forward_kept_mib"] = saved / MIB
                    figures["backward_peak_above_kept_mib"] = (torch.cuda.max_memory_allocated() - before - saved) / MIB
                    figures["probabilities_mib"] = batch * 12 * tokens * tokens * 4 / MIB
                    figures["output_mib"] = batch * tokens * 768 * 4 / MIB
            except Exception as error:  # noqa: BLE001 - a backend that refuses the shape is a result too
                figures["error"] = str(error).splitlines()[0][:300]
            emit(figures)
            layer.zero_grad(set_to_none=True)
            del x
            output = None


def worker(arguments):
    import torch

    device = torch.device(arguments.device)
    nvml = Nvml(arguments.baseline_mib) if device.type == "cuda" else None
    with open(arguments.out, "a") as out:

        def emit(record):
            out.write(json.dumps(record) + "\n")
            out.flush()

        if arguments.worker == "stages":
            stages(torch, device, nvml, emit, os.environ.get("CUBLAS_WORKSPACE_CONFIG", ""))
        else:
            attention(torch, device, emit)


def tables(measured, folder):
    """The two CSV files of datasets/ from what the measurement recorded."""
    records = [json.loads(line) for line in open(measured) if line.strip()]
    environment_record = next(r for r in records if r["kind"] == "environment")
    machine = {key: environment_record[key] for key in ("gpu", "driver", "torch", "cuda", "cudnn")}

    def rounded(value):
        return "%.3f" % value if isinstance(value, float) else value

    stages = []
    for record in records:
        if record["kind"] == "stage" and "device_mib" in record:
            row = dict(record, cublas_workspace_config=record["CUBLAS_WORKSPACE_CONFIG"], **machine)
            row["context_mib"] = record["device_mib"] - record["reserved_mib"]
            stages.append(row)
    attention = [dict(r, **machine) for r in records if r["kind"] == "attention" and "forward_kept_mib" in r]
    # The first attention job of the process also allocates the two cuBLAS workspaces
    # (33 MiB): it is left out, the same shape is measured again with each backend.
    attention = attention[1:]
    for name, columns, rows in (("h200_cuda_libraries.csv", STAGE_COLUMNS, stages),
                                ("h200_attention.csv", ATTENTION_COLUMNS, attention)):
        with open(os.path.join(folder, name), "w", newline="") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(columns)
            for row in rows:
                writer.writerow([rounded(row[column]) for column in columns])
        print("%s: %d rows" % (name, len(rows)))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "tables":
        tables(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--device", default="cuda")
    started = start_parent_or_worker(parser, worker)
    if started is None:
        return
    arguments, baseline = started
    runs = [("stages", config) for config in WORKSPACE_CONFIGS] + [("attention", "")]
    for name, config in runs:
        environment_variables = dict(os.environ)
        environment_variables.pop("CUBLAS_WORKSPACE_CONFIG", None)
        if config:
            environment_variables["CUBLAS_WORKSPACE_CONFIG"] = config
        command = [sys.executable, os.path.abspath(__file__), arguments.out, "--worker", name, "--device",
                   arguments.device, "--baseline-mib", str(baseline)]
        finished = subprocess.run(command, env=environment_variables, timeout=300, capture_output=True, text=True)
        status = "ok" if finished.returncode == 0 else finished.stderr.strip().splitlines()[-1:]
        print(f"{name} {config or 'default'}: {status}", flush=True)


if __name__ == "__main__":
    main()
