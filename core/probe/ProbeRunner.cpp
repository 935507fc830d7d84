// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/ProbeRunner.h"

#include "data/LayerSequenceParser.h"
#include "io/AtomicFileWriter.h"
#include "io/DescriptorBuffer.h"
#include "io/InputError.h"
#include "io/NumberText.h"
#include "io/TemporarySiblings.h"
#include "probe/CudaMemoryStats.h"
#include "probe/JobLayers.h"
#include "probe/JobSampler.h"
#include "probe/ProbeCsvLine.h"
#include "runtime/Stopwatch.h"

#include <torch/version.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <memory>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>

namespace gpumem::probe {

namespace {

std::string mibCell(double mib)
{
    return io::formattedNumber("%.6f", mib);
}

std::string mebibytes(std::uint64_t bytes)
{
    return mibCell(static_cast<double>(bytes) / 1048576.0);
}

std::string wholeNumber(double value)
{
    return io::formattedNumber("%.0f", value);
}

bool fileExists(const std::string &path)
{
    return ::access(path.c_str(), F_OK) == 0;
}

std::string readWholeFile(const std::string &path)
{
    std::ifstream stream(path, std::ios::binary);
    if (!stream)
        throw io::InputError(path, 0, 0, std::string("cannot read: ") + std::strerror(errno));
    std::ostringstream content;
    content << stream.rdbuf();
    return content.str();
}

bool isNumber(const std::string &text, bool whole)
{
    double value = 0.0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    return !text.empty() && result.ec == std::errc() && result.ptr == text.data() + text.size() &&
           std::isfinite(value) && value >= 0.0 && (!whole || value == std::floor(value));
}

// What a resumed file must agree with: this run's columns, family, device and
// simulated GPU (empty: not simulated).
struct RowExpectation
{
    std::vector<std::string> columns;
    JobFamily family = JobFamily::Mlp;
    std::string device;
    std::string simulatedGpu;
};

RowExpectation expectationOf(JobFamily family, const std::string &device, const std::string &simulatedGpu)
{
    return {ProbeRunner::columnNames(family, !simulatedGpu.empty()), family, device, simulatedGpu};
}

// Checks every cell of an earlier run's row as this probe would have written
// it, and returns the key of its configuration. Throws io::InputError naming the
// line and the 1-based column of the first bad cell.
std::string checkedRowKey(const std::vector<std::string> &cells, const RowExpectation &expected,
                          const std::string &path, std::int64_t line)
{
    const std::vector<std::string> &columns = expected.columns;
    if (cells.size() != columns.size())
        throw io::InputError(path, line, static_cast<std::int64_t>(std::min(cells.size(), columns.size()) + 1),
                             "row has " + std::to_string(cells.size()) + " fields, the header has " +
                                 std::to_string(columns.size()));
    const auto indexOf = [&](const std::string &name) {
        return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
    };
    const auto fail = [&](std::size_t index, const std::string &message) {
        throw io::InputError(path, line, static_cast<std::int64_t>(index + 1), message);
    };
    const auto cell = [&](const char *name) -> const std::string & { return cells[indexOf(name)]; };
    // An llm row has no layer description; its breakdown instead.
    const auto has = [&](const std::string &name) { return indexOf(name) < columns.size(); };

    if (cells[0] != jobFamilyName(expected.family))
        fail(0, "family " + io::quoteForMessage(cells[0]) + " in a file of " +
                    std::string(jobFamilyName(expected.family)) + " jobs");
    std::size_t asked = 0;
    JobConfiguration job;
    try {
        job = JobConfiguration::fromColumns(expected.family, [&](const std::string &name) {
            asked = indexOf(name);
            return cells[asked];
        });
    } catch (const io::InputError &error) {
        fail(asked, error.message()); // the column read last is the one refused
    }

    if (has("layer_sequence") && !cell("layer_sequence").empty()) {
        std::vector<data::LayerTuple> layers;
        try {
            data::parseLayerSequence(cell("layer_sequence"), layers);
        } catch (const data::LayerSequenceError &error) {
            fail(indexOf("layer_sequence"), std::string("malformed layer sequence: ") + error.what());
        }
    }
    for (const char *name : {"total_parameters", "total_activations"})
        if (has(name) && !cell(name).empty() && !isNumber(cell(name), true))
            fail(indexOf(name),
                 "column '" + std::string(name) + "' needs a whole number, not " + io::quoteForMessage(cell(name)));
    if (cell("device") != expected.device)
        fail(indexOf("device"), "measured on " + io::quoteForMessage(cell("device")) + ", not on " + expected.device +
                                    "; resume with the same " + io::parameter("device") + ", or write to another " +
                                    io::parameter("output_file"));
    if (cell("libtorch").empty())
        fail(indexOf("libtorch"), "the libtorch version is empty");
    for (const char *name : {"peak_allocated_mib", "peak_reserved_mib", "cuda_context_mib", "simulated_reserved_mib",
                             "simulated_device_mib"})
        if (indexOf(name) < columns.size() && !cell(name).empty() && !isNumber(cell(name), false))
            fail(indexOf(name),
                 "column '" + std::string(name) + "' needs a number of MiB, not " + io::quoteForMessage(cell(name)));
    for (const auto &name : languageModelBreakdownColumns())
        if (has(name) && !cell(name.c_str()).empty() && !isNumber(cell(name.c_str()), false))
            fail(indexOf(name),
                 "column '" + name + "' needs a number of MiB, not " + io::quoteForMessage(cell(name.c_str())));
    if (has("fits") && cell("fits") != "" && cell("fits") != "0" && cell("fits") != "1")
        fail(indexOf("fits"), "column 'fits' holds " + io::quoteForMessage(cell("fits")) + " (known: 0, 1)");
    if (!expected.simulatedGpu.empty() && cell("simulated_gpu") != expected.simulatedGpu)
        fail(indexOf("simulated_gpu"), "simulated for " + io::quoteForMessage(cell("simulated_gpu")) + ", not for " +
                                           expected.simulatedGpu + "; resume with the same " + io::parameter("gpu") +
                                           ", or write to another " + io::parameter("output_file"));
    const std::string &status = cell("status");
    if (status != jobStatusName(JobStatus::Ok) && status != jobStatusName(JobStatus::OutOfMemory) &&
        status != jobStatusName(JobStatus::Invalid))
        fail(indexOf("status"), "status " + io::quoteForMessage(status) + " (known: ok, out_of_memory, invalid)");
    if (status == jobStatusName(JobStatus::Ok) && cell("peak_allocated_mib").empty())
        fail(indexOf("peak_allocated_mib"), "a row with status ok needs its peak_allocated_mib");
    return job.key();
}

// Reads an earlier run's rows: drops a half-written last line, checks the
// header and every row (a bad one is refused, never rewritten: the file is the
// user's), and collects the configuration keys. Returns the content to keep.
std::string readExistingRows(const std::string &path, const RowExpectation &expected,
                             std::unordered_set<std::string> &keys, bool &repairedTail)
{
    std::string content = readWholeFile(path);
    const std::size_t lastNewline = content.rfind('\n');
    const std::size_t complete = lastNewline == std::string::npos ? 0 : lastNewline + 1;
    repairedTail = complete != content.size();
    content.resize(complete);
    const std::string header = joinCells(expected.columns);
    if (content.empty())
        return header + '\n';
    const std::size_t headerEnd = content.find('\n');
    if (content.compare(0, headerEnd, header) != 0)
        throw io::InputError(path, 1, 1,
                             "the header is not that of this family's probe file; "
                             "resume with the same " +
                                 io::parameter("family") + " and " + io::parameter("gpu") + ", or write to another " +
                                 io::parameter("output_file"));
    std::size_t start = headerEnd + 1;
    std::int64_t line = 2;
    std::vector<std::string> cells;
    while (start < content.size()) {
        const std::size_t end = content.find('\n', start);
        if (const std::size_t broken = splitCsvLine(content.substr(start, end - start), cells))
            throw io::InputError(path, line, static_cast<std::int64_t>(broken), "broken quoting");
        keys.insert(checkedRowKey(cells, expected, path, line));
        start = end + 1;
        ++line;
    }
    return content;
}

// Whether path is where an earlier run left its partial file; throws when the name
// holds anything but a regular file, which this program never leaves there.
bool hasPartialFile(const std::string &path)
{
    struct stat info = {};
    if (::lstat(path.c_str(), &info) != 0)
        return false;
    if (!S_ISREG(info.st_mode))
        throw io::InputError(path, 0, 0,
                             "is not a partial file of an earlier run (a link, folder or device); remove it");
    return true;
}

// The rows of a run in progress. The file at path is always one this run
// created: written under a fresh name (exclusively, see
// io::createTemporaryFileBeside) and renamed onto path, which replaces a link or
// file planted there instead of writing through it. Rows are then appended
// through the run's own descriptor, never by opening the name again.
class PartialFile
{
  public:
    PartialFile(std::string path, std::string kept)
        : mPath(std::move(path))
        , mContent(std::move(kept))
    {
        io::TemporaryFile created = io::createTemporaryFileBeside(mPath, O_APPEND);
        if (created.descriptor < 0)
            throw io::InputError(mPath, 0, 0, std::string("cannot write: ") + std::strerror(errno));
        mBuffer = std::make_unique<io::DescriptorBuffer>(created.descriptor);
        mStream = std::make_unique<std::ostream>(mBuffer.get());
        struct stat info = {};
        ::fstat(created.descriptor, &info);
        mDevice = info.st_dev;
        mInode = info.st_ino;
        *mStream << mContent;
        mStream->flush();
        // The kept rows take the partial file's place in one step, so an
        // interruption now leaves either the old partial file or the repaired one.
        if (!*mStream || ::fsync(created.descriptor) != 0 || std::rename(created.path.c_str(), mPath.c_str()) != 0) {
            const int error = mBuffer->error() != 0 ? mBuffer->error() : errno;
            mBuffer->close(false);
            ::unlink(created.path.c_str());
            throw io::InputError(mPath, 0, 0, io::describeWriteError(error));
        }
        // From now on the file is the run's record, kept on a signal so that --resume can continue it.
        created.registration->release();
    }

    // Writes one whole line and flushes it: an interruption loses at most this row.
    void append(const std::string &line)
    {
        *mStream << line << '\n';
        mStream->flush();
        if (!*mStream)
            throw io::InputError(mPath, 0, 0, io::describeWriteError(mBuffer->error()));
        mContent += line;
        mContent += '\n';
    }

    // Closes the file, keeping it for a later --resume.
    void keep() { mBuffer->close(true); }

    // Writes every row to outPath as any output is written (atomically, through a
    // link the user made), then removes the partial file when the name still holds it.
    void finish(const std::string &outPath)
    {
        if (!mBuffer->close(true))
            throw io::InputError(mPath, 0, 0, io::describeWriteError(mBuffer->error()));
        io::writeFileAtomically(outPath, mContent);
        struct stat info = {};
        if (::lstat(mPath.c_str(), &info) == 0 && info.st_dev == mDevice && info.st_ino == mInode)
            ::unlink(mPath.c_str());
    }

  private:
    std::string mPath;
    std::string mContent; // everything written, for the finished file
    std::unique_ptr<io::DescriptorBuffer> mBuffer;
    std::unique_ptr<std::ostream> mStream;
    dev_t mDevice = 0;
    ino_t mInode = 0;
};

} // namespace

void checkProbeCount(std::uint64_t count)
{
    if (count > maxProbeJobs)
        throw io::InputError(io::parameter("count") + " " + std::to_string(count) + " is more than the " +
                             std::to_string(maxProbeJobs) +
                             " configurations one probe may draw; run several probes with different " +
                             io::parameter("seed") + " values");
}

ProbeRunner::ProbeRunner(ProbeOptions options)
    : mOptions(std::move(options))
{
}

std::vector<std::string> ProbeRunner::columnNames(JobFamily family, bool simulated)
{
    std::vector<std::string> names = JobConfiguration::columnNames(family);
    // A language model is described by its architecture's columns, not by layers.
    if (family != JobFamily::Llm)
        names.insert(names.end(), {"layer_sequence", "total_parameters", "total_activations"});
    names.insert(names.end(), {"device", "libtorch", "peak_allocated_mib", "peak_reserved_mib", "cuda_context_mib"});
    if (simulated)
        names.insert(names.end(), {"simulated_gpu", "simulated_reserved_mib", "simulated_device_mib"});
    if (simulated && family == JobFamily::Llm) {
        const auto &breakdown = languageModelBreakdownColumns();
        names.insert(names.end(), breakdown.begin(), breakdown.end());
        names.push_back("fits");
    }
    names.insert(names.end(), {"status", "message"});
    return names;
}

std::vector<ProbeRunner::FileRow> ProbeRunner::readRows(const std::string &path, JobFamily family,
                                                        const std::string &device, const std::string &simulatedGpu)
{
    const std::string content = readWholeFile(path);
    if (!content.empty() && content.back() != '\n')
        throw io::InputError(path, 0, 0, "the last line is unfinished (a run still writing, or cut short)");
    std::unordered_set<std::string> keys;
    bool repairedTail = false;
    const RowExpectation expected = expectationOf(family, device, simulatedGpu);
    readExistingRows(path, expected, keys, repairedTail);
    const std::size_t headerEnd = content.find('\n');
    std::vector<FileRow> rows;
    std::vector<std::string> cells;
    std::int64_t line = 2;
    for (std::size_t start = headerEnd == std::string::npos ? content.size() : headerEnd + 1; start < content.size();
         ++line) {
        const std::size_t end = content.find('\n', start);
        FileRow row;
        row.line = content.substr(start, end - start);
        splitCsvLine(row.line, cells); // readExistingRows checked the quoting
        row.key = checkedRowKey(cells, expected, path, line);
        rows.push_back(std::move(row));
        start = end + 1;
    }
    return rows;
}

std::string ProbeRunner::formatRow(const JobConfiguration &job, const JobMeasurement &measurement,
                                   const std::string &device, const std::string &simulatedGpu)
{
    std::vector<std::string> cells = job.columnValues();
    const bool ok = measurement.status == JobStatus::Ok;
    if (job.family != JobFamily::Llm)
        appendLayerCells(job, cells);
    cells.push_back(device);
    cells.push_back(TORCH_VERSION);
    cells.push_back(ok ? mebibytes(measurement.peakAllocatedBytes) : "");
    cells.push_back(ok && measurement.peakReservedBytes ? mebibytes(*measurement.peakReservedBytes) : "");
    cells.push_back(measurement.contextBytes ? mebibytes(*measurement.contextBytes) : "");
    if (!simulatedGpu.empty()) {
        cells.push_back(csvCell(simulatedGpu));
        cells.push_back(ok && measurement.simulatedReservedBytes ? mebibytes(*measurement.simulatedReservedBytes) : "");
        cells.push_back(ok && measurement.simulatedDeviceMib ? mibCell(*measurement.simulatedDeviceMib) : "");
    }
    if (!simulatedGpu.empty() && job.family == JobFamily::Llm) {
        const std::size_t parts = languageModelBreakdownColumns().size();
        const bool hasBreakdown = ok && measurement.simulatedBreakdownMib.size() == parts;
        for (std::size_t part = 0; part < parts; ++part)
            cells.push_back(hasBreakdown ? mibCell(measurement.simulatedBreakdownMib[part]) : "");
        cells.push_back(ok && measurement.simulatedFits ? (*measurement.simulatedFits ? "1" : "0") : "");
    }
    cells.push_back(std::string(jobStatusName(measurement.status)));
    cells.push_back(csvCell(measurement.message));
    return joinCells(cells);
}

void ProbeRunner::appendLayerCells(const JobConfiguration &job, std::vector<std::string> &cells)
{
    std::string sequence;
    double parameters = 0.0;
    double activations = 0.0;
    try {
        const auto layers = describeLayers(job);
        for (const auto &layer : layers) {
            activations += layer.fields[0];
            parameters += layer.fields[1];
        }
        sequence = formatLayerSequence(layers);
    } catch (const io::InputError &) {
        // A configuration that cannot be described is an invalid row; its description stays empty.
    }
    cells.push_back(sequence.empty() ? "" : csvCell(sequence));
    cells.push_back(sequence.empty() ? "" : wholeNumber(parameters));
    cells.push_back(sequence.empty() ? "" : wholeNumber(activations));
}

ProbeSummary ProbeRunner::run(ProbeObserver *observer, runtime::OperationControl *control)
{
    if (mOptions.outPath.empty())
        throw io::InputError("no output file given");
    if (mOptions.steps <= 0)
        throw io::InputError("steps must be positive");
    // Refused before the first job: otherwise every row would be recorded invalid and the run would "succeed".
    if (measuresOnCuda(mOptions.device) && !CudaMemoryStats::available())
        throw io::InputError(io::parameter("device") +
                             " cuda: CUDA is not available (no device, or a LibTorch without CUDA); use " +
                             io::parameter("device") + " cpu");
    if (mOptions.shardCount == 0 || mOptions.shardIndex >= mOptions.shardCount)
        throw io::InputError("shard " + std::to_string(mOptions.shardIndex) + " of " +
                             std::to_string(mOptions.shardCount) + " does not exist");
    checkProbeCount(mOptions.count);
    if (mOptions.family == JobFamily::Llm && mOptions.simulator == nullptr)
        throw io::InputError(io::parameter("family") +
                             " llm estimates shipped language models, which a CPU cannot run: give " +
                             io::parameter("gpu", "PROFILE"));
    const runtime::Stopwatch time;
    const std::string simulatedGpu = mOptions.simulator != nullptr ? mOptions.simulator->profileName() : std::string();
    const RowExpectation expected = expectationOf(mOptions.family, mOptions.device, simulatedGpu);
    const std::string header = joinCells(expected.columns);
    const std::string partialPath = mOptions.outPath + ".partial";

    ProbeSummary summary;
    std::unordered_set<std::string> keys;
    std::string kept = header + '\n';
    if (mOptions.resume) {
        const std::string source = hasPartialFile(partialPath)    ? partialPath
                                   : fileExists(mOptions.outPath) ? mOptions.outPath
                                                                  : std::string();
        if (!source.empty())
            kept = readExistingRows(source, expected, keys, summary.repairedTail);
    }
    PartialFile out(partialPath, std::move(kept));

    const JobSampler sampler(mOptions.family, mOptions.device, mOptions.seed, mOptions.steps, mOptions.sizes);
    MeasureOptions measureOptions;
    measureOptions.device = mOptions.device;
    measureOptions.memoryLimitBytes = mOptions.memoryLimitBytes;
    // A shard draws only the configurations of its slice: whether another slice drew
    // one earlier would take drawing the whole list, so the merge settles that instead.
    ProbeProgress state;
    state.total =
        mOptions.count > mOptions.shardIndex ? (mOptions.count - mOptions.shardIndex - 1) / mOptions.shardCount + 1 : 0;
    runtime::ProgressThrottle throttle(observer);
    for (std::uint64_t position = 0; position < state.total; ++position) {
        // Between jobs the partial file holds only whole rows, so a pause can wait here.
        if (control != nullptr && !control->waitWhilePaused()) {
            summary.cancelled = true;
            break;
        }
        const JobConfiguration job = sampler.sample(mOptions.shardIndex + position * mOptions.shardCount);
        if (!keys.insert(job.key()).second) {
            ++summary.skipped;
        } else {
            const JobMeasurement measurement = mOptions.simulator != nullptr
                                                   ? mOptions.simulator->measure(job)
                                                   : JobMeasurer::measure(job, measureOptions);
            out.append(formatRow(job, measurement, mOptions.device, simulatedGpu));
            ++summary.measured;
            switch (measurement.status) {
            case JobStatus::Ok: ++summary.ok; break;
            case JobStatus::OutOfMemory: ++summary.outOfMemory; break;
            case JobStatus::Invalid: ++summary.invalid; break;
            }
        }
        state.done = position + 1;
        state.skipped = summary.skipped;
        state.seconds = time.seconds();
        if (observer) {
            observer->jobFinished(state);
            throttle.advance(static_cast<double>(state.done) / static_cast<double>(state.total));
        }
    }
    if (summary.cancelled)
        out.keep();
    else
        out.finish(mOptions.outPath);
    summary.seconds = time.seconds();
    return summary;
}

} // namespace gpumem::probe
