// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace gpumem::models {

// The registry name of the paper's network (the BiGRU-optimised Transformer): the
// model `train`, `sweep` and the Training page fit unless told otherwise. Its
// `architecture` hyperparameter has a value spelt the same, a separate idea.
inline constexpr char kNetworkModelName[] = "bigru_transformer";

} // namespace gpumem::models
