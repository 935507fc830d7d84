#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Records every allocation and release of the CUDA caching allocator during the training
steps that `gpumem estimate` traces, so that the GPU's own sequence of requests can be
replayed through the allocator model beside the estimate's (bench/README.md, "Measured on
a GPU"):

    python3 bench/record_cuda_allocations.py OUT_FOLDER [MODEL:BATCH:OPTIMIZER ...]

Each job runs in a process of its own (default: resnet18, resnet34, vgg11 and vgg16 at
batch 128 with Adam) as bench/measure_torchvision_cuda.py runs it, with the allocator's
history on from the first step. OUT_FOLDER/MODEL_BATCH_OPTIMIZER.txt holds one line per
request, in order: `alloc,ID,BYTES` (the bytes asked for) or `free,ID`, IDs numbering the
allocations; the first line is a comment with the measured peaks in bytes
(`# max_memory_allocated=… max_memory_reserved=…`). Blocks that exist before the steps
(the parameters and buffers, then one block of what else the allocator held: the cuBLAS
workspaces) are listed first as allocations.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

DEFAULT_JOBS = ["resnet18:128:adam", "resnet34:128:adam", "vgg11:128:adam", "vgg16:128:adam"]


def record(folder, job):
    import torch
    from export_torchvision import INPUTS, build
    from measure_torchvision_cuda import run_job

    name, batch, optimizer = job.split(":")
    device = torch.device("cuda")
    torch.manual_seed(0)
    model = build(name).to(device).train()
    shape = INPUTS.get(name, (3, 224, 224))
    # One untraced job first, so that the CUDA libraries' one-time allocations (the cuBLAS
    # workspaces) are made before the recording, as in the estimate's profile.
    run_job(torch, model, shape, 8, optimizer, device)
    for parameter in model.parameters():
        parameter.grad = None
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    held_bytes = torch.cuda.memory_allocated()
    torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python", max_entries=2000000)
    start = len(torch.cuda.memory._snapshot()["device_traces"][0])
    figures = run_job(torch, model, shape, int(batch), optimizer, device)
    torch.cuda.synchronize()
    events = torch.cuda.memory._snapshot()["device_traces"][0][start:]
    torch.cuda.memory._record_memory_history(enabled=None)
    path = os.path.join(folder, "%s_%s_%s.txt" % (name, batch, optimizer))
    identifiers = {}
    with open(path, "w") as out:
        out.write("# max_memory_allocated=%d max_memory_reserved=%d\n" % (
            round(figures["peak_allocated_mib"] * 2**20), round(figures["peak_reserved_mib"] * 2**20)))
        tensors = list(model.parameters()) + list(model.buffers())
        for index, tensor in enumerate(tensors):
            out.write("alloc,p%d,%d\n" % (index, tensor.untyped_storage().nbytes()))
        # What else the allocator held when the recording began: the cuBLAS workspaces.
        held = held_bytes - sum(t.untyped_storage().nbytes() for t in tensors)
        if held > 0:
            out.write("alloc,held,%d\n" % held)
        count = 0
        for event in events:
            if event["action"] == "alloc":
                identifiers[event["addr"]] = count
                out.write("alloc,%d,%d\n" % (count, event["size"]))
                count += 1
            elif event["action"] == "free_requested" and event["addr"] in identifiers:
                out.write("free,%d\n" % identifiers.pop(event["addr"]))
    print("%s: %d events" % (path, count), flush=True)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--job":
        record(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    for job in sys.argv[2:] or DEFAULT_JOBS:
        finished = subprocess.run([sys.executable, os.path.abspath(__file__), "--job", folder, job], timeout=300,
                                  capture_output=True, text=True)
        print(finished.stdout.strip() or finished.stderr.strip().splitlines()[-1:], flush=True)


if __name__ == "__main__":
    main()
