// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probe/JobConfiguration.h"
#include "probe/JobMeasurer.h"
#include "probe/JobSampler.h"
#include "probe/JobSimulator.h"
#include "runtime/OperationControl.h"
#include "runtime/ProgressObserver.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::probe {

// The most configurations one probe may draw (ProbeOptions::count): a merge holds
// the key of every one of them (a few hundred bytes each), and a million jobs take a
// cluster days already.
inline constexpr std::uint64_t maxProbeJobs = 1000000;

// Throws io::InputError naming --count when count exceeds maxProbeJobs.
void checkProbeCount(std::uint64_t count);

// What `gpumem probe` was asked to do.
struct ProbeOptions
{
    JobFamily family = JobFamily::Mlp;
    std::uint64_t count = 0; // configurations to draw (rows, less duplicates), at most maxProbeJobs
    std::string device = "cpu";
    std::uint64_t seed = 42;
    int steps = 3;                      // training steps per job
    std::string outPath;                // the CSV file
    bool resume = false;                // keep the rows already in the file and measure only the rest
    std::uint64_t memoryLimitBytes = 0; // CPU: jobs needing more live bytes are out_of_memory (0: no limit)
    // Run only configurations whose number leaves remainder shardIndex when
    // divided by shardCount, drawing no other: a shard skips a configuration it
    // drew itself earlier, and measures one that another shard drew earlier too
    // (mergeProbeFiles keeps one row of it), so that the merged shards equal one
    // whole run and each row equals the whole run's row of that configuration.
    std::uint64_t shardIndex = 0;
    std::uint64_t shardCount = 1;
    JobSizes sizes = JobSizes::Cpu;
    // When set, every job is traced and extrapolated instead of run at its batch
    // size, and the rows gain the simulated columns for the simulator's GPU.
    const JobSimulator *simulator = nullptr;
};

// Where a run stands, after each configuration.
struct ProbeProgress
{
    std::uint64_t done = 0; // configurations handled: measured or skipped
    std::uint64_t total = 0;
    std::uint64_t skipped = 0;
    double seconds = 0.0;
};

// Receives a probe run's progress on the thread that runs it: jobFinished after
// each configuration (measured or skipped), progressChanged with the share of the
// configurations handled, in visible steps.
class ProbeObserver : public virtual runtime::ProgressObserver
{
  public:
    virtual void jobFinished(const ProbeProgress & /*progress*/) {}
};

// How a run ended.
struct ProbeSummary
{
    std::uint64_t measured = 0;
    std::uint64_t skipped = 0; // already in the file (resume) or drawn twice
    std::uint64_t ok = 0;
    std::uint64_t outOfMemory = 0;
    std::uint64_t invalid = 0;
    bool repairedTail = false; // resume dropped a half-written last line
    bool cancelled = false;    // rows so far are in outPath + ".partial"
    double seconds = 0.0;
};

// Runs the probe: draws options.count configurations (those of its shard) with JobSampler, measures
// each with JobMeasurer and writes one CSV row per configuration. Rows go to
// outPath + ".partial", each written whole and flushed; the finished rows are
// written to outPath atomically (see io::AtomicFileWriter), so outPath is never
// half-written. The partial file is created by the run itself and never opened
// through a link: whatever was planted at its name is replaced, not written
// into, and a link there is refused on resume. With resume, the rows
// of outPath + ".partial" (an interrupted run) or else of outPath are kept, a
// half-written last line is dropped, and configurations already present are
// skipped. Not thread-safe (see JobMeasurer).
class ProbeRunner
{
  public:
    explicit ProbeRunner(ProbeOptions options);

    // Runs to the end, or until control is cancelled; control is checked between
    // jobs, where a pause waits. observer (optional) hears each configuration.
    // Throws io::InputError for a count above maxProbeJobs, and for a file that
    // cannot be written or resumed (another family's header).
    ProbeSummary run(ProbeObserver *observer = nullptr, runtime::OperationControl *control = nullptr);

    // The header of a family's probe CSV; simulated adds simulated_gpu,
    // simulated_reserved_mib and simulated_device_mib after cuda_context_mib. The llm
    // family has no layer_sequence, total_parameters nor total_activations (its
    // architecture's columns describe the model), and its simulated rows add the
    // breakdown (languageModelBreakdownColumns()) and fits before status.
    static std::vector<std::string> columnNames(JobFamily family, bool simulated = false);
    // One CSV line (without newline) for a measured job; simulatedGpu, the
    // profile's name, makes it a row of the simulated header.
    static std::string formatRow(const JobConfiguration &job, const JobMeasurement &measurement,
                                 const std::string &device, const std::string &simulatedGpu = {});

    // One row of a probe file as read back: the line (without its newline) and its configuration's key.
    struct FileRow
    {
        std::string line;
        std::string key;
    };
    // Reads a finished probe file of family measured on device (simulated for
    // simulatedGpu, when given), checked as --resume checks it (header, then
    // every cell of every row). Throws io::InputError naming the line and
    // column at fault, or an unfinished last line.
    static std::vector<FileRow> readRows(const std::string &path, JobFamily family, const std::string &device,
                                         const std::string &simulatedGpu = {});

  private:
    // Appends layer_sequence, total_parameters and total_activations of job (empty
    // when it cannot be described).
    static void appendLayerCells(const JobConfiguration &job, std::vector<std::string> &cells);

    ProbeOptions mOptions;
};

} // namespace gpumem::probe
