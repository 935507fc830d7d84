// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison report as JSON: the schema other tools read (docs/comparison-report.md).
#include "report/ComparisonReport.h"

#include "io/JsonWriter.h"
#include "report/ExperimentJson.h"
#include "runtime/LibraryVersions.h"

namespace gpumem::report {

void writeJsonReport(std::ostream &out, const ComparisonContext &context, const evaluation::ExperimentResult &result)
{
    io::JsonWriter json(out);
    json.beginObject();
    json.key("dataset").value(context.dataset);
    json.key("target").value(context.target);
    json.key("rows").value(context.rows);
    json.key("features").value(context.features);
    json.key("folds").value(context.folds);
    json.key("test_fraction").value(context.testFraction);
    json.key("seed").value(static_cast<std::int64_t>(context.seed));
    writeExperimentMembers(json, result, false);
    runtime::writeLibraryVersions(json);
    json.endObject();
    out << '\n';
}

} // namespace gpumem::report
