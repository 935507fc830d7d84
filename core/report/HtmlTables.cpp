// SPDX-License-Identifier: GPL-3.0-or-later
#include "report/HtmlTables.h"

#include "evaluation/Ranking.h"
#include "report/ReportText.h"
#include "report/WorstRows.h"
#include "runtime/LibraryVersions.h"

namespace gpumem::report {

void writeTableHead(std::ostream &out, const std::vector<std::string> &titles, bool printable,
                    const std::vector<int> &shares)
{
    constexpr int firstShare = 16;
    out << "<table><thead><tr>";
    for (std::size_t column = 0; column < titles.size(); ++column) {
        out << "<th";
        if (printable && column < shares.size())
            out << " width='" << shares[column] << "%'";
        else if (printable && titles.size() > 2) {
            const int share = column == 0 ? firstShare : (100 - firstShare) / static_cast<int>(titles.size() - 1);
            out << " width='" << share << "%'";
        }
        out << '>' << htmlEscaped(titles[column]) << "</th>";
    }
    out << "</tr></thead>\n";
}

void writeMetricsTable(std::ostream &out, const evaluation::ExperimentResult &result, evaluation::MetricGroup group,
                       bool printable)
{
    const bool folds = result.splits.size() > 1;
    const bool accuracy = group == evaluation::MetricGroup::Accuracy;
    std::vector<std::string> titles{"Model"};
    for (const auto &metric : evaluation::metricDescriptions())
        if (metric.group == group)
            titles.push_back(std::string(metric.title) +
                             (std::string(metric.unit).empty() ? "" : " (" + std::string(metric.unit) + ")"));
    if (accuracy) {
        titles.emplace_back("Train (s)");
        titles.emplace_back("p against best");
    }
    writeTableHead(out, titles, printable);
    for (const auto &model : result.models) {
        out << "<tr><td>" << htmlEscaped(model.title) << "</td>";
        for (const auto &metric : evaluation::metricDescriptions()) {
            if (metric.group != group)
                continue;
            out << "<td class='number" << (evaluation::isBestModel(result, model, metric) ? " best" : "") << "'>"
                << formatMetric(metric, model.mean.*metric.member);
            // On paper the spread goes below the mean, so that the table keeps within the page.
            if (folds)
                out << (printable ? "<br>" : " ") << "<span class='note'>± "
                    << formatMetric(metric, model.standardDeviation.*metric.member) << "</span>";
            out << "</td>";
        }
        if (accuracy) {
            // The significance cell may hold words ("needs ≥ 5 folds"): it wraps, where numbers do not.
            out << "<td class='number'>" << formatSignificant(model.trainSeconds, 3)
                << "</td><td class='significance'>";
            out << htmlEscaped(significanceText(result, model.name));
            out << "</td>";
        }
        out << "</tr>\n";
    }
    out << "</table>\n";
}

void writeBoundTable(std::ostream &out, const evaluation::ExperimentResult &result, bool printable)
{
    std::vector<std::string> titles{"Model"};
    for (const auto &column : boundColumns())
        titles.emplace_back(column.title);
    writeTableHead(out, titles, printable);
    for (const auto &model : result.models) {
        if (!model.bound)
            continue;
        out << "<tr><td>" << htmlEscaped(model.title) << "</td>";
        for (const auto &column : boundColumns())
            out << "<td class='number'>" << htmlEscaped(column.cell(*model.bound)) << "</td>";
        out << "</tr>\n";
    }
    out << "</table>\n";
}

void writeWorstRowsTable(std::ostream &out, const ComparisonContext &context,
                         const evaluation::ExperimentResult &result, bool printable)
{
    const WorstRows worst = worstRows(context, result);
    writeTableHead(out, {"Model", "Job", "Actual (MiB)", "Predicted (MiB)", "Shortfall (MiB)"}, printable,
                   {20, 44, 12, 12, 12});
    for (const auto &row : worst.rows) {
        out << "<tr><td>" << htmlEscaped(result.models[row.under.model].title) << "</td><td>" << htmlEscaped(row.job);
        if (row.note > 0)
            out << "<sup>" << row.note << "</sup>";
        out << "</td><td class='number'>" << formatSignificant(row.under.actual, 5) << "</td><td class='number'>"
            << formatSignificant(row.under.predicted, 5) << "</td><td class='number'>"
            << formatSignificant(row.under.shortfall(), 4) << "</td></tr>\n";
    }
    out << "</table>\n";
    if (worst.notes.empty())
        return;
    out << "<p class='note names'>Whole job names:";
    for (std::size_t note = 0; note < worst.notes.size(); ++note)
        out << "<br><sup>" << note + 1 << "</sup> " << htmlEscaped(worst.notes[note]);
    out << "</p>\n";
}

void writeEnvironmentTable(std::ostream &out, const ComparisonContext &context, bool printable,
                           const std::string &created)
{
    // A title column of its own width, so that no title runs into its value.
    const std::string titleCell = printable ? "<tr><th width='16%'>" : "<tr><th>";
    out << "<table class='environment'>\n" << titleCell << "Features</th><td>";
    for (std::size_t i = 0; i < context.features.size(); ++i)
        out << (i ? ", " : "") << htmlEscaped(context.features[i]);
    out << "</td></tr>\n";
    for (const auto &[name, version] : runtime::libraryVersions().entries())
        out << titleCell << htmlEscaped(name) << "</th><td>" << htmlEscaped(version) << "</td></tr>\n";
    out << titleCell << "Created</th><td>" << htmlEscaped(created) << "</td></tr>\n</table>\n";
}

} // namespace gpumem::report
