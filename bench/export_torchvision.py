#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Exports torchvision architectures as TorchScript for bench/estimate.sh.

    /usr/bin/python3 bench/export_torchvision.py FOLDER [--resolution PX] [NAME ...]
Writes FOLDER/NAME.pt, traced in training mode with random weights (the memory
does not depend on their values), and prints "NAME C,H,W" per model: the input it
was traced at, the model's own (224 px, 299 for inception_v3) unless --resolution
gives another side. Needs Debian's python3-torchvision. The files are never committed.
"""
import os
import sys

import torch
import torchvision

INPUTS = {"inception_v3": (3, 299, 299)}
DEFAULT = ["resnet50", "vgg16", "mobilenet_v2", "efficientnet_b0", "inception_v3"]


def input_shape(name, resolution=None):
    """One sample's shape: the model's own input, or a square image of resolution pixels."""
    if resolution is None:
        return INPUTS.get(name, (3, 224, 224))
    return (3, resolution, resolution)


def build(name, resolution=None):
    if name == "inception_v3":
        # One output: the auxiliary classifier's logits would need a loss of their own.
        return torchvision.models.inception_v3(weights=None, aux_logits=False, init_weights=False)
    if name.startswith("vit_") and resolution is not None:
        # A vision transformer's position table is sized for its image.
        return getattr(torchvision.models, name)(weights=None, image_size=resolution)
    return getattr(torchvision.models, name)(weights=None)


def resolution_option(arguments):
    """Splits an optional leading `--resolution PX` off arguments: (PX or None, the rest)."""
    if arguments[:1] != ["--resolution"]:
        return None, arguments
    if len(arguments) < 2 or not arguments[1].isdigit():
        sys.exit("--resolution takes a whole number of pixels")
    return int(arguments[1]), arguments[2:]


def main():
    arguments = sys.argv[1:]
    if not arguments:
        sys.exit(__doc__)
    folder = arguments.pop(0)
    resolution, arguments = resolution_option(arguments)
    names = arguments or DEFAULT
    os.makedirs(folder, exist_ok=True)
    torch.manual_seed(0)
    for name in names:
        shape = input_shape(name, resolution)
        example = torch.randn(2, *shape)
        torch.jit.trace(build(name, resolution).train(), example,
                        check_trace=False).save(os.path.join(folder, name + ".pt"))
        print(name, ",".join(str(d) for d in shape))


if __name__ == "__main__":
    main()
