// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/ProbeWorkflow.h"

#include "estimate/GpuProfile.h"
#include "estimate/ProbeJobSimulator.h"
#include "io/InputError.h"
#include "probe/ProbeMerge.h"
#include "runtime/HeapRetention.h"
#include "workflows/LanguageModelJobSimulator.h"

#include <memory>
#include <optional>

namespace gpumem::workflows {

namespace {

// configuration's options, with the simulator of its GPU profile (kept in
// simulator) when it names one: a language model's estimate for the llm family, a
// traced probe job's for the others.
probe::ProbeOptions simulatedOptions(const ProbeConfiguration &configuration,
                                     std::unique_ptr<probe::JobSimulator> &simulator)
{
    probe::ProbeOptions options = configuration.options;
    if (configuration.gpu) {
        if (options.device != "cpu")
            throw io::InputError("--gpu traces on the CPU; leave out --device cuda, which measures on the card");
        const estimate::GpuProfile profile = estimate::findGpuProfile(*configuration.gpu); // refused before any job
        if (options.family == probe::JobFamily::Llm)
            simulator = std::make_unique<LanguageModelJobSimulator>(*configuration.gpu);
        else
            simulator =
                std::make_unique<estimate::ProbeJobSimulator>(profile, *configuration.gpu, options.memoryLimitBytes);
        options.simulator = simulator.get();
    } else if (options.sizes == probe::JobSizes::Gpu && options.device == "cpu") {
        throw io::InputError("--sizes gpu on the CPU needs --gpu PROFILE: such jobs are traced and extrapolated, "
                             "not run at their batch");
    }
    return options;
}

} // namespace

probe::ProbeSummary probeJobs(const ProbeConfiguration &configuration, probe::ProbeObserver *observer,
                              runtime::OperationControl *control)
{
    std::unique_ptr<probe::JobSimulator> simulator;
    probe::ProbeRunner runner(simulatedOptions(configuration, simulator));
    // Traced jobs allocate and free networks of the same sizes again and again.
    std::optional<runtime::HeapRetention> heap;
    if (simulator)
        heap.emplace();
    return runner.run(observer, control);
}

std::string mergeProbeShards(const ProbeConfiguration &configuration, const std::vector<std::string> &files)
{
    std::unique_ptr<probe::JobSimulator> simulator;
    return probe::mergeProbeFiles(files, simulatedOptions(configuration, simulator));
}

} // namespace gpumem::workflows
