#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the TorchScript models the estimate tests train, and their sizes.

Run by tests/core/test_Estimate*.cpp at test time (nothing is committed):
    /usr/bin/python3 tests/data/make_estimate_fixtures.py OUTPUT_FOLDER
Writes mlp.pt (input 20 features, 10 classes), cnn.pt (input 3x16x16, with
batch norm, 10 classes), pairs_only.pt (20 features, scripted, refuses a
batch of 1), tokens.pt (token ids below 50 in, logits per token out),
attention.pt (nn.MultiheadAttention, 16 wide, 2 heads, over 12 tokens of 16
features, then a linear layer to 10 classes), convolutions.pt (two 3x3
convolutions of 8 channels over 8x16x16 and a mean: no matrix product),
weights.pt (a state dict saved with torch.save, which
is not TorchScript) and sizes.json (parameter and buffer bytes of each model,
counted as numel x element size).
"""
import json
import os
import sys

import torch


def sizes(model):
    return {
        "parameter_bytes": sum(p.numel() * p.element_size() for p in model.parameters()),
        "buffer_bytes": sum(b.numel() * b.element_size() for b in model.buffers()),
        "parameter_count": sum(p.numel() for p in model.parameters()),
    }


class PairsOnly(torch.nn.Module):
    """Refuses a batch of one sample, as some models do (scripted, so the check stays)."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(20, 10)

    def forward(self, x):
        if x.size(0) < 2:
            raise RuntimeError("this model needs at least 2 samples per batch")
        return self.linear(x)


class Attention(torch.nn.Module):
    """Self-attention as torchvision's ViT calls it, then a classifier."""

    def __init__(self):
        super().__init__()
        self.attention = torch.nn.MultiheadAttention(16, 2, batch_first=True)
        self.head = torch.nn.Linear(16, 10)

    def forward(self, x):
        mixed, _ = self.attention(x, x, x, need_weights=False)
        return self.head(mixed.mean(1))


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    torch.manual_seed(0)
    mlp = torch.nn.Sequential(
        torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 10))
    cnn = torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Conv2d(8, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
        torch.nn.Linear(16, 10))
    pairs_only = torch.jit.script(PairsOnly())
    # Token ids in, [batch, tokens, vocabulary] logits out.
    language = torch.nn.Sequential(torch.nn.Embedding(50, 16), torch.nn.Linear(16, 50))
    torch.jit.trace(language.train(), torch.randint(0, 50, (2, 12))).save(os.path.join(folder, "tokens.pt"))
    torch.jit.trace(Attention().train(), torch.randn(2, 12, 16)).save(os.path.join(folder, "attention.pt"))
    convolutions = torch.nn.Sequential(
        torch.nn.Conv2d(8, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.Conv2d(8, 8, 3, padding=1))
    torch.jit.trace(convolutions.train(), torch.randn(2, 8, 16, 16)).save(os.path.join(folder, "convolutions.pt"))
    result = {}
    for name, model, example in (("mlp", mlp, torch.randn(2, 20)), ("cnn", cnn, torch.randn(2, 3, 16, 16))):
        torch.jit.trace(model.train(), example).save(os.path.join(folder, name + ".pt"))
        result[name] = sizes(model)
    pairs_only.save(os.path.join(folder, "pairs_only.pt"))
    torch.save(mlp.state_dict(), os.path.join(folder, "weights.pt"))
    with open(os.path.join(folder, "sizes.json"), "w") as out:
        json.dump(result, out)


if __name__ == "__main__":
    main()
