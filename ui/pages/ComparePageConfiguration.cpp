// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison the Compare page's form describes: what start() runs and what
// Edit ▸ Copy as command writes as a `gpumem compare` line, built in one place so
// that the command always repeats the page's run.
#include "ui/pages/ComparePage.h"

#include "ui/app/WorkbenchState.h"
#include "ui/widgets/CoverageBox.h"
#include "ui/widgets/NetworkPresetBox.h"
#include "ui/widgets/QtText.h"
#include "workflows/CommandLineOf.h"
#include "workflows/CompareWorkflow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include <stdexcept>

namespace gpumem::ui {

workflows::CompareConfiguration ComparePage::configuration() const
{
    const QStringList names = selectedModels();
    if (names.isEmpty())
        throw std::runtime_error(tr("Tick at least one model.").toStdString());
    workflows::CompareConfiguration configuration;
    evaluation::ExperimentSettings &settings = configuration.experiment;
    std::vector<std::string> registryNames;
    for (const QString &name : names)
        registryNames.push_back(coreText(name));
    settings.models = workflows::comparedModels(registryNames, mPreset->networkValues(mState->hyperparameters()));
    const bool kFold = mValidation->currentData().toString() == QStringLiteral("kfold");
    settings.folds = mFolds->value();
    settings.repeats = kFold ? mRepeats->value() : 1;
    settings.testFraction = kFold ? 0.0 : mTestFraction->value();
    settings.seed = static_cast<std::uint64_t>(mSeed->value());
    settings.compute.seed = settings.seed;
    settings.compute.threads = 1;
    if (mCalibrate->isChecked()) {
        settings.calibration.emplace();
        settings.calibration->coverage = mCoverage->value();
        settings.calibration->seed = settings.seed;
    }
    // The workbench explains every comparison: the Importance and Partial dependence tabs show it.
    settings.explanation.emplace();
    return configuration;
}

RunCommand ComparePage::runCommand() const
{
    if (!mState->table())
        return {{}, tr("No data loaded: open a CSV file first.")};
    if (mState->targetName().empty())
        return {{}, tr("No target column: choose one on the Data page.")};
    try {
        return {qtText(workflows::commandLineOf(workflows::argumentsOf(mState->dataRequest(), configuration()))), {}};
    } catch (const std::exception &error) {
        return {{}, QString::fromStdString(error.what())};
    }
}

} // namespace gpumem::ui
