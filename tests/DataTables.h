// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Qt Test data tables written one row a line:
//     addColumns<QString, int>("assignment", "expected");
//     addRow("integer", "epochs=20", 20);
// A string literal fills a QString column, as with QTest::newRow() << "text".
// Written out with QTest::newRow, two string literals in a row break across
// lines (the formatter's rule for stream chains); one call a row keeps a table
// readable as a table.

#include <QTest>

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

} // namespace gpumem::tests

// The test classes live in the global namespace, as Qt Test's own QFETCH and
// QCOMPARE do; every table calls these unqualified, without a using line a file.
using gpumem::tests::addColumns;
using gpumem::tests::addRow;
