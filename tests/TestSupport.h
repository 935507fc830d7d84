// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small helpers shared by the Qt Test executables.

#include <QByteArray>

#include <cstddef>

namespace gpumem::tests {

// The bytes of a string literal, embedded NULs included, without its terminator.
template <std::size_t size> QByteArray literalBytes(const char (&text)[size])
{
    return QByteArray(text, size - 1);
}

} // namespace gpumem::tests
