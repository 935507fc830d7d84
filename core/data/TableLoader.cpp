// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/TableLoader.h"

#include "data/CellText.h"
#include "data/CsvReader.h"
#include "io/GzipInputStream.h"
#include "io/InputError.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace gpumem::data {

namespace {

using StreamOpener = std::function<std::unique_ptr<std::istream>()>;

// How a column's cells read as numbers under one decimal mark.
struct NumberProfile
{
    std::int64_t numeric = 0; // finite or not
    std::optional<BadCell> firstNonNumeric;
    std::string firstNonNumericValue;
};

// What the first pass learns about a column, in bounded memory.
struct ColumnProfile
{
    std::int64_t present = 0;
    NumberProfile withPoint;
    NumberProfile withComma; // only counted while a decimal comma is possible
    std::int64_t sequenceLike = 0;
    // Upper bounds on the layers and numbers of sequence cells, so that pass two
    // reserves once instead of doubling vectors of hundreds of megabytes.
    std::size_t openParentheses = 0;
    std::size_t commas = 0;

    const NumberProfile &numbers(bool decimalComma) const { return decimalComma ? withComma : withPoint; }
};

std::vector<std::string> readHeader(CsvReader &reader, const std::string &source)
{
    std::vector<std::string> header;
    if (!reader.readRecord(header))
        throw io::InputError(source, 0, 0, "the file is empty; a header row with column names is required");
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < header.size(); ++i) {
        std::string name(trimmed(header[i]));
        if (name.empty())
            name = "column " + std::to_string(i + 1);
        const auto [it, inserted] = seen.emplace(name, i);
        if (!inserted)
            throw io::InputError(source, reader.recordLine(), static_cast<std::int64_t>(i + 1),
                                 "duplicate column name " + io::quoteForMessage(name) + " (also column " +
                                     std::to_string(it->second + 1) + ")");
        header[i] = std::move(name);
    }
    return header;
}

void checkFieldCount(const CsvReader &reader, const std::vector<std::string> &fields, std::size_t expected)
{
    if (fields.size() == expected)
        return;
    const std::size_t column = std::min(fields.size(), expected) + 1;
    throw io::InputError(reader.sourceName(), reader.recordLine(), static_cast<std::int64_t>(column),
                         "row has " + std::to_string(fields.size()) + " fields but the header has " +
                             std::to_string(expected));
}

// Pass one tells numbers, sequences and text apart; categorical versus
// identifier is decided after pass two, from the dictionary it builds anyway.
// A column of numbers with a few stray cells ("1,5", "0x10") stays numeric, so
// that one typo becomes a bad cell instead of a one-hot column of every value.
ColumnType decideType(const ColumnProfile &profile, bool decimalComma)
{
    if (profile.present == 0)
        return ColumnType::Empty;
    const std::int64_t numeric = profile.numbers(decimalComma).numeric;
    if (numeric == profile.present)
        return ColumnType::Numeric;
    if (profile.sequenceLike == profile.present)
        return ColumnType::Sequence;
    if (static_cast<double>(numeric) >= numericShare * static_cast<double>(profile.present))
        return ColumnType::Numeric;
    return ColumnType::Categorical;
}

ColumnType textColumnType(const Column &column, std::size_t categoricalLimit)
{
    const auto present = static_cast<std::int64_t>(column.codes.size()) - column.missingCount;
    const std::size_t distinct = column.categories.size();
    return distinct <= categoricalLimit && static_cast<std::int64_t>(distinct) < present ? ColumnType::Categorical
                                                                                         : ColumnType::Identifier;
}

std::string columnLabel(const std::string &name)
{
    return "column " + io::quoteForMessage(name, 60);
}

class TwoPassLoader
{
  public:
    TwoPassLoader(StreamOpener open, std::string source, const TableLoadOptions &options,
                  runtime::ProgressObserver *observer, const runtime::OperationControl *control,
                  std::uint64_t totalBytes)
        : mOpen(std::move(open))
        , mSource(std::move(source))
        , mOptions(options)
        , mProgress(observer)
        , mControl(control)
        , mTotalBytes(totalBytes)
    {
    }

    Table load()
    {
        const std::vector<ColumnProfile> profiles = profileColumns();
        return storeColumns(profiles);
    }

  private:
    std::vector<ColumnProfile> profileColumns()
    {
        auto stream = mOpen();
        CsvReader reader(*stream, mSource, mOptions.delimiter);
        mDelimiter = reader.delimiter();
        mHeader = readHeader(reader, mSource);
        std::vector<ColumnProfile> profiles(mHeader.size());
        mCommaPossible = mOptions.decimalComma.value_or(mDelimiter == ';');
        std::vector<std::string> fields;
        while (reader.readRecord(fields)) {
            noteRecord(reader, 0);
            checkFieldCount(reader, fields, mHeader.size());
            ++mRowCount;
            for (std::size_t i = 0; i < fields.size(); ++i)
                profileCell(profiles[i], fields[i], reader.recordLine());
        }
        if (mRowCount == 0)
            throw io::InputError(mSource, 0, 0, "the file has a header but no data rows");
        // Detected only when unambiguous: decimal commas seen and not one decimal point.
        mDecimalComma =
            mOptions.decimalComma.value_or(mCommaPossible && mCommaDecimalCells > 0 && mPointDecimalCells == 0);
        return profiles;
    }

    static void countNumber(NumberProfile &profile, CellKind kind, const std::string &cell, std::int64_t line)
    {
        if (isNumber(kind)) {
            ++profile.numeric;
        } else if (!profile.firstNonNumeric) {
            profile.firstNonNumeric = BadCell{line, "not a number: " + io::quoteForMessage(cell)};
            // Cut on a character boundary: the text goes into JSON reports as it is.
            std::size_t cut = std::min<std::size_t>(cell.size(), 40);
            while (cut > 0 && cut < cell.size() && (static_cast<unsigned char>(cell[cut]) & 0xC0) == 0x80)
                --cut;
            profile.firstNonNumericValue = cell.substr(0, cut);
        }
    }

    void profileCell(ColumnProfile &profile, const std::string &cell, std::int64_t line)
    {
        double number = 0.0;
        const CellKind kind = classifyCell(cell, number, false, mScratch);
        if (kind == CellKind::Missing)
            return;
        ++profile.present;
        countNumber(profile.withPoint, kind, cell, line);
        if (mCommaPossible) {
            const CellKind commaKind = classifyCell(cell, number, true, mScratch);
            countNumber(profile.withComma, commaKind, cell, line);
            if (isNumber(kind) && cell.find('.') != std::string::npos)
                ++mPointDecimalCells;
            if (isNumber(commaKind) && cell.find(',') != std::string::npos)
                ++mCommaDecimalCells;
        }
        if (looksLikeLayerSequence(cell)) {
            ++profile.sequenceLike;
            // No cell may reserve more than the parser would ever accept from it.
            constexpr std::size_t maxNumbers = maxLayersPerSequence * maxFieldsPerLayer;
            profile.openParentheses +=
                std::min(static_cast<std::size_t>(std::count(cell.begin(), cell.end(), '(')), maxLayersPerSequence);
            profile.commas += std::min(static_cast<std::size_t>(std::count(cell.begin(), cell.end(), ',')), maxNumbers);
        }
    }

    Table storeColumns(const std::vector<ColumnProfile> &profiles)
    {
        std::vector<Column> columns(mHeader.size());
        for (std::size_t i = 0; i < columns.size(); ++i) {
            columns[i].name = mHeader[i];
            columns[i].index = i;
            const NumberProfile &numbers = profiles[i].numbers(mDecimalComma);
            columns[i].type = decideType(profiles[i], mDecimalComma);
            columns[i].firstNonNumericCell = numbers.firstNonNumeric;
            columns[i].firstNonNumericValue = numbers.firstNonNumericValue;
            if (columns[i].type == ColumnType::Numeric)
                columns[i].nonNumericCount = profiles[i].present - numbers.numeric;
            reserveStorage(columns[i], profiles[i]);
        }
        std::vector<std::unordered_map<std::string, std::int32_t>> categoryCodes(columns.size());

        auto stream = mOpen();
        CsvReader reader(*stream, mSource, mDelimiter);
        std::vector<std::string> fields;
        reader.readRecord(fields); // the header, validated by the first pass
        std::vector<std::int64_t> rowLines;
        rowLines.reserve(mRowCount);
        while (reader.readRecord(fields)) {
            noteRecord(reader, 1);
            checkFieldCount(reader, fields, mHeader.size());
            rowLines.push_back(reader.recordLine());
            for (std::size_t i = 0; i < fields.size(); ++i)
                storeCell(columns[i], categoryCodes[i], fields[i], reader.recordLine());
        }
        if (rowLines.size() != mRowCount)
            throw io::InputError(mSource, 0, 0, "the file changed while it was being read");
        mProgress.advance(1.0);
        for (Column &column : columns)
            if (column.type == ColumnType::Categorical)
                column.type = textColumnType(column, mOptions.categoricalLimit);
        return Table(mSource, mDelimiter, std::move(columns), std::move(rowLines), mDecimalComma);
    }

    // Called after each record of pass 0 (profiling) or 1 (storing): honours a cancel
    // and reports progress in visible steps, so a million rows make a hundred calls.
    void noteRecord(const CsvReader &reader, int pass)
    {
        if (mControl && mControl->isCancelled())
            throw LoadCancelled();
        if (!mProgress.isWatched() || mTotalBytes == 0)
            return;
        const double withinPass =
            std::min(1.0, static_cast<double>(reader.bytesConsumed()) / static_cast<double>(mTotalBytes));
        mProgress.advance((pass + withinPass) / 2.0);
    }

    void reserveStorage(Column &column, const ColumnProfile &profile) const
    {
        switch (column.type) {
        case ColumnType::Numeric: column.numbers.reserve(mRowCount); break;
        case ColumnType::Categorical:
        case ColumnType::Identifier: column.codes.reserve(mRowCount); break;
        case ColumnType::Sequence:
            // Each layer "(type, n1, …, nk)" holds k commas and is followed by at most one more.
            column.sequences.reserve(mRowCount, profile.openParentheses, profile.commas);
            break;
        case ColumnType::Empty: break;
        }
    }

    void noteBadCell(Column &column, std::int64_t line, std::string reason)
    {
        if (!column.firstBadCell)
            column.firstBadCell = BadCell{line, std::move(reason)};
    }

    void storeCell(Column &column, std::unordered_map<std::string, std::int32_t> &codes, const std::string &cell,
                   std::int64_t line)
    {
        double number = 0.0;
        const CellKind kind = classifyCell(cell, number, mDecimalComma, mScratch);
        if (kind == CellKind::Missing) {
            ++column.missingCount;
            noteBadCell(column, line, "missing value in " + columnLabel(column.name));
        }
        switch (column.type) {
        case ColumnType::Numeric:
            if (kind == CellKind::NonFinite) {
                ++column.invalidCount;
                noteBadCell(column, line,
                            io::quoteForMessage(cell) + " is not a finite number (" + columnLabel(column.name) + ")");
            } else if (kind == CellKind::Text) {
                ++column.invalidCount;
                noteBadCell(column, line,
                            io::quoteForMessage(cell) + " is not a number (" + columnLabel(column.name) +
                                " is numeric except for " + std::to_string(column.nonNumericCount) +
                                (column.nonNumericCount == 1 ? " cell)" : " cells)"));
            }
            column.numbers.push_back(kind == CellKind::Number ? number : std::numeric_limits<double>::quiet_NaN());
            break;
        case ColumnType::Categorical:
        case ColumnType::Identifier:
            if (kind == CellKind::Missing) {
                column.codes.push_back(-1);
            } else {
                const auto [it, inserted] =
                    codes.try_emplace(cell, static_cast<std::int32_t>(column.categories.size()));
                if (inserted)
                    column.categories.push_back(cell);
                column.codes.push_back(it->second);
            }
            break;
        case ColumnType::Sequence:
            if (kind == CellKind::Missing)
                column.sequences.appendAbsentRow();
            else
                storeSequence(column, cell, line);
            break;
        case ColumnType::Empty: break;
        }
    }

    void storeSequence(Column &column, const std::string &cell, std::int64_t line)
    {
        try {
            parseLayerSequence(cell, mLayers);
            if (const int field = overflowingField(mLayers)) {
                noteBadCell(column, line,
                            "the layer values in " + columnLabel(column.name) + " (number " + std::to_string(field) +
                                " of each layer) add up beyond the largest number");
                ++column.invalidCount;
                column.sequences.appendAbsentRow();
                return;
            }
            column.sequences.appendRow(mLayers);
            return;
        } catch (const LayerSequenceError &error) {
            noteBadCell(column, line,
                        "malformed layer sequence in " + columnLabel(column.name) + " at character " +
                            std::to_string(error.offset() + 1) + ": " + error.what());
        } catch (const std::invalid_argument &error) {
            noteBadCell(column, line,
                        "inconsistent layer sequence in " + columnLabel(column.name) + ": " + error.what());
        }
        ++column.invalidCount;
        column.sequences.appendAbsentRow();
    }

    // The 1-based field whose sum over the layers is not finite, or 0. The feature
    // encoder sums each field the same way, so a sequence accepted here encodes finitely.
    int overflowingField(const std::vector<LayerTuple> &layers)
    {
        mSums.clear();
        for (const LayerTuple &layer : layers) {
            if (mSums.size() < layer.fields.size())
                mSums.resize(layer.fields.size(), 0.0);
            for (std::size_t field = 0; field < layer.fields.size(); ++field)
                mSums[field] += layer.fields[field];
        }
        for (std::size_t field = 0; field < mSums.size(); ++field)
            if (!std::isfinite(mSums[field]))
                return static_cast<int>(field + 1);
        return 0;
    }

    StreamOpener mOpen;
    std::string mSource;
    TableLoadOptions mOptions;
    runtime::ProgressThrottle mProgress;
    const runtime::OperationControl *mControl;
    std::uint64_t mTotalBytes; // of one pass; 0 when unknown
    char mDelimiter = ',';
    bool mCommaPossible = false;
    bool mDecimalComma = false;
    std::int64_t mPointDecimalCells = 0;
    std::int64_t mCommaDecimalCells = 0;
    std::string mScratch;      // rewritten digits of a decimal-comma cell
    std::vector<double> mSums; // per-field sums of one layer sequence
    std::vector<std::string> mHeader;
    std::size_t mRowCount = 0;
    std::vector<LayerTuple> mLayers; // reused across cells to avoid reallocations
};

// The bytes of CSV text one pass reads, for progress: the file's size, or for a
// gzip file the size its trailer declares; 0 when unknown.
std::uint64_t textBytes(const std::string &path)
{
    // Only a regular file is opened here: opening a pipe would wait for a writer.
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return 0;
    std::ifstream file(path, std::ios::binary);
    if (file && io::startsWithGzip(file))
        return io::gzipDeclaredSize(path).value_or(0);
    const std::uintmax_t size = std::filesystem::file_size(path, error);
    return error ? 0 : static_cast<std::uint64_t>(size);
}

} // namespace

Table loadTable(const std::string &path, const TableLoadOptions &options, runtime::ProgressObserver *observer,
                const runtime::OperationControl *control)
{
    auto open = [path]() -> std::unique_ptr<std::istream> {
        // The file is read twice and must not be endless: a device such as /dev/zero
        // or a pipe is refused before a byte is read, on each pass.
        std::error_code error;
        const auto status = std::filesystem::status(path, error);
        if (!error && std::filesystem::is_directory(status))
            throw io::InputError(path, 0, 0, "is a folder, not a CSV file");
        if (!error && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
            throw io::InputError(path, 0, 0, "is not a regular file (a device, pipe or socket), not a CSV file");
        auto file = std::make_unique<std::ifstream>(path, std::ios::binary);
        if (!*file)
            throw io::InputError(path, 0, 0, "cannot open the file for reading");
        if (io::startsWithGzip(*file))
            return std::make_unique<io::GzipInputStream>(std::move(file), path);
        return file;
    };
    return TwoPassLoader(open, path, options, observer, control, textBytes(path)).load();
}

Table loadTableFromText(const std::string &text, const std::string &sourceName, const TableLoadOptions &options)
{
    const bool gzip = io::isGzipMagic(text.data(), text.size());
    auto open = [&text, &sourceName, gzip]() -> std::unique_ptr<std::istream> {
        auto stream = std::make_unique<std::istringstream>(text);
        if (gzip)
            return std::make_unique<io::GzipInputStream>(std::move(stream), sourceName);
        return stream;
    };
    return TwoPassLoader(open, sourceName, options, nullptr, nullptr, gzip ? 0 : text.size()).load();
}

} // namespace gpumem::data
