#pragma once

// Number and text formatting shared by the report writers (private to core/report).

#include <string>

namespace gpumem::report {

// Returns value with a precision that suits the metric: 4 significant digits for
// errors (e.g. "18.95", "359.1"), 5 decimals for R², a percentage for rates
// (e.g. "47.2%"). NaN gives "n/a".
std::string formatMetric(const std::string &key, double value);

// Returns value rounded to digits significant digits, without exponent for
// everyday magnitudes (e.g. 0.0123, 1234).
std::string formatSignificant(double value, int digits);

// Returns a p-value for people: "0.0123", "< 0.0001".
std::string formatPValue(double pValue);

// Returns text as one CSV field (RFC 4180): quoted when it holds a comma, quote or line break.
std::string csvField(const std::string &text);

// Returns text safe inside a Markdown table cell (pipes and line breaks escaped).
std::string markdownCell(const std::string &text);

// Returns text with &, <, >, " escaped for HTML.
std::string htmlEscaped(const std::string &text);

} // namespace gpumem::report
