// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Dataset.h"
#include "data/Table.h"

#include <Eigen/Core>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace gpumem::evaluation {

// One input of the models as the file names it: a feature column or the layer
// sequence. A categorical column is one input however many one-hot columns it
// encodes into, and the sequence is one input however many counts it gives.
struct ModelInput
{
    std::string name;
    std::size_t column = 0; // 0-based column of the table
    data::ColumnType type = data::ColumnType::Numeric;
};

// Rebuilds rows of a comparison's dataset with one input changed, from the table
// the dataset was built from: every model then sees the change through its own
// encoding (one-hot groups, layer counts, the batch × activations product), as
// it would see a job written that way in the file. Keeps references to table,
// roles and usableRows, which must outlive it. Thread-safe: every member is const.
class InputEditor
{
  public:
    // usableRows: the table row of each dataset row (data::selectUsableRows).
    InputEditor(const data::Table &table, const std::vector<data::ColumnRole> &roles,
                const std::vector<std::size_t> &usableRows);

    // The feature and sequence columns, in file order.
    const std::vector<ModelInput> &inputs() const { return mInputs; }
    // The inputs whose values are numbers: the ones a value can be set to.
    std::vector<std::size_t> numericInputs() const;
    std::size_t rowCount() const { return mUsableRows.size(); }

    // Returns the dataset rows `rows` (0-based, repeats allowed) as a dataset of their own, in that order.
    data::Dataset rows(const std::vector<Eigen::Index> &rows) const;
    // Returns the same rows with input's cell of row i taken from dataset row donors[i]:
    // donors a permutation of rows shuffles the input among them and leaves every other column alone.
    data::Dataset withInputFrom(const std::vector<Eigen::Index> &rows, std::size_t input,
                                const std::vector<Eigen::Index> &donors) const;
    // Returns the same rows with numeric input set to values[i] in row i.
    data::Dataset withNumbers(const std::vector<Eigen::Index> &rows, std::size_t input,
                              const std::vector<double> &values) const;
    // The smallest and largest value of numeric input over every dataset row.
    std::pair<double, double> range(std::size_t input) const;

  private:
    std::vector<std::size_t> tableRows(const std::vector<Eigen::Index> &rows) const;
    std::vector<data::Column> selectedColumns(const std::vector<std::size_t> &tableRows) const;
    data::Dataset build(std::vector<data::Column> columns, const std::vector<std::size_t> &tableRows) const;

    const data::Table &mTable;
    const std::vector<data::ColumnRole> &mRoles;
    const std::vector<std::size_t> &mUsableRows;
    std::vector<ModelInput> mInputs;
};

} // namespace gpumem::evaluation
