#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The BiGRU-optimised Transformer in PyTorch Python as a user who knows PyTorch
writes it for tabular rows: the whole training set as tensors, mini-batches cut by
hand from a shuffled index each epoch (no Dataset, no DataLoader, no collate),
nn.GRU(bidirectional=True) without packing (no row is padded), nn.TransformerEncoder,
AdamW with OneCycleLR and gradient clipping. The features are those of
reference_bigru_transformer.py (gpumem's feature encoder's columns); with
--grouped they form gpumem's grouped feature tokens (one per numeric column, one
for the one-hot activation function, one for the layer counts, one for the layer
sizes), otherwise one token per column.

Usage: reference_hand_batched.py DATA.csv [--epochs N] [--batch-size B] [--learning-rate R]
                                 [--threads T] [--grouped]
Prints one JSON line: {"samples_per_second": ..., "seconds": ..., "epochs": ..., "tokens": ...}.
"""
import argparse
import json
import time

import numpy as np
import torch
from torch import nn

from reference_bigru_transformer import (add_sequence_layers, add_training_arguments, load_features, log_standardise,
                                         train)


def grouped_tokens(numeric, categories, type_count):
    """Token of each column of load_features' matrix under gpumem's grouped feature tokens."""
    tokens = list(range(numeric)) + [numeric] * categories
    tokens += [numeric + 1] * (1 + type_count)  # length and one count per layer type
    tokens += [numeric + 2] * 4  # sum and maximum of the two fields
    return torch.tensor(tokens)


def token_map(features, type_count, grouped):
    """grouped_tokens for load_features' matrix (6 numeric columns, the one-hot activation
    function, the length and per-type layer counts, the 4 layer-size columns), or None
    for one token per column."""
    if not grouped:
        return None
    categories = features.shape[1] - 6 - 1 - (type_count - 1) - 4
    return grouped_tokens(6, categories, type_count - 1)


class HandBatchedNetwork(nn.Module):
    def __init__(self, feature_count, token_of=None, d_model=64, gru_hidden=32, heads=4, encoder_layers=2,
                 feedforward=128, head_hidden=64):
        super().__init__()
        self.token_of = token_of
        token_count = feature_count if token_of is None else int(token_of.max()) + 1
        self.feature_weight = nn.Parameter(torch.randn(feature_count, d_model) * 0.1)
        self.feature_bias = nn.Parameter(torch.randn(token_count, d_model) * 0.02)
        add_sequence_layers(self, d_model, gru_hidden, heads, encoder_layers, feedforward, head_hidden)

    def forward(self, features):
        tokens = features.unsqueeze(-1) * self.feature_weight  # [batch, features, d]
        if self.token_of is not None:
            tokens = tokens.new_zeros(tokens.shape[0], self.feature_bias.shape[0], tokens.shape[2]).index_add(
                1, self.token_of, tokens)  # [batch, tokens, d]
        tokens = tokens + self.feature_bias
        tokens = self.gru_projection(self.gru(tokens)[0])
        tokens = self.final_norm(self.encoder(tokens))
        return self.head(tokens.mean(1)).squeeze(-1)


def shuffled_batches(features, target, batch_size):
    """One epoch's mini-batches, cut by hand from a fresh shuffle of the rows."""
    order = torch.randperm(len(target))
    for begin in range(0, len(target), batch_size):
        rows = order[begin:begin + batch_size]
        yield (features[rows],), target[rows]


def train_hand_batched(model, features, target, epochs, batch_size, learning_rate):
    """The shared training loop over shuffled_batches; returns the last batch loss."""
    batches = (len(target) + batch_size - 1) // batch_size
    return train(model, epochs, batches, lambda: shuffled_batches(features, target, batch_size), learning_rate)


def main():
    parser = argparse.ArgumentParser()
    add_training_arguments(parser, epochs=3)
    parser.add_argument("--learning-rate", type=float, default=2e-3)
    parser.add_argument("--grouped", action="store_true")
    arguments = parser.parse_args()
    torch.set_num_threads(arguments.threads)
    torch.manual_seed(42)

    features, _, _, target, type_count = load_features(arguments.data)
    token_of = token_map(features, type_count, arguments.grouped)
    scaled = torch.tensor(log_standardise(features), dtype=torch.float32)
    log_target = np.log1p(target)
    scaled_target = torch.tensor((log_target - log_target.mean()) / log_target.std(), dtype=torch.float32)
    model = HandBatchedNetwork(features.shape[1], token_of)
    start = time.perf_counter()
    loss = train_hand_batched(model, scaled, scaled_target, arguments.epochs, arguments.batch_size, arguments.learning_rate)
    seconds = time.perf_counter() - start
    print(json.dumps({"samples_per_second": arguments.epochs * len(target) / seconds, "seconds": seconds,
                      "epochs": arguments.epochs, "tokens": int(model.feature_bias.shape[0]), "final_loss": loss}))


if __name__ == "__main__":
    main()
