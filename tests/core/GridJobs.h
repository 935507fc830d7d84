// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Jobs on a grid whose memory is a known linear function of two columns, for the tests of the
// experiment and of comparisons: any sensible regressor learns it, so what a test
// checks is the machinery around the fit.

#include "data/Dataset.h"
#include "data/TableLoader.h"

#include <string>
#include <vector>

namespace gpumem::tests {

// CSV text "a,b,y" of rows jobs, y = 3·a − 2·b + 100 with a = row mod aPeriod and
// b = row·bFactor mod 11. With noise, y gains noise(row, a) and is written as a real.
inline std::string gridJobsCsv(int rows, int aPeriod, int bFactor, double (*noise)(int row, int a) = nullptr)
{
    std::string text = "a,b,y\n";
    for (int row = 0; row < rows; ++row) {
        const int a = row % aPeriod;
        const int b = (row * bFactor) % 11;
        const int y = 3 * a - 2 * b + 100;
        text += std::to_string(a) + ',' + std::to_string(b) + ',' +
                (noise ? std::to_string(y + noise(row, a)) : std::to_string(y)) + '\n';
    }
    return text;
}

// The dataset of table with target as its target and every other column a feature by
// the usual rules; a bad cell fails the test.
inline data::Dataset datasetOf(const data::Table &table, const std::string &target)
{
    data::RoleRequest request;
    request.target = target;
    std::vector<std::string> warnings;
    return data::Dataset::fromTable(table, data::assignRoles(table, request), data::BadCellPolicy::Fail, warnings);
}

} // namespace gpumem::tests
