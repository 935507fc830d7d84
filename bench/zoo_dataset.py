#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Helper of bench/make_zoo_dataset.sh: layer sequences of torchvision models, and the CSV.

    /usr/bin/python3 bench/zoo_dataset.py layers FOLDER [--resolution PX] NAME ...
        writes FOLDER/NAME.layers.json: the GPUMemNet layer sequence of one sample (the
        model's own input, or a square image of PX pixels), counted with forward hooks
        (needs Debian's python3-torchvision)
    /usr/bin/python3 bench/zoo_dataset.py assemble OUT.csv[.gz] OPTIMIZERS FOLDER ...
        joins each FOLDER's shapes.txt, layer files and the estimates FOLDER/NAME.OPTIMIZER.json
        that `gpumem estimate --json` wrote into one row per model, input, optimizer and
        batch size; OPTIMIZERS is a comma-separated list; OUT.csv.gz is written gzip-compressed
    /usr/bin/python3 bench/zoo_dataset.py replace OUT.csv[.gz] NEW.csv[.gz]
        puts the rows of NEW (what the zoo script wrote for MODELS=...) in place of OUT's
        rows of the same models, in OUT's order, and rewrites OUT as `assemble` writes it:
        after a change to the estimate that only those models' traces see
"""
import csv
import gzip
import io
import json
import os
import sys

# The layer types as the GPUMemNet data and `gpumem probe` spell them; any other
# module keeps its class name (activations such as ReLU, SiLU, Hardswish) or, for
# containers holding parameters of their own, its lower-case class name.
RENAMED = [
    ("Linear", "linear"),
    ("Conv2d", "conv2d"),
    ("BatchNorm1d", "batch_normalization"),
    ("BatchNorm2d", "batch_normalization"),
    ("LayerNorm", "layer_normalization"),
    ("Dropout", "dropout"),
    ("MaxPool2d", "max_pool"),
    ("AvgPool2d", "avg_pool"),
    ("Flatten", "flatten"),
]


def layer_type(module, output):
    import torch

    if isinstance(module, torch.nn.AdaptiveAvgPool2d):
        tensor = first_tensor(output)
        return "global_avg_pool" if tensor is not None and tensor.shape[-2:] == (1, 1) else "adaptive_avg_pool"
    for class_name, name in RENAMED:
        if isinstance(module, getattr(torch.nn, class_name)):
            return name
    if any(True for _ in module.children()):
        return type(module).__name__.lower()
    return type(module).__name__


def first_tensor(output):
    import torch

    if isinstance(output, torch.Tensor):
        return output
    if isinstance(output, (tuple, list)):
        for item in output:
            if isinstance(item, torch.Tensor):
                return item
    return None


def output_elements(output):
    """Elements per sample of a module's output (the forward runs one sample)."""
    import torch

    if isinstance(output, torch.Tensor):
        return output.numel()
    if isinstance(output, (tuple, list)):
        return sum(output_elements(item) for item in output)
    return 0


def layer_sequence(model, shape):
    """One tuple per call of a leaf module (or a module with parameters of its own), in call order."""
    import torch

    layers = []
    first_call = {}  # module id -> index of its first tuple, where its parameters are counted

    def hook(module, inputs, output):
        if isinstance(module, torch.nn.Identity):
            return
        own = 0
        if id(module) not in first_call:
            first_call[id(module)] = len(layers)
            own = sum(p.numel() for p in module.parameters(recurse=False))
        layers.append([layer_type(module, output), output_elements(output), own])

    handles = []
    for module in model.modules():
        leaf = not any(True for _ in module.children())
        if leaf or any(True for _ in module.parameters(recurse=False)):
            handles.append(module.register_forward_hook(hook))
    model.eval()  # shapes only; batch norm over one sample is refused in training mode
    with torch.no_grad():
        model(torch.randn(1, *shape))
    for handle in handles:
        handle.remove()
    # A module whose weights its parent uses directly (MultiheadAttention's out_proj)
    # never runs: its parameters go to the nearest ancestor that did.
    named = dict(model.named_modules())
    for name, module in named.items():
        own = sum(p.numel() for p in module.parameters(recurse=False))
        if own == 0 or id(module) in first_call:
            continue
        parts = name.split(".")
        for end in range(len(parts) - 1, -1, -1):
            ancestor = named[".".join(parts[:end])]
            if id(ancestor) in first_call:
                layers[first_call[id(ancestor)]][2] += own
                break
    return [tuple(layer) for layer in layers]


def write_layers(folder, names, resolution):
    import torch

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from export_torchvision import build, input_shape

    torch.manual_seed(0)
    for name in names:
        shape = input_shape(name, resolution)
        model = build(name, resolution)
        layers = layer_sequence(model, shape)
        text = "[" + ", ".join("(%r, %d, %d)" % layer for layer in layers) + "]"
        record = {
            "layer_sequence": text,
            "total_parameters": sum(layer[2] for layer in layers),
            "total_activations": sum(layer[1] for layer in layers),
            "parameter_count": sum(p.numel() for p in model.parameters()),
        }
        if record["total_parameters"] != record["parameter_count"]:
            print("%s: the layer sequence holds %d of %d parameters" %
                  (name, record["total_parameters"], record["parameter_count"]), file=sys.stderr)
        with open(os.path.join(folder, name + ".layers.json"), "w") as out:
            json.dump(record, out)


def rounded(value):
    return "%.3f" % value


def open_text(path):
    """A CSV file, gzip-compressed when its name ends in .gz (as the zoo script writes it)."""
    return gzip.open(path, "rt", newline="") if path.endswith(".gz") else open(path, newline="")


def write_rows(path, columns, rows):
    """Writes the CSV file, gzip-compressed without a name or time when path ends in .gz,
    so that the same rows make the same bytes."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    data = text.getvalue().encode()
    if path.endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    temporary = path + ".tmp"
    with open(temporary, "wb") as out:
        out.write(data)
    os.replace(temporary, path)
    print("%d rows, %d bytes: %s" % (len(rows), os.path.getsize(path), path), file=sys.stderr)


def replace(path, new_path):
    with open_text(new_path) as new_file:
        new_rows = list(csv.reader(new_file))
    with open_text(path) as old_file:
        old_rows = list(csv.reader(old_file))
    if new_rows[0] != old_rows[0]:
        sys.exit("%s and %s have different columns" % (path, new_path))
    replaced = {row[0] for row in new_rows[1:]}
    # Each (model, input, optimizer, batch) row of NEW takes the place of the same row of OUT.
    key = lambda row: tuple(row[:4])  # noqa: E731
    new_by_key = {key(row): row for row in new_rows[1:]}
    rows = []
    for row in old_rows[1:]:
        if row[0] not in replaced:
            rows.append(row)
        elif key(row) in new_by_key:
            rows.append(new_by_key.pop(key(row)))
        else:
            print("%s: no new row, left out" % ",".join(row[:4]), file=sys.stderr)
    rows += new_by_key.values()
    write_rows(path, old_rows[0], rows)


def assemble(path, optimizers, folders):
    columns = ["model", "input_shape", "Batch Size", "optimizer", "layer_sequence", "total_parameters",
               "total_activations", "simulated_allocated_mib", "simulated_reserved_mib", "simulated_device_mib"]
    rows = []
    for folder in folders:
        with open(os.path.join(folder, "shapes.txt")) as shapes:
            entries = [line.split() for line in shapes if line.strip()]
        for name, shape in entries:
            with open(os.path.join(folder, name + ".layers.json")) as layers_file:
                layers = json.load(layers_file)
            for optimizer in optimizers:
                estimate_path = os.path.join(folder, "%s.%s.json" % (name, optimizer))
                if not os.path.exists(estimate_path):
                    print("%s %s %s: no estimate, left out" % (name, shape, optimizer), file=sys.stderr)
                    continue
                with open(estimate_path) as estimate_file:
                    document = json.load(estimate_file)
                print("%-20s %-11s %-12s traced at %-6s extrapolated %s" %
                      (name, shape, optimizer, ",".join(str(b) for b in document["traced_batches"]),
                       document["extrapolated"]), file=sys.stderr)
                for estimate in document["estimates"]:
                    rows.append([name, shape.replace(",", "x"), estimate["batch_size"], optimizer,
                                 layers["layer_sequence"], layers["total_parameters"], layers["total_activations"],
                                 rounded(estimate["peak_allocated_mib"]), rounded(estimate["peak_reserved_mib"]),
                                 rounded(estimate["device_total_mib"])])
    write_rows(path, columns, rows)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "layers":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from export_torchvision import resolution_option

        resolution, names = resolution_option(sys.argv[3:])
        write_layers(sys.argv[2], names, resolution)
    elif len(sys.argv) >= 5 and sys.argv[1] == "assemble":
        assemble(sys.argv[2], sys.argv[3].split(","), sys.argv[4:])
    elif len(sys.argv) == 4 and sys.argv[1] == "replace":
        replace(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
