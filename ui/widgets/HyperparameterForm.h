// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/Hyperparameters.h"

#include <QWidget>

#include <map>
#include <string>

namespace gpumem::ui {

// A form generated from a model's HyperparameterSpec list: spin boxes limited to
// each range, combo boxes for choices, check boxes for flags, and the spec's help
// sentence (with range and unit) as every field's tooltip. Editing a field emits
// valuesChanged(); values() returns them checked by core. GUI thread only.
class HyperparameterForm : public QWidget
{
    Q_OBJECT

  public:
    explicit HyperparameterForm(const models::Hyperparameters &initial, QWidget *parent = nullptr);

    // Shows every value of hyperparameters (which must have the same specs).
    void setValues(const models::Hyperparameters &hyperparameters);
    // Returns the values on show. Throws io::InputError if one is out of range.
    models::Hyperparameters values() const;
    // The editor of one hyperparameter, e.g. for tests and the help panel.
    QWidget *editor(const std::string &name) const;

  Q_SIGNALS:
    void valuesChanged();

  private:
    models::Hyperparameters mHyperparameters;
    std::map<std::string, QWidget *> mEditors;
    bool mUpdating = false;
};

// Returns the tooltip of a hyperparameter: its help sentence, type, range, unit and default.
QString hyperparameterToolTip(const models::HyperparameterSpec &spec);

} // namespace gpumem::ui
