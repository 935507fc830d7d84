// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/RowValuesJson.h"

#include <limits>

namespace gpumem::report {

io::Json rowValuesJson(const Eigen::VectorXd &values)
{
    io::Json array = io::Json::array();
    for (Eigen::Index row = 0; row < values.size(); ++row)
        array.push_back(values[row]); // NaN (never tested) is written as null
    return array;
}

Eigen::VectorXd readRowValues(const io::Json &array)
{
    const auto &items = io::toArray(array);
    Eigen::VectorXd values(static_cast<Eigen::Index>(items.size()));
    for (std::size_t row = 0; row < items.size(); ++row)
        values[static_cast<Eigen::Index>(row)] =
            items[row].is_null() ? std::numeric_limits<double>::quiet_NaN() : io::toNumber(items[row]);
    return values;
}

} // namespace gpumem::report
