// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Qt Test data tables written one row a line, and read back in one line:
//     addColumns<QString, int>("assignment", "expected");
//     addRow("integer", "epochs=20", 20);
//     const auto [assignment, expected] = fetchColumns<QString, int>("assignment", "expected");
// A string literal fills a QString column, as with QTest::newRow() << "text".
// Written out with QTest::newRow, two string literals in a row break across
// lines (the formatter's rule for stream chains); one call a row keeps a table
// readable as a table.

#include <QTest>

#include <tuple>

namespace gpumem::tests {

// Declares the current _data function's columns, one type per name, in order.
template <typename... Types, typename... Names> void addColumns(const Names &...names)
{
    static_assert(sizeof...(Types) == sizeof...(Names), "one column name per type");
    (QTest::addColumn<Types>(names), ...);
}

// Adds the row called name with one value per column, in column order.
template <typename... Values> void addRow(const char *name, const Values &...values)
{
    (QTest::newRow(name) << ... << values);
}

// The current row's values of the named columns, in order: what QFETCH reads, one
// column a line, read at once. Before C++20 a lambda cannot capture a structured
// binding; copy a value that a lambda needs into a variable of its own.
template <typename... Types, typename... Names> std::tuple<Types...> fetchColumns(const Names &...names)
{
    static_assert(sizeof...(Types) == sizeof...(Names), "one column name per type");
    return std::tuple<Types...>(*static_cast<Types *>(QTest::qData(names, qMetaTypeId<Types>()))...);
}

} // namespace gpumem::tests

// The test classes live in the global namespace, as Qt Test's own QFETCH and
// QCOMPARE do; every table calls these unqualified, without a using line a file.
using gpumem::tests::addColumns;
using gpumem::tests::addRow;
using gpumem::tests::fetchColumns;
