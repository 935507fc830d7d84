#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Measures training steps of torchvision models on a CUDA GPU: the reference that
`gpumem estimate` is checked against (bench/README.md, "Measured on a GPU").

    python3 bench/measure_torchvision_cuda.py OUT.jsonl [--models NAME ...] [--batches 8,16,32]
                                              [--optimizers sgd,adam] [--variants] [--workspaces]
                                              [--device cuda|cpu]

Each model runs in a process of its own, so that its CUDA context holds only its own
kernels. For every optimizer and batch size, the step is the one `gpumem estimate` traces:
float32, random inputs and class labels, cross-entropy, `zero_grad(set_to_none=True)`,
forward, backward, `step()` of torch.optim's default implementation, two steps, the
previous step's output and loss alive until the next forward ends. Before each job the
gradients and the optimizer are dropped and the cache emptied, so each job starts with
the parameters alone, as a fresh process would. One JSON object per job:
max_memory_allocated and max_memory_reserved (MiB), the second step's own peaks, the
process's device memory as NVML reports it (what nvidia-smi shows; after the steps,
with nothing returned to the driver in between, that is its peak), the context (that
less the reserved memory), and the allocations still held after the step that are no
tensor of the job (the cuBLAS workspaces). `--variants` repeats Adam at batches 32 and
128 with cuDNN turned off and, for models with attention, with the math backend of
scaled_dot_product_attention. (`cudnn.benchmark` is not among them: PyTorch keeps the
algorithm it chose for a shape for the rest of the process, so turned on after the
default runs it changes nothing.) `--workspaces` runs every
distinct convolution of vgg16, resnet34 and resnet50 alone at batches 8, 32 and 128 and
records the blocks each forward and backward allocates and frees within the call
(cuDNN's workspaces). `--device cpu` runs the same steps without memory figures, as a
smoke test on a machine without a GPU.
"""
import argparse
import json
import os
import subprocess
import sys
import time

# The same models and inputs as the exports that `gpumem estimate` traces.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_torchvision import INPUTS, build  # noqa: E402

MIB = 2.0**20
ZOO = ["resnet18", "resnet34", "resnet50", "resnet101", "wide_resnet50_2", "vgg11", "vgg11_bn", "vgg16", "vgg19",
       "alexnet", "mobilenet_v2", "mobilenet_v3_small", "mobilenet_v3_large", "efficientnet_b0", "efficientnet_b1",
       "densenet121", "squeezenet1_0", "squeezenet1_1", "shufflenet_v2_x1_0", "mnasnet1_0", "regnet_y_400mf",
       "regnet_x_1_6gf", "convnext_tiny", "inception_v3", "vit_b_16"]
VARIANT_MODELS = {"vgg11", "vgg11_bn", "vgg16", "vgg19", "resnet34", "resnet50", "convnext_tiny", "vit_b_16"}
WORKSPACE_MODELS = ["vgg16", "resnet34", "resnet50"]


class Nvml:
    """The process's device memory as nvidia-smi shows it, or the device's used memory
    less what was used before the process started (one process at a time)."""

    def __init__(self, baseline_mib):
        self.handle = None
        self.baseline_mib = baseline_mib
        try:
            import pynvml

            pynvml.nvmlInit()
            self.nvml = pynvml
            self.handle = pynvml.nvmlDeviceGetHandleByIndex(0)
        except Exception:  # noqa: BLE001 - no NVML: the figure is left out
            pass

    def process_mib(self):
        if self.handle is None:
            return None, None
        try:
            for process in self.nvml.nvmlDeviceGetComputeRunningProcesses(self.handle):
                if process.pid == os.getpid() and process.usedGpuMemory:
                    return process.usedGpuMemory / MIB, "process"
        except Exception:  # noqa: BLE001
            pass
        return self.device_used_mib() - self.baseline_mib, "device_used_less_baseline"

    def device_used_mib(self):
        return self.nvml.nvmlDeviceGetMemoryInfo(self.handle).used / MIB if self.handle is not None else 0.0


def tensor_bytes(tensors):
    seen, total = set(), 0
    for tensor in tensors:
        if tensor is None or not tensor.is_cuda:
            continue
        storage = tensor.untyped_storage() if hasattr(tensor, "untyped_storage") else tensor.storage()
        key = storage.data_ptr()
        if key in seen:
            continue
        seen.add(key)
        total += (storage.nbytes() + 511) // 512 * 512
    return total


def run_job(torch, model, shape, batch, optimizer_name, device):
    """Two training steps; returns the memory figures (None on the CPU)."""
    cuda = device.type == "cuda"
    for parameter in model.parameters():
        parameter.grad = None
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    parameters = list(model.parameters())
    if optimizer_name == "adam":
        optimizer = torch.optim.Adam(parameters, lr=1e-3)
    elif optimizer_name == "adamw":
        optimizer = torch.optim.AdamW(parameters, lr=1e-3)
    elif optimizer_name == "sgd_momentum":
        optimizer = torch.optim.SGD(parameters, lr=1e-3, momentum=0.9)
    else:
        optimizer = torch.optim.SGD(parameters, lr=1e-3)
    inputs = torch.randn(batch, *shape, device=device)
    output = loss = None
    figures = {}
    for step in range(2):
        if cuda and step == 1:
            torch.cuda.synchronize()
            figures["step1_allocated_mib"] = torch.cuda.max_memory_allocated() / MIB
            figures["step1_reserved_mib"] = torch.cuda.max_memory_reserved() / MIB
            torch.cuda.reset_peak_memory_stats()
        optimizer.zero_grad(set_to_none=True)
        output = model(inputs)
        labels = torch.randint(output.shape[-1], (batch,), device=device) if step == 0 else labels
        loss = torch.nn.functional.cross_entropy(output, labels)
        loss.backward()
        optimizer.step()
    if not cuda:
        return figures
    torch.cuda.synchronize()
    figures["step2_allocated_mib"] = torch.cuda.max_memory_allocated() / MIB
    figures["step2_reserved_mib"] = torch.cuda.max_memory_reserved() / MIB
    figures["peak_allocated_mib"] = max(figures["step1_allocated_mib"], figures["step2_allocated_mib"])
    figures["peak_reserved_mib"] = max(figures["step1_reserved_mib"], figures["step2_reserved_mib"])
    state = [value for entry in optimizer.state.values() for value in entry.values() if torch.is_tensor(value)]
    job_tensors = parameters + [p.grad for p in parameters] + list(model.buffers()) + state
    job_tensors += [inputs, labels, output, loss]
    figures["held_not_tensors_mib"] = (torch.cuda.memory_allocated() - tensor_bytes(job_tensors)) / MIB
    figures["reserved_now_mib"] = torch.cuda.memory_reserved() / MIB
    del optimizer, state, job_tensors, output, loss, inputs
    return figures


def environment(torch):
    info = {"torch": torch.__version__, "cuda": torch.version.cuda, "cudnn": None, "gpu": None, "driver": None,
            "CUBLAS_WORKSPACE_CONFIG": os.environ.get("CUBLAS_WORKSPACE_CONFIG"),
            "CUDA_MODULE_LOADING": os.environ.get("CUDA_MODULE_LOADING")}
    if torch.cuda.is_available():
        info["cudnn"] = torch.backends.cudnn.version()
        info["gpu"] = torch.cuda.get_device_name(0)
        info["capability"] = ".".join(str(part) for part in torch.cuda.get_device_capability(0))
        try:
            import pynvml

            pynvml.nvmlInit()
            driver = pynvml.nvmlSystemGetDriverVersion()
            info["driver"] = driver.decode() if isinstance(driver, bytes) else driver
        except Exception:  # noqa: BLE001
            pass
    return info


def start_parent_or_worker(parser, worker):
    """Parses the command line of a measuring script whose every job runs in a worker process
    of its own (--worker NAME). In a worker, runs worker(arguments) and returns None. In the
    parent, records the environment and the device memory already in use before any worker
    starts (the baseline a worker's device-wide NVML figure is corrected by) as the first line
    of OUT, and returns the arguments and that baseline."""
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--baseline-mib", type=float, default=0.0, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.worker:
        worker(arguments)
        return None
    import torch

    info = environment(torch)  # initialises CUDA here: the baseline below includes this process's context
    baseline = Nvml(0.0).device_used_mib() if arguments.device == "cuda" else 0.0
    with open(arguments.out, "a") as out:
        out.write(json.dumps({"kind": "environment", **info, "baseline_used_mib": baseline}) + "\n")
    return arguments, baseline


def transient_blocks(torch, call):
    """Runs call() with the allocator's history on; returns the sizes (bytes) of the blocks
    allocated and freed within it, in order, and the call's result."""
    torch.cuda.synchronize()
    torch.cuda.memory._record_memory_history(enabled="all", context=None, stacks="python", max_entries=100000)
    before = len(torch.cuda.memory._snapshot()["device_traces"][0])
    result = call()
    torch.cuda.synchronize()
    trace = torch.cuda.memory._snapshot()["device_traces"][0][before:]
    torch.cuda.memory._record_memory_history(enabled=None)
    allocated = {}
    transients = []
    for event in trace:
        if event["action"] == "alloc":
            allocated[event["addr"]] = event["size"]
        elif event["action"] == "free_requested" and event["addr"] in allocated:
            transients.append(allocated.pop(event["addr"]))
    return transients, result


def convolution_workspaces(torch, name, device, emit):
    model = build(name).to(device).train()
    shape = INPUTS.get(name, (3, 224, 224))
    for batch in (8, 32, 128):
        seen = {}

        def remember(module, inputs, _output):
            key = (module.in_channels, module.out_channels, module.kernel_size, module.stride, module.padding,
                   module.groups, tuple(inputs[0].shape))
            seen.setdefault(key, module)

        hooks = [m.register_forward_hook(remember) for m in model.modules() if isinstance(m, torch.nn.Conv2d)]
        with torch.no_grad():
            model(torch.randn(batch, *shape, device=device))
        for hook in hooks:
            hook.remove()
        for key, module in seen.items():
            first_layer = key[-1][1] == 3
            x = torch.randn(*key[-1], device=device, requires_grad=not first_layer)
            torch.cuda.empty_cache()
            forward, y = transient_blocks(torch, lambda: module(x))
            grad = torch.randn_like(y)
            backward, _ = transient_blocks(torch, lambda: y.backward(grad))
            emit({"kind": "convolution", "model": name, "batch": batch, "in_channels": key[0], "out_channels": key[1],
                  "kernel": list(key[2]), "stride": list(key[3]), "padding": list(key[4]), "groups": key[5],
                  "input_shape": list(key[6]), "output_shape": list(y.shape),
                  "forward_transient_bytes": forward, "backward_transient_bytes": backward})
            del x, y, grad
            module.zero_grad(set_to_none=True)


def worker(arguments):
    import torch

    device = torch.device(arguments.device)
    nvml = Nvml(arguments.baseline_mib) if device.type == "cuda" else None
    out = open(arguments.out, "a")

    def emit(record):
        out.write(json.dumps(record) + "\n")
        out.flush()

    name = arguments.worker
    if arguments.workspaces:
        convolution_workspaces(torch, name, device, emit)
        return
    torch.manual_seed(0)
    model = build(name).to(device).train()
    shape = INPUTS.get(name, (3, 224, 224))
    parameter_mib = sum(p.numel() * p.element_size() for p in model.parameters()) / MIB

    def measure(optimizer, batch, variant):
        started = time.monotonic()
        record = {"kind": "job", "model": name, "input_shape": "x".join(str(d) for d in shape), "batch": batch,
                  "optimizer": optimizer, "variant": variant, "parameter_mib": parameter_mib}
        try:
            record.update(run_job(torch, model, shape, batch, optimizer, device))
            if nvml is not None:
                record["device_mib"], record["device_mib_from"] = nvml.process_mib()
                if record["device_mib"] is not None:
                    record["context_mib"] = record["device_mib"] - record["reserved_now_mib"]
        except Exception as error:  # noqa: BLE001 - an out-of-memory or a model error is a result too
            record["error"] = str(error).splitlines()[0][:300]
        record["seconds"] = round(time.monotonic() - started, 3)
        emit(record)

    for optimizer in arguments.optimizers.split(","):
        for batch in (int(b) for b in arguments.batches.split(",")):
            measure(optimizer, batch, "default")
    if arguments.variants and name in VARIANT_MODELS and device.type == "cuda":
        for batch in (32, 128):
            torch.backends.cudnn.enabled = False
            measure("adam", batch, "cudnn_off")
            torch.backends.cudnn.enabled = True
            if name.startswith("vit"):
                from torch.nn.attention import SDPBackend, sdpa_kernel

                with sdpa_kernel(SDPBackend.MATH):
                    measure("adam", batch, "sdpa_math")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--models", nargs="*", default=ZOO)
    parser.add_argument("--batches", default="8,16,32,64,128")
    parser.add_argument("--optimizers", default="sgd,adam")
    parser.add_argument("--variants", action="store_true")
    parser.add_argument("--workspaces", action="store_true")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per model")
    started = start_parent_or_worker(parser, worker)
    if started is None:
        return
    arguments, baseline = started
    tasks = [(name, []) for name in arguments.models]
    if arguments.workspaces:
        tasks += [(name, ["--workspaces"]) for name in WORKSPACE_MODELS]
    for name, extra in tasks:
        command = [sys.executable, os.path.abspath(__file__), arguments.out, "--worker", name, "--batches",
                   arguments.batches, "--optimizers", arguments.optimizers, "--device", arguments.device,
                   "--baseline-mib", str(baseline)] + (["--variants"] if arguments.variants else []) + extra
        started = time.monotonic()
        try:
            finished = subprocess.run(command, timeout=arguments.timeout, capture_output=True, text=True)
            status = "ok" if finished.returncode == 0 else finished.stderr.strip().splitlines()[-1:]
        except subprocess.TimeoutExpired:
            status = "timeout"
        print(f"{name} {' '.join(extra)}: {status} in {time.monotonic() - started:.1f} s", flush=True)


if __name__ == "__main__":
    main()
