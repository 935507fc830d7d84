// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page's form made to show the settings that produced the results on
// show, so that a reopened project never pairs 3-fold results with a form saying 5.
#include "ui/pages/ComparePage.h"

#include "evaluation/Experiment.h"
#include "ui/app/WorkbenchState.h"
#include "ui/widgets/CoverageBox.h"
#include "ui/widgets/QtText.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace gpumem::ui {

void ComparePage::showSettingsOfResults()
{
    const auto result = mState->comparison();
    if (!result || result->models.empty() || isRunning())
        return;
    QStringList names;
    for (const auto &model : result->models)
        names << qtText(model.name);
    setSelectedModels(names);

    // Projects saved before the header was kept have no folds: their validation is unknown, so the form keeps its own.
    const report::ComparisonContext &context = mState->comparisonContext();
    if (context.folds > 0) {
        const bool holdOut = context.testFraction > 0.0;
        mValidation->setCurrentIndex(
            mValidation->findData(holdOut ? QStringLiteral("holdout") : QStringLiteral("kfold")));
        if (holdOut)
            mTestFraction->setValue(context.testFraction);
        else
            mFolds->setValue(context.folds);
        mRepeats->setValue(holdOut ? 1 : result->repeats);
        mSeed->setValue(static_cast<int>(std::min<std::uint64_t>(context.seed, mSeed->maximum())));
    }
    mCalibrate->setChecked(result->calibration.has_value());
    if (result->calibration)
        mCoverage->setValue(result->calibration->coverage);
}

} // namespace gpumem::ui
