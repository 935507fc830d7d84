// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/charts/RecipeComparisonChart.h"

#include "estimate/GpuProfile.h"
#include "ui/charts/EstimateCharts.h"
#include "ui/charts/QCustomPlotInclude.h"
#include "ui/widgets/QtText.h"
#include "workflows/LanguageModelEstimates.h"

#include <QCoreApplication>

namespace gpumem::ui {

namespace {

QString translated(const char *text)
{
    return QCoreApplication::translate("RecipeComparisonChart", text);
}

// "1.24 B", "1.7 M", "850 K": a count read at a glance under a bar.
QString shortCount(std::int64_t count)
{
    const auto value = static_cast<double>(count);
    if (value >= 1e9)
        return translated("%L1 B").arg(value / 1e9, 0, 'f', 2);
    if (value >= 1e6)
        return translated("%L1 M").arg(value / 1e6, 0, 'f', 1);
    if (value >= 1e3)
        return translated("%L1 K").arg(value / 1e3, 0, 'f', 0);
    return QStringLiteral("%L1").arg(count);
}

// The recipe's name broken before each " + ", so that five names fit under five bars,
// and the parameters it trains below.
QString barLabel(const workflows::RecipeEstimate &recipe)
{
    QString label = qtText(recipe.label);
    label.replace(QStringLiteral(" + "), QStringLiteral("\n+ "));
    if (recipe.trainableParameterCount >= 0)
        label += QLatin1Char('\n') + translated("%1 trained").arg(shortCount(recipe.trainableParameterCount));
    return label;
}

} // namespace

void showRecipeComparison(QCustomPlot *plot, const std::vector<workflows::RecipeEstimate> &recipes,
                          const estimate::GpuProfile &profile)
{
    QStringList labels;
    std::vector<estimate::BatchEstimate> estimates;
    for (const workflows::RecipeEstimate &recipe : recipes) {
        labels << barLabel(recipe);
        estimates.push_back(recipe.estimate);
    }
    const std::int64_t batch = recipes.empty() ? 0 : recipes.front().estimate.batchSize;
    showStackedEstimates(plot, translated("Training recipes at batch %1 on %2").arg(batch).arg(qtText(profile.name)),
                         labels, estimates, &profile);
}

} // namespace gpumem::ui
