#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A plain PyTorch training loop for the BiGRU-optimised Transformer on a
GPUMemNet-style MLP dataset, to tell which training choices give a low and
seed-stable test RMSE, and to compare with what gpumem's network reaches.

The reference recipe (each part can be switched off for an ablation):
  * 18 feature tokens, one per column: the numeric columns (Depth, Total
    Activations, Total Parameters, Batch Size, Batch Normalization Layers,
    Dropout Layers), the one-hot activation function and log(total activations
    x batch size); Total Activations, Total Parameters and Batch Size log1p'ed;
    every column standardised on the training rows.
  * token_i = value_i * w_i + b_i (d_model 64; w, b drawn as nn.Linear(1, d)
    draws them, U(-1, 1)), a bidirectional GRU (32 per direction, so its output
    is d_model wide), 2 pre-norm nn.TransformerEncoderLayer (4 heads,
    feed-forward 128, PyTorch's defaults otherwise: ReLU, dropout 0.1), mean
    pooling, head Linear(64, 64)-ReLU-Linear(64, 1).
  * target log1p'ed and standardised, MSE loss; AdamW lr 2e-3, weight decay
    1e-4 on every parameter, OneCycleLR (max 3e-3, PyTorch's defaults: 30 %
    warm-up, beta1 cycled 0.95-0.85), batch 64, gradient norm clipped to 1.0,
    all training rows used and the last epoch kept.
  * RMSE in MiB on the original scale, on the test rows.
The columns Filename and the measured utilisation columns (Avg GPUTL, Avg GRACT,
Avg SMACT, Avg SMOCC, Avg FP32A) are never used: they leak the answer.

Usage:
  reference_training_loop.py DATA.csv [--split-from PREDICTIONS.csv | --split-seed 42]
      [--seeds 1,2,3] [--epochs 60] [--threads 1] [--json]
      [--no-product] [--no-clip] [--constant-lr] [--batch-size 128]
      [--validation 0.1] [--no-log-target] [--dropout 0.0] [--embed-init small]
      [--pct-start 0.1] [--no-cycle-momentum] [--max-lr 4e-3] [--group-onehot]
      [--gelu] [--final-norm]

--split-from reads the `split` column (train/test, one row per data row in file
order) of a CSV that `gpumem train --predictions` wrote, to score on exactly
gpumem's test rows; without it the split is sklearn's
train_test_split(test_size=0.2, random_state=--split-seed).
Prints one line per training seed and a summary line (mean, worst, sd, seconds
per training); --json prints one JSON line instead.
"""
import argparse
import json
import math
import statistics
import sys
import time

import numpy as np
import pandas as pd
import torch
from torch import nn

TARGET = "Max GPU Memory (MiB)"
NUMERIC = ["Depth", "Total Activations", "Total Parameters", "Batch Size",
           "Batch Normalization Layers", "Dropout Layers"]
LOGGED = {"Total Activations", "Total Parameters", "Batch Size"}
CATEGORICAL = "Activation Function"


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", help="the dataset CSV")
    parser.add_argument("--split-from", metavar="PREDICTIONS.csv",
                        help="take the train/test split from the `split` column of this file")
    parser.add_argument("--split-seed", type=int, default=42,
                        help="random_state of sklearn's 80/20 split (without --split-from)")
    parser.add_argument("--seeds", default="1,2,3", help="training seeds, comma-separated")
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=2e-3, help="AdamW's learning rate (the constant one too)")
    parser.add_argument("--max-lr", type=float, default=3e-3, help="OneCycleLR's peak")
    parser.add_argument("--pct-start", type=float, default=0.3, help="OneCycleLR's warm-up share")
    parser.add_argument("--no-cycle-momentum", action="store_true",
                        help="keep AdamW's beta1 at 0.9 instead of cycling it with OneCycleLR")
    parser.add_argument("--constant-lr", action="store_true", help="constant --lr instead of one-cycle")
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--no-clip", action="store_true", help="no gradient-norm clipping")
    parser.add_argument("--no-product", action="store_true",
                        help="leave out the token log(total activations x batch size)")
    parser.add_argument("--no-log-target", action="store_true", help="standardise the raw target")
    parser.add_argument("--validation", type=float, default=0.0,
                        help="hold back this share of the training rows and keep the best epoch on it")
    parser.add_argument("--dropout", type=float, default=0.1, help="dropout in the encoder layers")
    parser.add_argument("--embed-init", choices=["linear", "small"], default="linear",
                        help="token w, b: U(-1, 1) as nn.Linear(1, d), or N(0, 0.1) and N(0, 0.02) (gpumem's)")
    parser.add_argument("--group-onehot", action="store_true",
                        help="sum the one-hot columns into one token (as gpumem's grouped tokens do)")
    parser.add_argument("--gelu", action="store_true", help="GELU instead of ReLU in the encoder and head")
    parser.add_argument("--final-norm", action="store_true", help="LayerNorm after the encoder, before pooling")
    return parser.parse_args(argv)


def split_rows(args, row_count):
    if args.split_from:
        split = pd.read_csv(args.split_from)["split"].astype(str).str.strip().to_numpy()
        if len(split) != row_count:
            sys.exit(f"{args.split_from}: {len(split)} split rows, the data has {row_count}")
        return np.flatnonzero(split == "train"), np.flatnonzero(split == "test")
    from sklearn.model_selection import train_test_split
    return tuple(np.sort(part) for part in train_test_split(np.arange(row_count), test_size=0.2,
                                                            random_state=args.split_seed))


def encode(data, train_rows, args):
    """Returns the [rows, columns] float32 feature matrix, standardised on train_rows,
    and each column's token index."""
    columns, names = [], []
    for name in NUMERIC:
        values = data[name].to_numpy(float)
        columns.append(np.log1p(values) if name in LOGGED else values)
        names.append(name)
    categories = sorted(data[CATEGORICAL].iloc[train_rows].unique())
    for category in categories:
        columns.append((data[CATEGORICAL] == category).to_numpy(float))
        names.append(f"{CATEGORICAL}={category}")
    if not args.no_product:
        columns.append(np.log(data["Total Activations"].to_numpy(float) * data["Batch Size"].to_numpy(float)))
        names.append("log(activations x batch)")
    features = np.stack(columns, axis=1)
    mean = features[train_rows].mean(axis=0)
    scale = features[train_rows].std(axis=0)
    scale[scale < 1e-12] = 1.0
    features = (features - mean) / scale
    token = []
    for i, name in enumerate(names):
        if args.group_onehot and name.startswith(CATEGORICAL + "="):
            token.append(len(NUMERIC))
        else:
            token.append(len(set(token)))
    return torch.tensor(features, dtype=torch.float32), torch.tensor(token)


class TargetScaler:
    def __init__(self, values, log):
        self.log = log
        transformed = np.log1p(values) if log else values
        self.mean, self.scale = transformed.mean(), transformed.std()

    def forward(self, values):
        return ((np.log1p(values) if self.log else values) - self.mean) / self.scale

    def inverse(self, values):
        unscaled = values * self.scale + self.mean
        return np.expm1(unscaled) if self.log else unscaled


class Network(nn.Module):
    def __init__(self, token_of, args, d_model=64, gru_hidden=32, heads=4, feedforward=128, head_hidden=64):
        super().__init__()
        columns, tokens = len(token_of), int(token_of.max()) + 1
        self.register_buffer("token_of", token_of, persistent=False)
        self.tokens = tokens
        if args.embed_init == "linear":
            self.weight = nn.Parameter(torch.empty(columns, d_model).uniform_(-1.0, 1.0))
            self.bias = nn.Parameter(torch.empty(tokens, d_model).uniform_(-1.0, 1.0))
        else:
            self.weight = nn.Parameter(torch.randn(columns, d_model) * 0.1)
            self.bias = nn.Parameter(torch.randn(tokens, d_model) * 0.02)
        self.gru = nn.GRU(d_model, gru_hidden, batch_first=True, bidirectional=True)
        self.gru_out = nn.Identity() if 2 * gru_hidden == d_model else nn.Linear(2 * gru_hidden, d_model)
        activation = "gelu" if args.gelu else "relu"
        layer = nn.TransformerEncoderLayer(d_model, heads, feedforward, dropout=args.dropout, activation=activation,
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.final_norm = nn.LayerNorm(d_model) if args.final_norm else nn.Identity()
        self.head = nn.Sequential(nn.Linear(d_model, head_hidden), nn.GELU() if args.gelu else nn.ReLU(),
                                  nn.Linear(head_hidden, 1))

    def forward(self, features):                                   # [batch, columns]
        tokens = features.unsqueeze(-1) * self.weight              # [batch, columns, d]
        if self.tokens != tokens.size(1):
            tokens = tokens.new_zeros(tokens.size(0), self.tokens, tokens.size(2)).index_add(1, self.token_of, tokens)
        tokens = tokens + self.bias                                # [batch, tokens, d]
        tokens = self.gru_out(self.gru(tokens)[0])                 # [batch, tokens, d]
        tokens = self.final_norm(self.encoder(tokens))             # [batch, tokens, d]
        return self.head(tokens.mean(1)).squeeze(-1)               # [batch]


def predict(model, features):
    model.eval()
    with torch.no_grad():
        return torch.cat([model(features[i:i + 1024]) for i in range(0, len(features), 1024)]).double().numpy()


def train_once(seed, features, token_of, target, train_rows, test_rows, args):
    start = time.perf_counter()
    torch.manual_seed(seed)
    generator = torch.Generator().manual_seed(seed)
    fit_rows, validation_rows = train_rows, np.array([], dtype=int)
    if args.validation > 0:
        order = np.random.default_rng(seed + 7919).permutation(len(train_rows))
        count = int(round(args.validation * len(train_rows)))
        validation_rows, fit_rows = np.sort(train_rows[order[:count]]), np.sort(train_rows[order[count:]])
    scaler = TargetScaler(target[train_rows], log=not args.no_log_target)
    scaled = torch.tensor(scaler.forward(target), dtype=torch.float32)
    model = Network(token_of, args)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    steps_per_epoch = math.ceil(len(fit_rows) / args.batch_size)
    schedule = None
    if not args.constant_lr:
        schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=args.max_lr,
                                                       total_steps=args.epochs * steps_per_epoch,
                                                       pct_start=args.pct_start,
                                                       cycle_momentum=not args.no_cycle_momentum)
    x_fit, y_fit = features[fit_rows], scaled[fit_rows]
    best_loss, best_state, best_epoch = math.inf, None, args.epochs
    for epoch in range(1, args.epochs + 1):
        model.train()
        order = torch.randperm(len(fit_rows), generator=generator)
        for begin in range(0, len(fit_rows), args.batch_size):
            batch = order[begin:begin + args.batch_size]
            loss = nn.functional.mse_loss(model(x_fit[batch]), y_fit[batch])
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            if not args.no_clip:
                nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            if schedule:
                schedule.step()
        if len(validation_rows):
            predicted = predict(model, features[validation_rows])
            validation_loss = float(np.mean((predicted - scaled[validation_rows].double().numpy()) ** 2))
            if validation_loss < best_loss:
                best_loss, best_epoch = validation_loss, epoch
                best_state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    if best_state is not None:
        model.load_state_dict(best_state)
    error = scaler.inverse(predict(model, features[test_rows])) - target[test_rows]
    return float(np.sqrt(np.mean(error ** 2))), best_epoch, time.perf_counter() - start


def main(argv):
    args = parse_arguments(argv)
    torch.set_num_threads(args.threads)
    data = pd.read_csv(args.data)
    target = data[TARGET].to_numpy(float)
    train_rows, test_rows = split_rows(args, len(data))
    features, token_of = encode(data, train_rows, args)
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    results = []
    for seed in seeds:
        rmse, best_epoch, seconds = train_once(seed, features, token_of, target, train_rows, test_rows, args)
        results.append({"seed": seed, "rmse": rmse, "epoch_kept": best_epoch, "seconds": seconds})
        if not args.json:
            print(f"seed {seed}: test RMSE {rmse:7.2f} MiB  (epoch kept {best_epoch}, {seconds:.1f} s)", flush=True)
    rmses = [r["rmse"] for r in results]
    summary = {"mean": statistics.fmean(rmses), "worst": max(rmses),
               "sd": statistics.stdev(rmses) if len(rmses) > 1 else 0.0,
               "seconds_per_training": statistics.fmean(r["seconds"] for r in results)}
    if args.json:
        settings = {k: v for k, v in vars(args).items() if k not in ("data", "json")}
        print(json.dumps({"settings": settings, "train_rows": len(train_rows), "test_rows": len(test_rows),
                          "tokens": int(token_of.max()) + 1, "seeds": results, **summary}))
    else:
        print(f"mean {summary['mean']:.2f}  worst {summary['worst']:.2f}  sd {summary['sd']:.2f}  "
              f"{summary['seconds_per_training']:.1f} s per training  "
              f"({len(train_rows)} train / {len(test_rows)} test rows, {int(token_of.max()) + 1} tokens)")


if __name__ == "__main__":
    main(sys.argv[1:])
