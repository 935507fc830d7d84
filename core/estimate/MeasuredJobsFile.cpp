// SPDX-License-Identifier: GPL-3.0-or-later
#include "estimate/MeasuredJobsFile.h"

#include "data/CsvReader.h"
#include "estimate/MemoryUnits.h"
#include "io/InputError.h"
#include "io/RegularFile.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

namespace gpumem::estimate {

namespace fs = std::filesystem;

namespace {

// As --batch-size and --vocabulary allow on the command line.
constexpr std::uint64_t kLargestBatch = std::uint64_t{1} << 24;
constexpr std::uint64_t kLargestCount = std::uint64_t{1} << 31;

std::string listText(const std::vector<std::string> &names)
{
    std::string text;
    for (const auto &name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

std::string trimmed(const std::string &text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// Reads the cells of one row by column name, and locates every complaint at its cell.
class RowCells
{
  public:
    RowCells(const std::string &path, std::int64_t line, const std::map<std::string, std::size_t> &columns,
             const std::vector<std::string> &fields)
        : mPath(path)
        , mLine(line)
        , mColumns(columns)
        , mFields(fields)
    {
    }

    bool has(const std::string &name) const { return mColumns.count(name) != 0 && !text(name).empty(); }

    std::string text(const std::string &name) const
    {
        const auto found = mColumns.find(name);
        return found == mColumns.end() ? std::string() : trimmed(mFields[found->second]);
    }

    std::int64_t column(const std::string &name) const
    {
        const auto found = mColumns.find(name);
        return found == mColumns.end() ? 0 : static_cast<std::int64_t>(found->second + 1);
    }

    [[noreturn]] void fail(const std::string &name, const std::string &message) const
    {
        throw io::InputError(mPath, mLine, column(name), name + ": " + message);
    }

    std::string required(const std::string &name) const
    {
        const std::string value = text(name);
        if (value.empty())
            fail(name, "empty cell; every row needs a value here");
        return value;
    }

    std::uint64_t wholeNumber(const std::string &name, std::uint64_t largest) const
    {
        const std::string value = required(name);
        std::uint64_t number = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
        if (error != std::errc() || end != value.data() + value.size() || number < 1 || number > largest)
            fail(name, "expected a whole number from 1 to " + std::to_string(largest) + ", not " +
                           io::quoteForMessage(value));
        return number;
    }

    std::string oneOf(const std::string &name, const std::vector<std::string> &names, const std::string &fallback) const
    {
        if (!has(name))
            return fallback;
        const std::string value = text(name);
        if (std::find(names.begin(), names.end(), value) == names.end())
            fail(name, "expected " + listText(names) + ", not " + io::quoteForMessage(value));
        return value;
    }

  private:
    const std::string &mPath;
    std::int64_t mLine;
    const std::map<std::string, std::size_t> &mColumns;
    const std::vector<std::string> &mFields;
};

MeasuredJob readRow(const RowCells &cells, const fs::path &folder)
{
    MeasuredJob job;
    const std::string model = cells.required("model");
    fs::path modelPath(model);
    if (modelPath.is_relative())
        modelPath = folder / modelPath;
    std::error_code error;
    if (!fs::is_regular_file(modelPath, error))
        cells.fail("model", "no model file " + io::quoteForMessage(modelPath.string(), 200) +
                                " (a relative path starts at the CSV file's folder)");
    job.configuration.modelPath = modelPath.string();
    job.modelColumn = cells.column("model");

    const std::string shapes = cells.required("input_shape");
    std::size_t start = 0;
    while (start <= shapes.size()) {
        const std::size_t end = std::min(shapes.find('|', start), shapes.size());
        try {
            job.configuration.inputShapes.push_back(
                parseSampleShape(trimmed(shapes.substr(start, end - start)), "one input's shape"));
        } catch (const io::InputError &refusal) {
            cells.fail("input_shape", refusal.markedMessage() + " (several inputs are separated by |)");
        }
        start = end + 1;
    }

    job.batchSize = static_cast<std::int64_t>(cells.wholeNumber("batch_size", kLargestBatch));
    cells.required("optimizer"); // no default assumed: the optimizer's state is much of the memory
    job.configuration.optimizer = cells.oneOf("optimizer", optimizerNames(), "");
    job.configuration.optimizerImplementation =
        cells.oneOf("optimizer_implementation", optimizerImplementationNames(), "foreach");
    job.configuration.attention = cells.oneOf("attention", attentionNames(), "efficient");
    job.configuration.dtype = cells.oneOf("dtype", dtypeNames(), "float32");
    job.configuration.loss = cells.oneOf("loss", lossNames(), "cross_entropy");
    const bool tokens = cells.oneOf("input_kind", {"float", "tokens"}, "float") == "tokens";
    job.configuration.inputKind = tokens ? InputKind::Tokens : InputKind::Float;
    if (tokens) {
        if (!cells.has("vocabulary"))
            cells.fail(cells.column("vocabulary") != 0 ? "vocabulary" : "input_kind",
                       "input_kind tokens needs the vocabulary (token ids are drawn below it)");
        job.configuration.vocabulary = static_cast<std::int64_t>(cells.wholeNumber("vocabulary", kLargestCount));
    }
    if (cells.has("classes"))
        job.configuration.classes = static_cast<std::int64_t>(cells.wholeNumber("classes", kLargestCount));

    const std::string measured = cells.required("measured_mib");
    double value = 0.0;
    const auto [end, parseError] = std::from_chars(measured.data(), measured.data() + measured.size(), value);
    if (parseError != std::errc() || end != measured.data() + measured.size() || !std::isfinite(value) ||
        value <= 0.0 || value > largestMib)
        cells.fail("measured_mib", "expected a number of MiB in (0, 1048576], not " + io::quoteForMessage(measured));
    job.measuredMib = value;
    job.measuredColumn = cells.column("measured_mib");

    const std::string by = cells.required("measured_by");
    const auto quantity = parseMeasuredQuantity(by);
    if (!quantity)
        cells.fail("measured_by", "expected nvidia-smi (the device total) or max_memory_reserved "
                                  "(torch.cuda.max_memory_reserved()), not " +
                                      io::quoteForMessage(by));
    job.quantity = *quantity;
    return job;
}

} // namespace

const std::vector<std::string> &measuredJobsRequiredColumns()
{
    static const std::vector<std::string> names = {"model",     "input_shape",  "batch_size",
                                                   "optimizer", "measured_mib", "measured_by"};
    return names;
}

const std::vector<std::string> &measuredJobsOptionalColumns()
{
    static const std::vector<std::string> names = {
        "optimizer_implementation", "attention", "dtype", "input_kind", "vocabulary", "loss", "classes"};
    return names;
}

std::vector<MeasuredJob> readMeasuredJobs(const std::string &path)
{
    // Read whole and bounded: the file is small, and a device or a huge file is refused before any parsing.
    std::istringstream text(io::readRegularFile(path, maxMeasuredJobsFileBytes));
    data::CsvReader reader(text, path);
    std::vector<std::string> fields;
    if (!reader.readRecord(fields))
        throw io::InputError(path, 0, 0,
                             "the file is empty; it needs a header with the columns " +
                                 listText(measuredJobsRequiredColumns()));

    const auto &required = measuredJobsRequiredColumns();
    const auto &optional = measuredJobsOptionalColumns();
    std::map<std::string, std::size_t> columns;
    const std::int64_t headerLine = reader.recordLine();
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string name = trimmed(fields[i]);
        const auto column = static_cast<std::int64_t>(i + 1);
        if (std::find(required.begin(), required.end(), name) == required.end() &&
            std::find(optional.begin(), optional.end(), name) == optional.end())
            throw io::InputError(path, headerLine, column,
                                 "unknown column " + io::quoteForMessage(name) + " (known: " + listText(required) +
                                     ", and optionally " + listText(optional) + ")");
        if (!columns.emplace(name, i).second)
            throw io::InputError(path, headerLine, column, "column " + io::quoteForMessage(name) + " appears twice");
    }
    for (const auto &name : required)
        if (columns.count(name) == 0)
            throw io::InputError(path, headerLine, 0,
                                 "missing column " + io::quoteForMessage(name) + " (needed: " + listText(required) +
                                     ")");

    const std::size_t width = fields.size();
    const fs::path folder = fs::path(path).parent_path();
    std::vector<MeasuredJob> jobs;
    while (reader.readRecord(fields)) {
        const std::int64_t line = reader.recordLine();
        if (fields.size() != width)
            throw io::InputError(path, line, static_cast<std::int64_t>(std::min(fields.size(), width) + 1),
                                 "the row has " + std::to_string(fields.size()) + " fields, the header " +
                                     std::to_string(width));
        if (jobs.size() == maxMeasuredJobs)
            throw io::InputError(path, line, 0,
                                 "more than " + std::to_string(maxMeasuredJobs) +
                                     " rows; a few jobs per model are enough to calibrate");
        MeasuredJob job = readRow(RowCells(path, line, columns, fields), folder);
        job.line = line;
        jobs.push_back(std::move(job));
    }
    if (jobs.empty())
        throw io::InputError(path, 0, 0, "the file has a header but no measured jobs");
    return jobs;
}

} // namespace gpumem::estimate
