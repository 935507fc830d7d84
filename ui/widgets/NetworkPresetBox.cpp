// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/NetworkPresetBox.h"

#include "models/Presets.h"
#include "ui/widgets/QtText.h"
#include "workflows/CompareWorkflow.h"

#include <QSettings>

namespace gpumem::ui {

namespace {
const char *const presetKey = "compare/networkPreset";
} // namespace

NetworkPresetBox::NetworkPresetBox(QWidget *parent)
    : QComboBox(parent)
{
    setObjectName(QStringLiteral("networkPresetBox"));
    setToolTip(tr("The values the neural network starts from: the Model page's, or a shipped preset as "
                  "gpumem compare --preset uses it (default: accurate, minutes; quick: under a minute; fast: "
                  "seconds; gpu: larger, for a CUDA machine). The other models use their library defaults."));
    addItem(QString(), QString());
    for (const auto &name : models::presetNames())
        addItem(tr("preset %1").arg(qtText(name)), qtText(name));
    setModelPagePreset({});
    setPreset(QSettings().value(presetKey).toString());
    connect(this, &QComboBox::activated, this, [this] { QSettings().setValue(presetKey, preset()); });
}

void NetworkPresetBox::setModelPagePreset(const QString &presetName)
{
    setItemText(0, presetName.isEmpty() ? tr("Model page's values") : tr("Model page's values (%1)").arg(presetName));
}

QString NetworkPresetBox::preset() const
{
    return currentData().toString();
}

void NetworkPresetBox::setPreset(const QString &name)
{
    setCurrentIndex(std::max(0, findData(name)));
}

models::Hyperparameters NetworkPresetBox::networkValues(const models::Hyperparameters &modelPage) const
{
    return preset().isEmpty() ? modelPage : workflows::networkPresetValues(coreText(preset()));
}

} // namespace gpumem::ui
