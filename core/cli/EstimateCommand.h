// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpumem::cli {

// `gpumem estimate MODEL.pt --input-shape C,H,W --batch-size N[,N…] [options]`:
// runs training steps of a TorchScript model on the CPU, replays their
// allocations through the CUDA caching-allocator model and prints the GPU
// memory per batch size (text or --json). Returns the exit code.
int runEstimate(const std::vector<std::string> &arguments, std::ostream &out, std::ostream &err);

} // namespace gpumem::cli
