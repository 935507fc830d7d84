#include "report/ReportText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpumem::report {

std::string formatSignificant(double value, int digits)
{
    if (std::isnan(value))
        return "n/a";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    if (value == 0.0)
        return "0";
    const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(value))));
    const int decimals = std::max(0, digits - 1 - magnitude);
    char text[64];
    if (magnitude >= 12 || magnitude < -6)
        std::snprintf(text, sizeof text, "%.*g", digits, value);
    else
        std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string formatMetric(const std::string &key, double value)
{
    if (std::isnan(value))
        return "n/a";
    char text[64];
    if (key == "r2") {
        std::snprintf(text, sizeof text, "%.5f", value);
        return text;
    }
    if (key == "under_rate") {
        std::snprintf(text, sizeof text, "%.1f%%", 100.0 * value);
        return text;
    }
    if (key == "mape") {
        std::snprintf(text, sizeof text, "%.2f%%", value);
        return text;
    }
    return formatSignificant(value, 4);
}

std::string formatPValue(double pValue)
{
    if (std::isnan(pValue))
        return "n/a";
    if (pValue < 0.0001)
        return "< 0.0001";
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", pValue);
    return text;
}

std::string csvField(const std::string &text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

std::string markdownCell(const std::string &text)
{
    std::string cell;
    for (char c : text) {
        if (c == '|')
            cell += "\\|";
        else if (c == '\n' || c == '\r')
            cell += ' ';
        else
            cell += c;
    }
    return cell;
}

std::string htmlEscaped(const std::string &text)
{
    std::string escaped;
    for (char c : text) {
        switch (c) {
        case '&': escaped += "&amp;"; break;
        case '<': escaped += "&lt;"; break;
        case '>': escaped += "&gt;"; break;
        case '"': escaped += "&quot;"; break;
        default: escaped += c;
        }
    }
    return escaped;
}

} // namespace gpumem::report
