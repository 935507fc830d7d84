// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/app/RememberedFields.h"
#include "workflows/EstimateWorkflow.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace gpumem::ui {

class LanguageModelForm;

// The Your model page's form: a TorchScript file with its input and training step,
// or a language model's config.json with its recipe (LanguageModelForm); the GPU
// profile, its CUDA context and the batch sizes; remembered between sessions. It
// builds the estimate's settings as `gpumem estimate` builds them from its options,
// with core's parsers. The controls of the kind of model not chosen are disabled.
class EstimateForm : public QWidget
{
    Q_OBJECT

  public:
    explicit EstimateForm(QWidget *parent = nullptr);

    // Takes path as the model to estimate, a TorchScript file; loads nothing (loading runs its code).
    void openModel(const QString &path);
    QString modelPath() const { return mModelPath; }
    // Asks for a .pt file and opens it.
    void openModelDialog();
    // Whether the form describes a language model by its config rather than a TorchScript file.
    bool isLanguageModel() const;
    // Chooses a language model (true) or a TorchScript file (false).
    void setLanguageModel(bool languageModel);

    // The settings the form describes, every installed profile's largest batch
    // included; throws io::InputError, one line, when it describes none.
    workflows::EstimateSettings settings() const;
    // Keeps the form and the model's path for the next session.
    void remember() const;

  Q_SIGNALS:
    // The kind of model the form describes has changed.
    void modelKindChanged(bool languageModel);

  private:
    QWidget *buildModelBox();
    QWidget *buildLanguageModelBox();
    QWidget *buildStepBox();
    QWidget *buildGpuBox();
    QLineEdit *exampleField(const QString &name, const QString &toolTip, const QString &example, const QString &key);
    void updateApplicable();
    estimate::EstimateConfiguration torchScriptModel() const;

    QString mModelPath;
    QComboBox *mKind;
    QPushButton *mOpen;
    QLabel *mTrust;
    LanguageModelForm *mLanguageModel;
    QLabel *mModelName;
    QLineEdit *mShapes;
    QComboBox *mInputKind;
    QSpinBox *mVocabulary;
    QComboBox *mLoss;
    QSpinBox *mClasses;
    QComboBox *mOptimizer;
    QComboBox *mDtype;
    QComboBox *mAttention;
    QComboBox *mGpu;
    QDoubleSpinBox *mContext; // the CUDA context in MiB; 0 keeps the profile's
    QLineEdit *mBatchSizes;
    RememberedFields mRemembered;
};

// Colours label as a notice through its palette, not a style sheet: a widget with a
// style sheet keeps its font when the application font changes, and View ▸ Large
// font must reach it.
void showAsNotice(QLabel *label, const QColor &background, const QColor &text);

} // namespace gpumem::ui
