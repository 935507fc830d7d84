// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/Hyperparameters.h"
#include "runs/SweepPlan.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QRadioButton;
class QSpinBox;
class QTableWidget;

namespace gpumem::ui {

// Asks what a sweep tries: hyperparameters of the network and their values
// (comma-separated, as `gpumem sweep --param` takes them), a grid or N random
// combinations with a seed, and the share of rows held out to score each run.
// Shows how many trials the choice gives, or why it is unusable.
class SweepDialog : public QDialog
{
    Q_OBJECT

  public:
    // hyperparameters: the model's values, whose names the rows choose from and
    // whose current values fill a new row.
    SweepDialog(const models::Hyperparameters &hyperparameters, QWidget *parent = nullptr);

    // Adds a row for a hyperparameter with its values, e.g. ("epochs", "5,10").
    void addParameter(const QString &name, const QString &values);
    void setRandom(bool random, int trials = 8, int seed = 42);
    void setValidationFraction(double fraction);

    // The plan the dialog describes; throws io::InputError when it is unusable.
    runs::SweepPlan plan() const;
    double validationFraction() const;

  private:
    void updateSummary();

    models::Hyperparameters mHyperparameters;
    QTableWidget *mParameters;
    QRadioButton *mGrid;
    QRadioButton *mRandom;
    QSpinBox *mTrials;
    QSpinBox *mSeed;
    QDoubleSpinBox *mValidation;
    QLabel *mSummary;
};

} // namespace gpumem::ui
