// SPDX-License-Identifier: GPL-3.0-or-later
// Feeds arbitrary bytes through the whole table path: gzip inflation (input that
// starts with the gzip magic, as the gzip_members seed does), delimiter detection, the
// CSV reader and its UTF-8 check, type inference (decimal comma or point,
// mostly numeric columns), typed storage, roles, the bad-cell policy, the
// encoding limits, feature encoding and scaling. The first byte picks the
// options, so every mode is reached. Only io::InputError may come out; anything
// else (a crash, a sanitizer report, another exception, a non-finite feature or
// an encoding beyond its limits) is a bug.
#include "data/ColumnRoles.h"
#include "data/ColumnSummary.h"
#include "data/Dataset.h"
#include "data/EncodingLimits.h"
#include "data/FeatureEncoder.h"
#include "data/Standardizer.h"
#include "data/TableLoader.h"
#include "io/InputError.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

// Aborts, which the fuzzer reports with the input, when an invariant fails.
void require(bool condition)
{
    if (!condition)
        std::abort();
}

gpumem::data::TableLoadOptions optionsFrom(std::uint8_t choice)
{
    gpumem::data::TableLoadOptions options;
    options.categoricalLimit = 4; // small, so identifiers and categories both occur
    static constexpr char delimiters[] = {0, ',', ';', '\t'};
    options.delimiter = delimiters[choice & 3];
    if (choice & 4)
        options.decimalComma = (choice & 8) != 0;
    return options;
}

void encode(const gpumem::data::Table &table, const std::vector<gpumem::data::ColumnRole> &roles)
{
    std::vector<std::string> warnings;
    const auto dataset = gpumem::data::Dataset::fromTable(table, roles, gpumem::data::BadCellPolicy::DropRow, warnings);
    std::vector<Eigen::Index> rows;
    for (Eigen::Index row = 0; row < static_cast<Eigen::Index>(dataset.rowCount()); row += 2)
        rows.push_back(row);
    gpumem::data::FeatureEncoder encoder;
    encoder.fit(dataset, rows);
    require(encoder.featureNames().size() <= gpumem::data::maxEncodedFeatures);
    require(encoder.encoding().layerTypes.size() <= gpumem::data::maxLayerTypes + 1);
    const Eigen::MatrixXd encoded = encoder.transform(dataset);
    require(encoded.allFinite());
    // A restored encoder (as read back with a model) encodes identically.
    require(gpumem::data::FeatureEncoder(encoder.encoding()).transform(dataset) == encoded);
    if (encoded.cols() > 0) {
        gpumem::data::Standardizer scaler;
        scaler.fit(encoded, rows, true);
        require(scaler.transform(encoded).allFinite());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        const auto table = gpumem::data::loadTableFromText(text, "fuzz.csv", optionsFrom(data[0]));
        for (const auto &column : table.columns())
            gpumem::data::summarizeColumn(column, table.rowCount());
        table.nonNumericCellNotes();
        const auto candidates = gpumem::data::targetCandidates(table);
        encode(table, gpumem::data::defaultRoles(table));
        if (!candidates.empty()) {
            gpumem::data::RoleRequest request;
            request.target = candidates.front();
            encode(table, gpumem::data::assignRoles(table, request));
        }
    } catch (const gpumem::io::InputError &) {
        // Rejected with a message: the expected outcome for most random input.
    }
    return 0;
}
