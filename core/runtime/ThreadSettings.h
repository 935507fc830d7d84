// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace gpumem::runtime {

// Sets how many CPU threads LibTorch (intra-op, OpenMP) uses; OpenBLAS always uses one.
// Chosen on purpose: on small machines the two pools oversubscribe the cores,
// and a small GRU + Transformer step has been measured 2x slower with 2 threads
// than with 1 on a 2-core machine. threads <= 0 picks the number of hardware
// threads. Call from the thread that will train,
// before the first tensor operation; affects the whole process.
void setComputeThreads(int threads);

// Returns the intra-op thread count LibTorch uses now.
int computeThreads();

} // namespace gpumem::runtime
