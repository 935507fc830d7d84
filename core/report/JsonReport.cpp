// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison report as JSON: the schema other tools read (docs/comparison-report.md).
#include "report/ComparisonReport.h"

#include "io/InputError.h"
#include "io/JsonDocument.h"
#include "report/ExperimentJson.h"
#include "runtime/LibraryVersions.h"

#include <limits>

namespace gpumem::report {

void to_json(io::Json &json, const ComparisonContext &context)
{
    json = io::Json{{"dataset", context.dataset},
                    {"target", context.target},
                    {"rows", context.rows},
                    {"features", context.features},
                    {"folds", context.folds},
                    {"group_by", context.groupBy.empty() ? io::Json() : io::Json(context.groupBy)},
                    {"test_fraction", context.testFraction},
                    {"seed", context.seed}};
}

void from_json(const io::Json &json, ComparisonContext &context)
{
    context.dataset = io::toString(io::member(json, "dataset"));
    context.target = io::toString(io::member(json, "target"));
    context.rows = static_cast<std::size_t>(
        io::toWholeNumber(io::member(json, "rows"), 0, std::numeric_limits<std::int64_t>::max(), "\"rows\""));
    context.features = io::toStrings(io::member(json, "features"));
    context.folds =
        static_cast<int>(io::toWholeNumber(io::member(json, "folds"), 0, std::numeric_limits<int>::max(), "\"folds\""));
    const io::Json &groupBy = io::member(json, "group_by");
    context.groupBy = groupBy.is_null() ? std::string() : io::toString(groupBy);
    context.testFraction = io::toNumber(io::member(json, "test_fraction"));
    if (!(context.testFraction >= 0.0 && context.testFraction < 1.0))
        throw io::InputError("\"test_fraction\" must lie in [0, 1)");
    context.seed = io::toSeed(io::member(json, "seed"));
}

void writeJsonReport(std::ostream &out, const ComparisonContext &context, const evaluation::ExperimentResult &result)
{
    io::Json report = context;
    report.update(io::Json(result));
    report["library_versions"] = runtime::libraryVersions();
    io::writeJsonDocument(out, report);
    out << '\n';
}

} // namespace gpumem::report
