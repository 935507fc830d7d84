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

    // Throws io::InputError, naming the parameters, for a GPU profile with a device
    // other than the CPU (profiles are traced there), or GPU-sized jobs on the CPU
    // without a profile to trace them for. probeJobs and mergeProbeShards call it.
    void validate() const;
};

// Returns the file a probe run writes for the output path: path itself, or the
// target of a symlink there (the link itself stays). Throws io::InputError for a
// device, a pipe or any other output that a run cannot resume and rename into place.
std::string resumableOutputPath(const std::string &path);

// Draws and measures configuration's jobs into its file (resumableOutputPath; probe::ProbeRunner);
// with a GPU profile, each job is traced on the CPU and replayed for that GPU
// (estimate::ProbeJobSimulator), and a language-model job is estimated for it
// (LanguageModelJobSimulator), which the llm family requires. Reports every job to observer; control pauses
// and cancels between jobs. Throws io::InputError for a profile or options that
// do not work. Runs on the calling thread.
probe::ProbeSummary probeJobs(const ProbeConfiguration &configuration, probe::ProbeObserver *observer = nullptr,
                              runtime::OperationControl *control = nullptr);

// Writes the dataset the shards' files make together to configuration's output
// file, atomically, as one whole run of configuration writes it
// (probe::mergeProbeFiles). Throws io::InputError for an output a run could not
// write (resumableOutputPath) and for a file that belongs to another run.
void mergeProbeShards(const ProbeConfiguration &configuration, const std::vector<std::string> &files);

} // namespace gpumem::workflows
