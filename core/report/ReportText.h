#pragma once

// Number and text formatting shared by the report writers (private to core/report).

#include "evaluation/Metrics.h"

#include <string>

namespace gpumem::report {

using evaluation::formatMetric;
using evaluation::formatSignificant;

// Returns a p-value for people: "0.0123", "< 0.0001".
std::string formatPValue(double pValue);

// Returns text as one CSV field (RFC 4180): quoted when it holds a comma, quote or line break.
std::string csvField(const std::string &text);

// Returns text safe inside a Markdown table cell (pipes and line breaks escaped).
std::string markdownCell(const std::string &text);

// Returns text with &, <, >, " escaped for HTML.
std::string htmlEscaped(const std::string &text);

} // namespace gpumem::report
