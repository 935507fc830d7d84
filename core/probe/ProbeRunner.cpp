#include "probe/ProbeRunner.h"

#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "probe/JobLayers.h"
#include "probe/JobSampler.h"

#include <torch/version.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <unordered_set>

namespace gpumem::probe {

namespace {

std::string mebibytes(std::uint64_t bytes)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.6f", static_cast<double>(bytes) / 1048576.0);
    return text;
}

std::string wholeNumber(double value)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.0f", value);
    return text;
}

// Quotes a cell when it holds a comma or a quote; line breaks become spaces so a row stays one line.
std::string csvCell(std::string text)
{
    for (char &character : text)
        if (character == '\n' || character == '\r')
            character = ' ';
    if (text.find_first_of(",\"") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char character : text) {
        if (character == '"')
            quoted += '"';
        quoted += character;
    }
    return quoted + '"';
}

std::string joinCells(const std::vector<std::string> &cells)
{
    std::string line;
    for (std::size_t index = 0; index < cells.size(); ++index)
        line += (index == 0 ? "" : ",") + cells[index];
    return line;
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

// The configuration key of a row: its first cells, which never hold commas or quotes.
std::string keyOfLine(const std::string &line, std::size_t configurationColumns)
{
    std::string key;
    std::size_t start = 0;
    for (std::size_t column = 0; column < configurationColumns; ++column) {
        const std::size_t end = line.find(',', start);
        if (end == std::string::npos)
            return {};
        key += line.substr(start, end - start) + '|';
        start = end + 1;
    }
    return key;
}

// Reads an earlier run's rows: checks the header, drops a half-written last
// line, and collects the configuration keys. Returns the content to keep.
std::string readExistingRows(const std::string &path, const std::string &header, std::size_t configurationColumns,
                             std::unordered_set<std::string> &keys, bool &repairedTail)
{
    std::string content = readWholeFile(path);
    const std::size_t lastNewline = content.rfind('\n');
    const std::size_t complete = lastNewline == std::string::npos ? 0 : lastNewline + 1;
    repairedTail = complete != content.size();
    content.resize(complete);
    if (content.empty())
        return header + '\n';
    const std::size_t headerEnd = content.find('\n');
    if (content.compare(0, headerEnd, header) != 0)
        throw io::InputError(path, 1, 1,
                             "the header is not that of this family's probe file; "
                             "resume with the same --family, or write to another --out");
    std::size_t start = headerEnd + 1;
    std::int64_t line = 2;
    while (start < content.size()) {
        const std::size_t end = content.find('\n', start);
        const std::string key = keyOfLine(content.substr(start, end - start), configurationColumns);
        if (key.empty())
            throw io::InputError(path, line, 1, "not a probe row (too few cells)");
        keys.insert(key);
        start = end + 1;
        ++line;
    }
    return content;
}

void syncAndRename(const std::string &from, const std::string &to)
{
    const int descriptor = ::open(from.c_str(), O_RDONLY);
    if (descriptor >= 0) {
        ::fsync(descriptor);
        ::close(descriptor);
    }
    if (std::rename(from.c_str(), to.c_str()) != 0)
        throw io::InputError(to, 0, 0, std::string("cannot replace: ") + std::strerror(errno));
}

} // namespace

ProbeRunner::ProbeRunner(ProbeOptions options)
    : mOptions(std::move(options))
{
}

std::vector<std::string> ProbeRunner::columnNames(JobFamily family)
{
    std::vector<std::string> names = JobConfiguration::columnNames(family);
    names.insert(names.end(), {"layer_sequence", "total_parameters", "total_activations", "device", "libtorch",
                               "peak_allocated_mib", "peak_reserved_mib", "cuda_context_mib", "status", "message"});
    return names;
}

std::string ProbeRunner::formatRow(const JobConfiguration &job, const JobMeasurement &measurement,
                                   const std::string &device)
{
    std::vector<std::string> cells = job.columnValues();
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
    const bool ok = measurement.status == JobStatus::Ok;
    cells.push_back(sequence.empty() ? "" : csvCell(sequence));
    cells.push_back(sequence.empty() ? "" : wholeNumber(parameters));
    cells.push_back(sequence.empty() ? "" : wholeNumber(activations));
    cells.push_back(device);
    cells.push_back(TORCH_VERSION);
    cells.push_back(ok ? mebibytes(measurement.peakAllocatedBytes) : "");
    cells.push_back(ok && measurement.peakReservedBytes ? mebibytes(*measurement.peakReservedBytes) : "");
    cells.push_back(measurement.contextBytes ? mebibytes(*measurement.contextBytes) : "");
    cells.push_back(std::string(jobStatusName(measurement.status)));
    cells.push_back(csvCell(measurement.message));
    return joinCells(cells);
}

ProbeSummary ProbeRunner::run(const std::function<void(const ProbeProgress &)> &progress,
                              const std::atomic_bool *cancel)
{
    if (mOptions.outPath.empty())
        throw io::InputError("no output file given");
    if (mOptions.steps <= 0)
        throw io::InputError("steps must be positive");
    if (mOptions.device != "cpu" && mOptions.device != "cuda")
        throw io::InputError("unknown device " + io::quoteForMessage(mOptions.device) + " (known: cpu, cuda)");
    const auto started = std::chrono::steady_clock::now();
    const std::string header = joinCells(columnNames(mOptions.family));
    const std::size_t configurationColumns = JobConfiguration::columnNames(mOptions.family).size();
    const std::string partialPath = mOptions.outPath + ".partial";

    ProbeSummary summary;
    std::unordered_set<std::string> keys;
    std::string kept = header + '\n';
    if (mOptions.resume) {
        const std::string source = fileExists(partialPath)        ? partialPath
                                   : fileExists(mOptions.outPath) ? mOptions.outPath
                                                                  : std::string();
        if (!source.empty())
            kept = readExistingRows(source, header, configurationColumns, keys, summary.repairedTail);
    }
    // The kept rows become the partial file in one step, so an interruption
    // now leaves either the old partial file or the repaired one.
    io::writeFileAtomically(partialPath, kept);
    std::ofstream out(partialPath, std::ios::binary | std::ios::app);
    if (!out)
        throw io::InputError(partialPath, 0, 0, std::string("cannot write: ") + std::strerror(errno));

    const JobSampler sampler(mOptions.family, mOptions.device, mOptions.seed, mOptions.steps);
    MeasureOptions measureOptions;
    measureOptions.device = mOptions.device;
    measureOptions.memoryLimitBytes = mOptions.memoryLimitBytes;
    ProbeProgress state;
    state.total = mOptions.count;
    for (std::uint64_t index = 0; index < mOptions.count; ++index) {
        if (cancel != nullptr && cancel->load()) {
            summary.cancelled = true;
            break;
        }
        const JobConfiguration job = sampler.sample(index);
        if (!keys.insert(job.key()).second) {
            ++summary.skipped;
        } else {
            const JobMeasurement measurement = JobMeasurer::measure(job, measureOptions);
            // One write of a whole line, then a flush: an interruption loses at most this row.
            out << formatRow(job, measurement, mOptions.device) + '\n';
            out.flush();
            if (!out)
                throw io::InputError(partialPath, 0, 0, "cannot write (disk full?)");
            ++summary.measured;
            switch (measurement.status) {
            case JobStatus::Ok: ++summary.ok; break;
            case JobStatus::OutOfMemory: ++summary.outOfMemory; break;
            case JobStatus::Invalid: ++summary.invalid; break;
            }
        }
        state.done = index + 1;
        state.skipped = summary.skipped;
        state.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (progress)
            progress(state);
    }
    out.close();
    if (!summary.cancelled)
        syncAndRename(partialPath, mOptions.outPath);
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return summary;
}

} // namespace gpumem::probe
