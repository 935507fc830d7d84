// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/CsvReader.h"

#include "io/InputError.h"
#include "io/Utf8.h"

#include <algorithm>
#include <array>

namespace gpumem::data {

namespace {

// Small enough that opening a reader is cheap, large enough that reads are few.
constexpr std::size_t bufferBytes = std::size_t(64) << 10;
constexpr std::size_t detectionSampleBytes = std::size_t(64) << 10;
constexpr int endOfInput = -1;

// Field counts of the first complete records of sample, split by delimiter with quotes respected.
std::vector<std::size_t> fieldCountsPerRecord(const std::string &sample, char delimiter, std::size_t maxRecords)
{
    std::vector<std::size_t> counts;
    std::size_t fields = 1;
    bool quoted = false;
    bool lineHasContent = false;
    for (std::size_t i = 0; i < sample.size() && counts.size() < maxRecords; ++i) {
        const char c = sample[i];
        if (c == '"') {
            quoted = !quoted;
        } else if (!quoted && c == delimiter) {
            ++fields;
        } else if (!quoted && (c == '\n' || c == '\r')) {
            if (lineHasContent)
                counts.push_back(fields);
            fields = 1;
            lineHasContent = false;
            continue;
        }
        lineHasContent = true;
    }
    // A record cut off by the end of the sample is left out: its count may be partial.
    return counts;
}

} // namespace

char detectDelimiter(const std::string &sample)
{
    static constexpr std::array<char, 3> candidates = {',', ';', '\t'};
    char best = ',';
    std::size_t bestFields = 1;
    bool bestConsistent = false;
    for (char candidate : candidates) {
        auto counts = fieldCountsPerRecord(sample, candidate, 50);
        if (counts.empty()) {
            // A single header line without a line end: judge it alone.
            counts = fieldCountsPerRecord(sample + "\n", candidate, 1);
            if (counts.empty())
                continue;
        }
        const std::size_t headerFields = counts.front();
        const bool consistent =
            std::all_of(counts.begin(), counts.end(), [headerFields](std::size_t n) { return n == headerFields; });
        // A delimiter that splits every line alike beats one that splits the header into more pieces.
        if (headerFields > 1 &&
            ((consistent && !bestConsistent) || (consistent == bestConsistent && headerFields > bestFields))) {
            best = candidate;
            bestFields = headerFields;
            bestConsistent = consistent;
        }
    }
    return best;
}

CsvReader::CsvReader(std::istream &in, std::string sourceName, char delimiter)
    : mIn(in)
    , mSourceName(std::move(sourceName))
    , mBuffer(bufferBytes)
{
    refill();
    static constexpr char byteOrderMark[] = "\xEF\xBB\xBF";
    if (mEnd >= 3 && std::equal(byteOrderMark, byteOrderMark + 3, mBuffer.begin()))
        mPosition = 3;
    if (delimiter != 0) {
        mDelimiter = delimiter;
    } else {
        const std::size_t sampleEnd = std::min(mEnd, mPosition + detectionSampleBytes);
        mDelimiter = detectDelimiter(std::string(mBuffer.data() + mPosition, mBuffer.data() + sampleEnd));
    }
    rejectBinaryStart();
}

void CsvReader::rejectBinaryStart() const
{
    // A NUL early in the file says "binary" more plainly than the invalid UTF-8
    // that usually comes before it (an image's signature, say).
    const char *begin = mBuffer.data() + mPosition;
    const char *end = mBuffer.data() + std::min(mEnd, mPosition + detectionSampleBytes);
    const char *nul = std::find(begin, end, '\0');
    if (nul == end)
        return;
    std::int64_t line = 1;
    std::int64_t field = 1;
    for (const char *c = begin; c != nul; ++c) {
        if (*c == '\n' || (*c == '\r' && c[1] != '\n')) {
            ++line;
            field = 1;
        } else if (*c == mDelimiter) {
            ++field;
        }
    }
    fail(line, field, "NUL byte in the text: this looks like a binary file, not CSV");
}

bool CsvReader::refill()
{
    if (mInputExhausted)
        return false;
    // Keep the unread tail; the buffer is only refilled once it is consumed, so the tail is empty.
    mBytesBeforeBuffer += mEnd;
    mIn.read(mBuffer.data(), static_cast<std::streamsize>(mBuffer.size()));
    mEnd = static_cast<std::size_t>(mIn.gcount());
    mPosition = 0;
    if (mEnd == 0)
        mInputExhausted = true;
    return mEnd > 0;
}

int CsvReader::peek()
{
    if (mPosition == mEnd && !refill())
        return endOfInput;
    return static_cast<unsigned char>(mBuffer[mPosition]);
}

void CsvReader::advance()
{
    ++mPosition;
}

void CsvReader::fail(std::int64_t line, std::int64_t fieldNumber, const std::string &message) const
{
    throw io::InputError(mSourceName, line, fieldNumber, message);
}

bool CsvReader::readRecord(std::vector<std::string> &fields)
{
    // Blank lines carry no record.
    for (;;) {
        const int c = peek();
        if (c == endOfInput)
            return false;
        if (c == '\n') {
            ++mLine;
            advance();
        } else if (c == '\r') {
            advance();
            if (peek() != '\n')
                ++mLine;
        } else {
            break;
        }
    }

    mRecordLine = mLine;
    std::size_t count = 0;
    for (;;) {
        if (count == maxFieldsPerRecord)
            fail(mLine, static_cast<std::int64_t>(count + 1),
                 "more than " + std::to_string(maxFieldsPerRecord) + " fields in one record");
        if (count == fields.size())
            fields.emplace_back();
        std::string &field = fields[count];
        field.clear();
        ++count;
        const auto fieldNumber = static_cast<std::int64_t>(count);
        const std::int64_t fieldLine = mLine;
        if (peek() == '"') {
            advance();
            readQuotedField(field, fieldNumber);
        } else {
            readPlainField(field, fieldNumber);
        }
        checkUtf8(field, fieldLine, fieldNumber);
        const int c = peek();
        if (c == mDelimiter) {
            advance();
            continue;
        }
        if (c == '\r') {
            advance();
            if (peek() == '\n')
                advance();
            ++mLine;
        } else if (c == '\n') {
            advance();
            ++mLine;
        }
        break;
    }
    fields.resize(count);
    return true;
}

void CsvReader::checkUtf8(const std::string &field, std::int64_t firstLine, std::int64_t fieldNumber) const
{
    // Text that is not UTF-8 would be stored as replacement characters somewhere
    // downstream, so a category could differ between training and prediction.
    const std::size_t offset = io::firstInvalidUtf8Byte(field);
    if (offset == std::string::npos)
        return;
    std::int64_t line = firstLine;
    for (std::size_t i = 0; i < offset; ++i)
        if (field[i] == '\n' || (field[i] == '\r' && field[i + 1] != '\n'))
            ++line;
    static constexpr char hexDigits[] = "0123456789ABCDEF";
    const auto byte = static_cast<unsigned char>(field[offset]);
    const std::string hex = {'0', 'x', hexDigits[byte >> 4], hexDigits[byte & 0xF]};
    fail(line, fieldNumber,
         "invalid UTF-8 (byte " + hex + " at byte " + std::to_string(offset + 1) +
             " of the field); save the file as UTF-8");
}

void CsvReader::readPlainField(std::string &field, std::int64_t fieldNumber)
{
    for (;;) {
        if (mPosition == mEnd && !refill())
            return;
        // Scan the buffered run up to the next special character in one go.
        const char *begin = mBuffer.data() + mPosition;
        const char *end = mBuffer.data() + mEnd;
        const char *stop = begin;
        while (stop != end && *stop != mDelimiter && *stop != '\n' && *stop != '\r' && *stop != '\0')
            ++stop;
        field.append(begin, stop);
        mPosition += static_cast<std::size_t>(stop - begin);
        if (field.size() > maxFieldBytes)
            fail(mLine, fieldNumber, "field longer than 64 MiB");
        if (stop != end) {
            if (*stop == '\0')
                fail(mLine, fieldNumber, "NUL byte in the text: this looks like a binary file, not CSV");
            return;
        }
    }
}

void CsvReader::readQuotedField(std::string &field, std::int64_t fieldNumber)
{
    const std::int64_t openingLine = mLine;
    for (;;) {
        const int c = peek();
        if (c == endOfInput)
            fail(openingLine, fieldNumber, "unterminated quoted field (the quote opened here is never closed)");
        // Copy the buffered run of ordinary characters in one go; only quotes,
        // line ends and NUL need a closer look.
        const char *begin = mBuffer.data() + mPosition;
        const char *end = mBuffer.data() + mEnd;
        const char *stop = begin;
        while (stop != end && *stop != '"' && *stop != '\n' && *stop != '\r' && *stop != '\0')
            ++stop;
        if (stop != begin) {
            field.append(begin, stop);
            mPosition += static_cast<std::size_t>(stop - begin);
            if (field.size() > maxFieldBytes)
                fail(openingLine, fieldNumber, "quoted field longer than 64 MiB (unterminated quote?)");
            continue;
        }
        advance();
        if (c == '"') {
            if (peek() == '"') {
                advance();
                field += '"';
                continue;
            }
            const int next = peek();
            if (next != mDelimiter && next != '\n' && next != '\r' && next != endOfInput)
                fail(mLine, fieldNumber, "unexpected text after the closing quote of a field");
            return;
        }
        if (c == '\0')
            fail(mLine, fieldNumber, "NUL byte in the text: this looks like a binary file, not CSV");
        if (c == '\n' || (c == '\r' && peek() != '\n'))
            ++mLine;
        field += static_cast<char>(c);
    }
}

} // namespace gpumem::data
