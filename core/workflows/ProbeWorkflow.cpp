// SPDX-License-Identifier: GPL-3.0-or-later
#include "workflows/ProbeWorkflow.h"

#include "estimate/GpuProfile.h"
#include "estimate/ProbeJobSimulator.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/OutputPaths.h"
#include "probe/ProbeMerge.h"
#include "runtime/HeapRetention.h"
#include "runtime/ThreadSettings.h"
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
    configuration.validate();
    probe::ProbeOptions options = configuration.options;
    if (configuration.gpu) {
        const estimate::GpuProfile profile = estimate::findGpuProfile(*configuration.gpu); // refused before any job
        if (options.family == probe::JobFamily::Llm)
            simulator = std::make_unique<LanguageModelJobSimulator>(*configuration.gpu);
        else
            simulator =
                std::make_unique<estimate::ProbeJobSimulator>(profile, *configuration.gpu, options.memoryLimitBytes);
        options.simulator = simulator.get();
    }
    return options;
}

} // namespace

void ProbeConfiguration::validate() const
{
    if (gpu && options.device != "cpu")
        throw io::InputError(io::parameter("gpu") + " traces on the CPU; leave out " + io::parameter("device") +
                             " cuda, which measures on the card");
    if (!gpu && options.sizes == probe::JobSizes::Gpu && options.device == "cpu")
        throw io::InputError(io::parameter("sizes") + " gpu on the CPU needs " + io::parameter("gpu", "PROFILE") +
                             ": such jobs are traced and extrapolated, not run at their batch");
}

std::string resumableOutputPath(const std::string &path)
{
    const io::FileDestination destination = io::resolveFileDestination(path);
    if (destination.method != io::FileDestination::Method::Replace)
        throw io::InputError(path, 0, 0,
                             "is not a regular file; probe writes a dataset it can resume, so give a file path");
    return destination.path;
}

probe::ProbeSummary probeJobs(const ProbeConfiguration &configuration, probe::ProbeObserver *observer,
                              runtime::OperationControl *control)
{
    // A job is measured, or traced, on one thread, so that the same seed gives the same rows.
    runtime::setComputeThreads(1);
    const std::string outPath = resumableOutputPath(configuration.options.outPath);
    std::unique_ptr<probe::JobSimulator> simulator;
    probe::ProbeOptions options = simulatedOptions(configuration, simulator);
    options.outPath = outPath;
    probe::ProbeRunner runner(options);
    // Traced jobs allocate and free networks of the same sizes again and again.
    std::optional<runtime::HeapRetention> heap;
    if (simulator)
        heap.emplace();
    return runner.run(observer, control);
}

void mergeProbeShards(const ProbeConfiguration &configuration, const std::vector<std::string> &files)
{
    resumableOutputPath(configuration.options.outPath);
    std::unique_ptr<probe::JobSimulator> simulator;
    io::writeFileAtomically(configuration.options.outPath,
                            probe::mergeProbeFiles(files, simulatedOptions(configuration, simulator)));
}

} // namespace gpumem::workflows
