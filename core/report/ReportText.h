// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Number and text formatting shared by the report writers (private to core/report).

#include "evaluation/Experiment.h"
#include "evaluation/Metrics.h"
#include "io/NumberText.h"

#include <string>
#include <vector>

namespace gpumem::report {

using evaluation::formatMetric;
using evaluation::formatSignificant;

// Returns a p-value for people: "0.0123", "< 0.0001".
std::string formatPValue(double pValue);

// Returns a significance test's name for people, from PairedTest::test, e.g.
// "paired t-test" for "paired_t".
std::string testTitle(const std::string &test);

using io::csvField;

// Returns text safe inside a Markdown table cell (pipes and line breaks escaped).
std::string markdownCell(const std::string &text);

// Returns text with &, <, >, " escaped for HTML.
std::string htmlEscaped(const std::string &text);

// Returns a share in [0, 1] as a percentage for people: "4.8%" (NaN gives "–").
std::string formatShare(double share);

// Returns the title of the bound's section: "Calibrated upper bound (coverage 95%)".
std::string boundTitle(double coverage);

// The columns of the bound's table, the same in Markdown and HTML: the model's
// calibrated bound, the "+10%" rule and the best fixed headroom, means over folds.
struct BoundColumn
{
    const char *title;
    std::string (*cell)(const evaluation::ModelBound &bound);
};
const std::vector<BoundColumn> &boundColumns();

// One sentence under the bound's table saying how it was calibrated and what the references are.
std::string describeBound(const calibration::CalibrationSettings &settings, bool folds);

} // namespace gpumem::report
