// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary model folders to the model-folder readers: the bytes up to the
// first NUL become model.json, the rest the network's weights file. Every check
// made before a tensor is allocated runs here without LibTorch: the metadata, the
// schema, the hyperparameters, the network's fitted state and the safetensors
// header. Only io::InputError may come out.
#include "data/FeatureEncoder.h"
#include "io/InputError.h"
#include "io/SafeTensors.h"
#include "models/ModelFolder.h"
#include "models/NetworkFittedState.h"
#include "models/NeuralNetworkHyperparameters.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

// One scratch folder per fuzzing process, holding the model.json under test.
const std::string &scratchFolder()
{
    static const std::string folder = [] {
        char pattern[] = "/tmp/fuzz_model_folder-XXXXXX";
        const char *made = ::mkdtemp(pattern);
        return std::string(made ? made : "/tmp");
    }();
    return folder;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char *>(data), size);
    const std::size_t split = input.find('\0');
    const std::string modelJson = input.substr(0, split);
    const std::string weights = split == std::string::npos ? std::string() : input.substr(split + 1);
    {
        std::ofstream(scratchFolder() + "/model.json", std::ios::binary | std::ios::trunc) << modelJson;
    }
    try {
        const gpumem::io::Json metadata = gpumem::models::readModelMetadata(scratchFolder());
        gpumem::models::Hyperparameters hyperparameters = gpumem::models::neuralNetworkHyperparameters();
        std::uint64_t seed = 0;
        gpumem::models::ModelSchema schema;
        gpumem::models::readModelFolder(
            metadata, scratchFolder(), hyperparameters, seed, schema, [&](const gpumem::io::Json &fitted) {
                const gpumem::data::FeatureEncoder encoder(schema.encoding);
                gpumem::models::NetworkFittedState::read(fitted, encoder.featureNames().size());
            });
    } catch (const gpumem::io::InputError &) {
    }
    try {
        gpumem::io::SafeTensorsFile::parse(weights, "weights.safetensors");
    } catch (const gpumem::io::InputError &) {
    }
    return 0;
}
