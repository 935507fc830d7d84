// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "prediction/Predictor.h"

#include <QComboBox>

#include <cstddef>

namespace gpumem::ui {

class WorkbenchState;

// A list of the training runs that have a model: trained in this session and still in
// memory, or saved in a folder (a project's runs after it is reopened). Choosing one
// tells its number; the list follows the state's runs.
class RunModelBox : public QComboBox
{
    Q_OBJECT

  public:
    explicit RunModelBox(WorkbenchState *state, QWidget *parent = nullptr);

    // The model of run number run (0-based): the one in memory, else the one its folder holds.
    // Throws io::InputError when the folder cannot be read, std::out_of_range when there is none.
    prediction::SavedModel savedModel(std::size_t run) const;
    // Chooses run number run, as a user would; false when it has no model.
    bool chooseRun(std::size_t run);

  Q_SIGNALS:
    void runChosen(std::size_t run);

  private:
    void refill();

    WorkbenchState *mState;
};

} // namespace gpumem::ui
