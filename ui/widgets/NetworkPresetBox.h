// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/Hyperparameters.h"

#include <QComboBox>

namespace gpumem::ui {

// Chooses the values the network of a comparison starts from: the Model page's
// (named after the preset they came from) or one of the shipped presets, the
// same as `gpumem compare --preset NAME`. Remembers the choice between sessions.
class NetworkPresetBox : public QComboBox
{
    Q_OBJECT

  public:
    explicit NetworkPresetBox(QWidget *parent = nullptr);

    // Names the Model page's values after the preset they started from (empty: none).
    void setModelPagePreset(const QString &presetName);
    // The preset chosen, or empty for the Model page's values.
    QString preset() const;
    void setPreset(const QString &name);
    // The network's values: modelPage, or the chosen preset's. Throws io::InputError for a preset that is gone.
    models::Hyperparameters networkValues(const models::Hyperparameters &modelPage) const;
};

} // namespace gpumem::ui
