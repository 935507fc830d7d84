// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/EstimateConfiguration.h"
#include "ui/app/RememberedFields.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QSpinBox;
class QLineEdit;

namespace gpumem::ui {

class GpuSpreadForm;

// The Your model page's controls for a language model given by its config.json (a
// shipped name, a file or a model's folder) and the recipe it is trained or served
// with: sequence length, precision or autocast, optimizer, LoRA rank and targets,
// QLoRA, gradient checkpointing, training or inference with generated tokens, and
// the GPUs it is spread over (GpuSpreadForm). A
// control that does not apply to the recipe is disabled, its tooltip saying why.
// Remembered between sessions.
class LanguageModelForm : public QWidget
{
    Q_OBJECT

  public:
    explicit LanguageModelForm(QWidget *parent = nullptr);

    // The config as typed, picked or browsed.
    QString architecture() const;
    // Takes path (a config.json, or a model's folder holding one) as the language model.
    void openConfig(const QString &path);
    // Asks for a config.json and opens it.
    void openConfigDialog();

    // The model and recipe the controls describe, as gpumem estimate --config builds
    // them from its options; throws io::InputError, one line, when no config is named.
    estimate::EstimateConfiguration configuration() const;
    // Keeps the controls for the next session.
    void remember() const;

  private:
    void updateFamily();
    void updateApplicable();

    QComboBox *mArchitecture;
    QSpinBox *mSequenceLength;
    QComboBox *mPrecision;
    QComboBox *mOptimizer;
    QSpinBox *mLoraRank;
    QLineEdit *mLoraTargets;
    QCheckBox *mQlora;
    QCheckBox *mCheckpointing;
    QComboBox *mMode;
    QSpinBox *mGeneratedTokens;
    GpuSpreadForm *mSpread; // several GPUs: the estimate is one GPU's
    // The targets the config's family proposes; a change of family replaces them unless edited.
    QString mProposedTargets;
    RememberedFields mRemembered;
};

} // namespace gpumem::ui
