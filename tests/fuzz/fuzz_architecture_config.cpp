// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes to the config.json reader (a language model's architecture),
// then counts the parameters of what it accepts: the reader's bounds must keep every
// count positive and inside 64 bits. Only io::InputError may come out.
#include "architectures/ArchitectureConfig.h"
#include "architectures/ParameterCount.h"
#include "io/InputError.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace gpumem::architectures;
    const std::string text(reinterpret_cast<const char *>(data), size);
    ArchitectureConfig config;
    try {
        config = parseArchitectureConfig(text, "config.json");
    } catch (const gpumem::io::InputError &) {
        return 0;
    }
    // What was accepted is a model that can be built: a refusal or a count of 0 here is a bug.
    if (config.attentionHeads % config.keyValueHeads != 0 || config.headDim < 1)
        std::abort();
    LoraSettings lora;
    lora.rank = 65536;
    lora.targets = {"all-linear"};
    if (parameterCount(config) <= 0 || trainableParameterCount(config, lora) <= 0)
        std::abort();
    return 0;
}
