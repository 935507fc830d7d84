#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Exports torchvision architectures as TorchScript for bench/estimate.sh.

    /usr/bin/python3 bench/export_torchvision.py FOLDER [NAME ...]
Writes FOLDER/NAME.pt, traced in training mode with random weights (the memory
does not depend on their values). Needs Debian's python3-torchvision. The files
are never committed.
"""
import os
import sys

import torch
import torchvision

INPUTS = {"inception_v3": (3, 299, 299)}
DEFAULT = ["resnet50", "vgg16", "mobilenet_v2", "efficientnet_b0", "inception_v3"]


def build(name):
    if name == "inception_v3":
        # One output: the auxiliary classifier's logits would need a loss of their own.
        return torchvision.models.inception_v3(weights=None, aux_logits=False, init_weights=False)
    return getattr(torchvision.models, name)(weights=None)


def main():
    folder = sys.argv[1]
    names = sys.argv[2:] or DEFAULT
    os.makedirs(folder, exist_ok=True)
    torch.manual_seed(0)
    for name in names:
        example = torch.randn(2, *INPUTS.get(name, (3, 224, 224)))
        torch.jit.trace(build(name).train(), example, check_trace=False).save(os.path.join(folder, name + ".pt"))
        print(name, ",".join(str(d) for d in INPUTS.get(name, (3, 224, 224))))


if __name__ == "__main__":
    main()
