// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes to the booster.json check that stands between a model
// folder and XGBoost, which trusts every index it reads. The first byte picks the
// feature count that model.json would declare, so counts that agree and counts
// that do not are both explored. Only io::InputError may come out.
#include "io/InputError.h"
#include "models/XGBoostBoosterCheck.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::int64_t featureCount = data[0] % 64;
    const std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        gpumem::models::checkBoosterJson(text, featureCount, "booster.json");
    } catch (const gpumem::io::InputError &) {
    }
    return 0;
}
