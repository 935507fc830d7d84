// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison report as JSON: the schema other tools read (docs/comparison-report.md).
#include "report/ComparisonReport.h"

#include "io/JsonDocument.h"
#include "report/ExperimentJson.h"
#include "runtime/LibraryVersions.h"

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

void writeJsonReport(std::ostream &out, const ComparisonContext &context, const evaluation::ExperimentResult &result)
{
    io::Json report = context;
    report.update(io::Json(result));
    report["library_versions"] = runtime::libraryVersions();
    io::writeJsonDocument(out, report);
    out << '\n';
}

} // namespace gpumem::report
