// SPDX-License-Identifier: GPL-3.0-or-later
#include "data/Dataset.h"

#include "data/EncodingLimits.h"
#include "io/InputError.h"
#include "io/NamedValues.h"
#include "io/NumberText.h"

namespace gpumem::data {

namespace {

constexpr io::NamedValues<BadCellPolicy, 2> kBadCellPolicies{
    {{"fail", BadCellPolicy::Fail}, {"drop", BadCellPolicy::DropRow}}};

} // namespace

std::string_view badCellPolicyName(BadCellPolicy policy)
{
    return io::nameOf(kBadCellPolicies, policy);
}

BadCellPolicy parseBadCellPolicy(std::string_view name)
{
    return io::parseNamedOr(kBadCellPolicies, name, [](const std::string &quoted) {
        return io::parameter("on_bad_cell") + " takes 'fail' or 'drop', not " + quoted;
    });
}

namespace {

// The bad cell that comes first in the file among the used columns.
const Column *columnWithFirstBadCell(const std::vector<const Column *> &used)
{
    const Column *first = nullptr;
    for (const Column *column : used)
        if (column->firstBadCell && (!first || column->firstBadCell->line < first->firstBadCell->line))
            first = column;
    return first;
}

ConstantColumn constantColumn(const Column &column)
{
    ConstantColumn constant{column.name, column.type, {}, 0.0};
    if (column.type == ColumnType::Categorical) {
        constant.text = column.categories.front();
    } else {
        constant.number = column.numbers.front();
        constant.text = io::csvNumber(constant.number);
    }
    return constant;
}

} // namespace

std::vector<std::size_t> selectUsableRows(const Table &table, const std::vector<ColumnRole> &roles,
                                          BadCellPolicy policy, std::vector<std::string> &warnings)
{
    std::vector<const Column *> used;
    for (std::size_t i = 0; i < table.columnCount(); ++i)
        if (roles.at(i) != ColumnRole::Ignored)
            used.push_back(&table.column(i));

    const Column *firstBad = columnWithFirstBadCell(used);
    if (firstBad && policy == BadCellPolicy::Fail)
        throw io::InputError(
            table.source(), firstBad->firstBadCell->line, static_cast<std::int64_t>(firstBad->index + 1),
            firstBad->firstBadCell->reason + " (use " + io::parameter("on_bad_cell") + " drop to leave such rows out)");

    std::vector<std::size_t> kept;
    kept.reserve(table.rowCount());
    for (std::size_t row = 0; row < table.rowCount(); ++row) {
        bool bad = false;
        for (const Column *column : used)
            bad = bad || column->isBad(row);
        if (!bad)
            kept.push_back(row);
    }
    if (kept.empty())
        throw io::InputError(table.source(), firstBad ? firstBad->firstBadCell->line : 0, 0,
                             "no row is left after dropping rows with missing or invalid cells");
    if (firstBad)
        warnings.push_back("left out " + std::to_string(table.rowCount() - kept.size()) + " of " +
                           std::to_string(table.rowCount()) + " rows with missing or invalid cells; first: " +
                           io::locatedMessage(table.source(), firstBad->firstBadCell->line,
                                              static_cast<std::int64_t>(firstBad->index + 1),
                                              firstBad->firstBadCell->reason));
    return kept;
}

Dataset Dataset::fromTable(const Table &table, const std::vector<ColumnRole> &roles, BadCellPolicy policy,
                           std::vector<std::string> &warnings)
{
    Dataset dataset = fromTable(table, roles, selectUsableRows(table, roles, policy, warnings));
    warnings.insert(warnings.end(), dataset.mWarnings.begin(), dataset.mWarnings.end());
    return dataset;
}

Dataset Dataset::fromTable(const Table &table, const std::vector<ColumnRole> &roles,
                           const std::vector<std::size_t> &kept)
{
    Dataset dataset;
    dataset.mWarnings = checkEncodingLimits(table, roles, kept);
    dataset.mSource = table.source();
    dataset.mDroppedRowCount = table.rowCount() - kept.size();
    const auto rows = static_cast<Eigen::Index>(kept.size());
    for (std::size_t i = 0; i < kept.size(); ++i)
        dataset.mRowLines.push_back(table.rowLine(kept[i]));

    std::vector<const Column *> numericColumns;
    for (std::size_t i = 0; i < table.columnCount(); ++i) {
        const Column &column = table.column(i);
        switch (roles[i]) {
        case ColumnRole::Target:
            dataset.mTargetName = column.name;
            dataset.mTarget.resize(rows);
            for (Eigen::Index r = 0; r < rows; ++r)
                dataset.mTarget[r] = column.numbers[kept[static_cast<std::size_t>(r)]];
            break;
        case ColumnRole::Sequence:
            dataset.mSequenceName = column.name;
            dataset.mSequenceColumnIndex = i;
            dataset.mSequence = column.sequences.selectRows(kept);
            break;
        case ColumnRole::Feature:
            if (column.type == ColumnType::Numeric) {
                numericColumns.push_back(&column);
            } else {
                CategoricalFeature feature{column.name, column.categories, {}};
                feature.codes.reserve(kept.size());
                for (std::size_t row : kept)
                    feature.codes.push_back(column.codes[row]);
                dataset.mCategoricalFeatures.push_back(std::move(feature));
            }
            break;
        case ColumnRole::Ignored:
            if (holdsOneValue(column))
                dataset.mConstantColumns.push_back(constantColumn(column));
            break;
        }
    }

    dataset.mNumericFeatures.resize(rows, static_cast<Eigen::Index>(numericColumns.size()));
    for (std::size_t c = 0; c < numericColumns.size(); ++c) {
        dataset.mNumericFeatureNames.push_back(numericColumns[c]->name);
        for (Eigen::Index r = 0; r < rows; ++r)
            dataset.mNumericFeatures(r, static_cast<Eigen::Index>(c)) =
                numericColumns[c]->numbers[kept[static_cast<std::size_t>(r)]];
    }
    return dataset;
}

} // namespace gpumem::data
