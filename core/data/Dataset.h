// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/ColumnRoles.h"
#include "data/Table.h"

#include <Eigen/Core>

#include <string>
#include <string_view>
#include <vector>

namespace gpumem::data {

// What to do with a row whose used columns hold a missing or invalid cell.
enum class BadCellPolicy
{
    Fail,    // stop with an error naming the first bad cell (the default: nothing is silent)
    DropRow, // leave the row out and report how many were left out
};

std::string_view badCellPolicyName(BadCellPolicy policy);
// Parses "fail" or "drop"; throws io::InputError otherwise.
BadCellPolicy parseBadCellPolicy(std::string_view name);

// Returns the rows of table, in file order, whose used columns (every role but
// Ignored) hold no missing or invalid cell. Under BadCellPolicy::Fail a bad cell
// throws io::InputError naming it; under DropRow a warning saying how many rows
// were left out is appended to warnings. Throws when no row is usable.
std::vector<std::size_t> selectUsableRows(const Table &table, const std::vector<ColumnRole> &roles,
                                          BadCellPolicy policy, std::vector<std::string> &warnings);

// A categorical input column: its distinct values and one code per dataset row.
struct CategoricalFeature
{
    std::string name;
    std::vector<std::string> categories;
    std::vector<std::int32_t> codes;
};

// An ignored column whose every row holds the same value (data::holdsOneValue):
// no model learns from it, but it still says what the jobs were, e.g. the
// `family` of a probe dataset that the analytic models rebuild jobs from.
struct ConstantColumn
{
    std::string name;
    ColumnType type = ColumnType::Numeric; // Numeric or Categorical
    std::string text;                      // the value as the file spells it (categorical) or writes it (numeric)
    double number = 0.0;                   // numeric columns: the value
};

// The rows and columns of a table that models learn from: the target, numeric
// features, categorical features and an optional layer sequence, with every used
// cell valid. Encoders that learn from data (one-hot, scaling) are not applied
// here: they are fitted on training rows only (FeatureEncoder, Standardizer).
class Dataset
{
  public:
    // Selects the columns by role and the rows that selectUsableRows() keeps.
    static Dataset fromTable(const Table &table, const std::vector<ColumnRole> &roles, BadCellPolicy policy,
                             std::vector<std::string> &warnings);
    // Selects the columns by role and the given rows, which must hold no bad cell in used columns.
    // Both overloads throw io::InputError when the columns would encode into more than
    // maxEncodedFeatures features (checkEncodingLimits), before anything large is built.
    static Dataset fromTable(const Table &table, const std::vector<ColumnRole> &roles,
                             const std::vector<std::size_t> &rows);

    // The file the rows come from, for messages.
    const std::string &source() const { return mSource; }
    // Notes on how the data will be encoded, e.g. that rare layer types share one count.
    const std::vector<std::string> &warnings() const { return mWarnings; }
    std::size_t rowCount() const { return mRowLines.size(); }
    // The 1-based file line of each row, for messages that point back at the file.
    const std::vector<std::int64_t> &rowLines() const { return mRowLines; }
    std::size_t droppedRowCount() const { return mDroppedRowCount; }

    bool hasTarget() const { return !mTargetName.empty(); }
    const std::string &targetName() const { return mTargetName; }
    const Eigen::VectorXd &target() const { return mTarget; }

    const std::vector<std::string> &numericFeatureNames() const { return mNumericFeatureNames; }
    // rows × numeric features
    const Eigen::MatrixXd &numericFeatures() const { return mNumericFeatures; }
    const std::vector<CategoricalFeature> &categoricalFeatures() const { return mCategoricalFeatures; }

    bool hasSequence() const { return !mSequenceName.empty(); }
    const std::string &sequenceName() const { return mSequenceName; }
    // The 0-based position of the sequence column in the file.
    std::size_t sequenceColumnIndex() const { return mSequenceColumnIndex; }
    const SequenceColumn &sequence() const { return mSequence; }

    // The ignored columns that hold one value in every row, in file order.
    const std::vector<ConstantColumn> &constantColumns() const { return mConstantColumns; }

  private:
    std::string mSource;
    std::vector<std::string> mWarnings;
    std::vector<std::int64_t> mRowLines;
    std::size_t mDroppedRowCount = 0;
    std::string mTargetName;
    Eigen::VectorXd mTarget;
    std::vector<std::string> mNumericFeatureNames;
    Eigen::MatrixXd mNumericFeatures;
    std::vector<CategoricalFeature> mCategoricalFeatures;
    std::string mSequenceName;
    std::size_t mSequenceColumnIndex = 0;
    SequenceColumn mSequence;
    std::vector<ConstantColumn> mConstantColumns;
};

} // namespace gpumem::data
