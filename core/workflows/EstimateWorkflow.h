// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/EstimateCancelled.h"
#include "estimate/EstimateConfiguration.h"
#include "estimate/EstimateJson.h"
#include "estimate/GpuProfile.h"
#include "estimate/MemoryEstimator.h"
#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"

#include <optional>
#include <string>
#include <vector>

namespace gpumem::workflows {

// What an estimate of a user's model is asked: `gpumem estimate` fills it from
// its options, the Your model page from its form.
struct EstimateSettings
{
    estimate::EstimateConfiguration model; // the TorchScript file or language model, and the traced step
    estimate::EstimateRequest request;     // batch sizes, the largest-batch search, the timeline
    std::string gpu = "a100-80";           // a GPU profile's name or file
    std::optional<double> contextMib;      // the CUDA context instead of the profile's
    // Also search the largest batch on every installed profile (the workbench's
    // table of GPUs): a few more replays of the same traces.
    bool everyProfile = false;
    // A language model only: also search, at the first batch size, the longest
    // sequence that fits (maxSequenceLength) and the fewest GPUs that hold the job (minGpuCount).
    bool searchMaxSequenceLength = false;
    bool searchMinGpus = false;
};

// An estimate and the profiles it was checked against.
struct EstimateOutcome
{
    estimate::EstimateResult result;
    // With everyProfile: each installed profile that reads, in name order, the
    // chosen one as the estimate used it (its context replaced); else empty.
    std::vector<estimate::GpuProfile> profiles;
    // The answers of the searches settings asked for.
    estimate::SearchAnswers answers;
};

// The GPU profile settings name (GpuProfile.h's findGpuProfile), with settings.contextMib
// in place of its context when given: what every estimate of settings replays for.
estimate::GpuProfile chosenProfile(const EstimateSettings &settings);

// Loads settings.model, traces its training steps on the CPU and replays them
// for settings.gpu (estimate::MemoryEstimator), then runs the searches settings
// asks for (LanguageModelEstimates.h). Reports the share done to
// observer; checks control between the phases of every traced step and between
// replays, and throws estimate::EstimateCancelled within a step of a cancel.
// Throws io::InputError, one line, for a model, input or profile that does not
// work. Runs on the calling thread.
EstimateOutcome estimateModel(const EstimateSettings &settings, runtime::ProgressObserver *observer = nullptr,
                              const runtime::OperationControl *control = nullptr);

} // namespace gpumem::workflows
