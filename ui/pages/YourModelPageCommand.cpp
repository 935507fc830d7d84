// SPDX-License-Identifier: GPL-3.0-or-later
// The estimate the Your model page's form describes, which start() runs and Edit ▸
// Copy as command writes as a `gpumem estimate` line.
#include "ui/pages/YourModelPage.h"

#include "ui/widgets/EstimateForm.h"
#include "ui/widgets/QtText.h"
#include "workflows/CommandLineOf.h"
#include "workflows/EstimateWorkflow.h"

namespace gpumem::ui {

workflows::EstimateSettings YourModelPage::estimateSettings() const
{
    return mForm->settings();
}

RunCommand YourModelPage::runCommand() const
{
    try {
        return {qtText(workflows::commandLineOf(workflows::argumentsOf(estimateSettings()))), {}};
    } catch (const std::exception &error) {
        return {{}, tr("Nothing to estimate yet: %1.").arg(QString::fromStdString(error.what()))};
    }
}

} // namespace gpumem::ui
