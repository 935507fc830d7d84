// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/JobConfiguration.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpumem::probe {

// How large the drawn jobs are.
enum class JobSizes
{
    // Small enough that a CPU runs a few steps of each in well under a second.
    Cpu,
    // What people train on GPUs: CNNs at 64–224 pixels with 32–512 channels,
    // Transformers with d_model 256–1024 over 128–1024 tokens, batches 8–256
    // (peaks in GiB); on a CPU only a traced, extrapolated probe reaches them.
    Gpu,
};

// Returns "cpu" or "gpu".
std::string_view jobSizesName(JobSizes sizes);
// Parses "cpu" or "gpu"; throws io::InputError naming the known ones otherwise.
JobSizes parseJobSizes(std::string_view name);

// Draws random but realistic training configurations of one family, at sizes.
// Configuration i depends only on (seed, family, device, steps, sizes, i), so a
// run can be resumed or extended and gives the same rows everywhere
// (data::SeededRandom, no standard distributions). Thread-safe: const and pure.
class JobSampler
{
  public:
    // device "cpu" draws float32 or float64; "cuda" float32, float16 or bfloat16.
    // The llm family draws over the shipped architectures, read once here (throws
    // io::InputError when one does not read), whatever the device and sizes.
    JobSampler(JobFamily family, std::string device, std::uint64_t seed, int steps = 3, JobSizes sizes = JobSizes::Cpu);

    // Returns configuration number index of the sequence.
    JobConfiguration sample(std::uint64_t index) const;

    // An llm job's model and what its recipe may take: the fields of the architecture
    // filled, the longest sequence it reads, its tensor-parallel degrees and LoRA targets.
    struct LanguageModel
    {
        JobConfiguration shape;
        int maxPositions = 0;
        std::vector<int> tensorParallelDegrees; // besides 1: the Llama family's, dividing its heads
        std::string defaultLoraTargets;         // peft's default, joined by '+'
        bool generates = true;                  // a decoder; an encoder (BERT) serves one forward pass
    };

  private:
    JobConfiguration sampleLanguageModel(std::uint64_t index) const;

    std::vector<LanguageModel> mLanguageModels; // the llm family's, in architectureNames() order
    JobFamily mFamily;
    std::string mDevice;
    std::uint64_t mSeed;
    int mSteps;
    JobSizes mSizes;
};

} // namespace gpumem::probe
