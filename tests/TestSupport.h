// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small helpers shared by the Qt Test executables.

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

namespace gpumem::tests {

// The bytes of a string literal, embedded NULs included, without its terminator.
template <std::size_t size> QByteArray literalBytes(const char (&text)[size])
{
    return QByteArray(text, size - 1);
}

// The path of the fixture file name in tests/data.
inline std::string dataFile(const char *name)
{
    return std::string(GPUMEM_TEST_DATA_DIR "/") + name;
}

// The first count lines of the text file at path (fewer when it has fewer), without their ends.
inline std::vector<std::string> firstLines(const std::string &path, int count)
{
    std::ifstream file(path);
    std::vector<std::string> lines;
    std::string line;
    while (static_cast<int>(lines.size()) < count && std::getline(file, line))
        lines.push_back(line);
    return lines;
}

// Writes bytes to path, replacing what it held; false when the file cannot be written whole.
inline bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

// What path holds, or an empty array when it cannot be read.
inline QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The same for text held in a std::string.
inline bool writeText(const QString &path, const std::string &text)
{
    return writeFile(path, QByteArray::fromStdString(text));
}

// What path holds as a std::string, or an empty one when it cannot be read.
inline std::string readText(const QString &path)
{
    return fileBytes(path).toStdString();
}

// Whether text holds part anywhere.
inline bool contains(const std::string &text, const std::string &part)
{
    return text.find(part) != std::string::npos;
}

} // namespace gpumem::tests

// The test classes live in the global namespace, as Qt Test's own macros do (see
// DataTables.h): every test calls these unqualified, without a using line a file.
using gpumem::tests::contains, gpumem::tests::dataFile, gpumem::tests::fileBytes, gpumem::tests::readText,
    gpumem::tests::writeFile, gpumem::tests::writeText;
