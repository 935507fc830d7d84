// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/ProbeRunner.h"

#include <optional>
#include <string>
#include <vector>

namespace gpumem::workflows {

// What a probe run is asked: the jobs to draw and measure, and the GPU profile
// to simulate every job on instead of measuring it (a name or a profile file).
struct ProbeConfiguration
{
    probe::ProbeOptions options; // its simulator is set by probeJobs from gpu
    std::optional<std::string> gpu;
};

// Draws and measures configuration's jobs into its file (probe::ProbeRunner);
// with a GPU profile, each job is traced on the CPU and replayed for that GPU
// (estimate::ProbeJobSimulator), and a language-model job is estimated for it
// (LanguageModelJobSimulator), which the llm family requires. Reports every job to observer; control pauses
// and cancels between jobs. Throws io::InputError for a profile or options that
// do not work. Runs on the calling thread.
probe::ProbeSummary probeJobs(const ProbeConfiguration &configuration, probe::ProbeObserver *observer = nullptr,
                              runtime::OperationControl *control = nullptr);

// Returns the dataset the shards' files make together, as one whole run of
// configuration writes it (probe::mergeProbeFiles); throws io::InputError for a
// file that belongs to another run.
std::string mergeProbeShards(const ProbeConfiguration &configuration, const std::vector<std::string> &files);

} // namespace gpumem::workflows
