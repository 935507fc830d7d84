#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The BiGRU-optimised Transformer written as a researcher would in PyTorch:
a Dataset, a DataLoader with a padding collate function, nn.GRU(bidirectional=True)
over packed sequences, nn.MultiheadAttention, AdamW with OneCycleLR.

It mirrors gpumem's model (feature tokens value*w + b, layer tokens from the layer
sequence, BiGRU -> pre-norm Transformer encoder -> mean pooling -> MLP head, log1p
inputs and target, standardisation on training rows) so that bench/train_speed.sh
can compare training throughput on the same data, batch size and epochs.

Usage: reference_bigru_transformer.py DATA.csv --epochs N [--batch-size B]
       [--no-layer-tokens] [--threads T]
Prints one JSON line: {"samples_per_second": ..., "seconds": ..., "epochs": ...}.
"""
import argparse
import ast
import json
import math
import time

import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from torch.utils.data import DataLoader, Dataset

TARGET = "Max GPU Memory (MiB)"
SEQUENCE = "Activations-Params"
LEAKING = ["Avg GPUTL", "Avg GRACT", "Avg SMACT", "Avg SMOCC", "Avg FP32A"]


def load_features(path):
    frame = pd.read_csv(path)
    sequences = frame[SEQUENCE].map(ast.literal_eval)
    numeric = frame.drop(columns=["Filename", SEQUENCE, TARGET, "Activation Function"] + LEAKING)
    columns = [numeric[c].to_numpy(float) for c in numeric.columns]
    for value in sorted(frame["Activation Function"].unique()):
        columns.append((frame["Activation Function"] == value).to_numpy(float))
    types = sorted({layer[0] for sequence in sequences for layer in sequence})
    columns.append(sequences.map(len).to_numpy(float))
    for kind in types:
        columns.append(sequences.map(lambda s: sum(1 for layer in s if layer[0] == kind)).to_numpy(float))
    for field in (1, 2):
        columns.append(sequences.map(lambda s: sum(layer[field] for layer in s)).to_numpy(float))
        columns.append(sequences.map(lambda s: max(layer[field] for layer in s)).to_numpy(float))
    features = np.stack(columns, axis=1)
    vocabulary = {kind: index + 1 for index, kind in enumerate(types)}
    layer_types = [np.array([vocabulary[layer[0]] for layer in s]) for s in sequences]
    layer_fields = [np.array([[layer[1], layer[2]] for layer in s], dtype=float) for s in sequences]
    return features, layer_types, layer_fields, frame[TARGET].to_numpy(float), len(vocabulary) + 1


def log_standardise(values):
    wide = (values.min(axis=0) >= 0) & (values.max(axis=0) > 100)
    values = np.where(wide, np.log1p(np.maximum(values, 0)), values)
    mean, std = values.mean(axis=0), values.std(axis=0)
    std[std == 0] = 1
    return (values - mean) / std


class JobDataset(Dataset):
    def __init__(self, features, layer_types, layer_fields, target):
        self.features = torch.tensor(features, dtype=torch.float32)
        self.layer_types = [torch.tensor(t, dtype=torch.long) for t in layer_types]
        self.layer_fields = [torch.tensor(f, dtype=torch.float32) for f in layer_fields]
        self.target = torch.tensor(target, dtype=torch.float32)

    def __len__(self):
        return len(self.target)

    def __getitem__(self, index):
        return self.features[index], self.layer_types[index], self.layer_fields[index], self.target[index]


def collate(batch):
    features, types, fields, target = zip(*batch)
    lengths = torch.tensor([len(t) for t in types])
    return (torch.stack(features), nn.utils.rnn.pad_sequence(types, batch_first=True),
            nn.utils.rnn.pad_sequence(fields, batch_first=True), lengths, torch.stack(target))


def add_sequence_layers(module, d_model, gru_hidden, heads, encoder_layers, feedforward, head_hidden):
    """Adds to module what every reference network shares after its feature tokens: the
    BiGRU, its projection back to d_model, the pre-norm Transformer encoder, the final
    norm and the regression head. A function, not a base class, so that each network
    creates its parameters in the same order (and from the same random draws) as before."""
    module.gru = nn.GRU(d_model, gru_hidden, batch_first=True, bidirectional=True)
    module.gru_projection = nn.Linear(2 * gru_hidden, d_model)
    layer = nn.TransformerEncoderLayer(d_model, heads, feedforward, dropout=0.0, activation="gelu",
                                       batch_first=True, norm_first=True)
    module.encoder = nn.TransformerEncoder(layer, encoder_layers, enable_nested_tensor=False)
    module.final_norm = nn.LayerNorm(d_model)
    module.head = nn.Sequential(nn.Linear(d_model, head_hidden), nn.GELU(), nn.Linear(head_hidden, 1))


class BiGruTransformer(nn.Module):
    def __init__(self, feature_count, layer_type_count, layer_tokens, d_model=64, gru_hidden=32, heads=4,
                 encoder_layers=2, feedforward=128, head_hidden=64):
        super().__init__()
        self.layer_tokens = layer_tokens
        self.feature_weight = nn.Parameter(torch.randn(feature_count, d_model) * 0.1)
        self.feature_bias = nn.Parameter(torch.randn(feature_count, d_model) * 0.02)
        self.layer_type_embedding = nn.Embedding(layer_type_count, d_model)
        self.layer_field_projection = nn.Linear(2, d_model)
        add_sequence_layers(self, d_model, gru_hidden, heads, encoder_layers, feedforward, head_hidden)

    def forward(self, features, layer_types, layer_fields, lengths):
        tokens = features.unsqueeze(-1) * self.feature_weight + self.feature_bias  # [batch, features, d]
        counts = torch.full((features.shape[0],), features.shape[1], dtype=torch.long)
        if self.layer_tokens:
            layers = self.layer_type_embedding(layer_types) + self.layer_field_projection(layer_fields)
            tokens = torch.cat([tokens, layers], dim=1)                            # [batch, tokens, d]
            counts = counts + lengths
        packed = pack_padded_sequence(tokens, counts, batch_first=True, enforce_sorted=False)
        output, _ = self.gru(packed)
        tokens, _ = pad_packed_sequence(output, batch_first=True, total_length=tokens.shape[1])
        tokens = self.gru_projection(tokens)
        padding = torch.arange(tokens.shape[1]).unsqueeze(0) >= counts.unsqueeze(1)
        tokens = self.final_norm(self.encoder(tokens, src_key_padding_mask=padding))
        valid = (~padding).unsqueeze(-1).float()
        return self.head((tokens * valid).sum(1) / valid.sum(1)).squeeze(-1)


def train(model, epochs, batches_per_epoch, epoch_batches, learning_rate=2e-3):
    """AdamW with OneCycleLR and gradient clipping, as gpumem's default preset, over
    epoch_batches(): each epoch's (model inputs, target) batches. Returns the last batch loss."""
    optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=learning_rate, pct_start=0.1,
                                                   total_steps=epochs * batches_per_epoch)
    model.train()
    for _ in range(epochs):
        for inputs, target in epoch_batches():
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(*inputs), target)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
    return float(loss)


def add_training_arguments(parser, epochs):
    """Adds the arguments every reference training takes: the CSV file of jobs, the epochs
    (default epochs), the mini-batch size and the threads."""
    parser.add_argument("data")
    parser.add_argument("--epochs", type=int, default=epochs)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--threads", type=int, default=1)


def main():
    parser = argparse.ArgumentParser()
    add_training_arguments(parser, epochs=3)
    parser.add_argument("--no-layer-tokens", action="store_true")
    arguments = parser.parse_args()
    torch.set_num_threads(arguments.threads)
    torch.manual_seed(42)

    features, layer_types, layer_fields, target, type_count = load_features(arguments.data)
    all_fields = log_standardise(np.concatenate(layer_fields))
    splits = np.cumsum([len(f) for f in layer_fields])[:-1]
    dataset = JobDataset(log_standardise(features), layer_types, np.split(all_fields, splits),
                         (np.log1p(target) - np.log1p(target).mean()) / np.log1p(target).std())
    loader = DataLoader(dataset, batch_size=arguments.batch_size, shuffle=True, collate_fn=collate)
    model = BiGruTransformer(features.shape[1], type_count, not arguments.no_layer_tokens)
    start = time.perf_counter()
    loss = train(model, arguments.epochs, len(loader), lambda: ((batch[:-1], batch[-1]) for batch in loader))
    seconds = time.perf_counter() - start
    seen = arguments.epochs * len(dataset)
    print(json.dumps({"samples_per_second": seen / seconds, "seconds": seconds, "epochs": arguments.epochs,
                      "final_loss": loss}))


if __name__ == "__main__":
    main()
