// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace gpumem::data {

// Streams records out of CSV text (RFC 4180): quoted fields with doubled quotes
// and embedded line breaks, LF or CRLF line ends, a UTF-8 byte-order mark, and
// a delimiter that is detected (comma, semicolon or tab) unless given.
// Blank lines are skipped. Memory stays bounded by the longest record, which
// maxFieldBytes and maxFieldsPerRecord cap. Malformed text, including bytes that
// are not well-formed UTF-8, throws io::InputError naming the source, line and field.
// Not thread-safe; one reader per stream.
class CsvReader
{
  public:
    // The longest field accepted; longer ones are reported as errors (typically an unterminated quote).
    static constexpr std::size_t maxFieldBytes = std::size_t(64) << 20;
    // The most fields one record may hold (the header included), so that a line of
    // nothing but delimiters cannot allocate gigabytes of empty strings.
    static constexpr std::size_t maxFieldsPerRecord = std::size_t(1) << 18;

    // Reads from in; sourceName names the input in error messages. A delimiter of 0
    // is detected from the first 64 KiB.
    CsvReader(std::istream &in, std::string sourceName, char delimiter = 0);

    // Reads the next record into fields (reusing their storage); returns false at end of input.
    bool readRecord(std::vector<std::string> &fields);

    // The 1-based line on which the most recently read record starts.
    std::int64_t recordLine() const { return mRecordLine; }
    // How many bytes of the input the records read so far have consumed.
    std::uint64_t bytesConsumed() const { return mBytesBeforeBuffer + mPosition; }

    char delimiter() const { return mDelimiter; }
    const std::string &sourceName() const { return mSourceName; }

  private:
    int peek();
    void advance();
    bool refill();
    void readQuotedField(std::string &field, std::int64_t fieldNumber);
    void readPlainField(std::string &field, std::int64_t fieldNumber);
    void rejectBinaryStart() const;
    void checkUtf8(const std::string &field, std::int64_t firstLine, std::int64_t fieldNumber) const;
    [[noreturn]] void fail(std::int64_t line, std::int64_t fieldNumber, const std::string &message) const;

    std::istream &mIn;
    std::string mSourceName;
    std::vector<char> mBuffer;
    std::size_t mPosition = 0;
    std::size_t mEnd = 0;
    std::uint64_t mBytesBeforeBuffer = 0; // input bytes of the buffers read before this one
    bool mInputExhausted = false;
    std::int64_t mLine = 1;
    std::int64_t mRecordLine = 0;
    char mDelimiter = ',';
};

// Returns the delimiter (',', ';' or '\t') that splits sample into the most
// fields consistently across its first lines; ',' when none does.
char detectDelimiter(const std::string &sample);

} // namespace gpumem::data
