// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/ModelPage.h"

#include "data/FeatureEncoder.h"
#include "io/InputError.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "models/NeuralNetworkRegressor.h"
#include "models/Presets.h"
#include "ui/app/WorkbenchState.h"
#include "ui/charts/ArchitectureView.h"
#include "ui/widgets/HyperparameterForm.h"
#include "ui/widgets/LabelledRow.h"
#include "ui/widgets/PaneSplitter.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace gpumem::ui {

namespace {

// Returns the values of the preset called name as models::presetFileText, or nothing when there is none of that name: a
// form whose preset is gone cannot be compared with, so it is never called modified.
std::string presetValuesText(const QString &name)
{
    try {
        models::Hyperparameters preset = models::neuralNetworkHyperparameters();
        models::applyHyperparameterFile(preset, models::presetPath(coreText(name)));
        return models::presetFileText(preset);
    } catch (const std::exception &) {
        return {};
    }
}

} // namespace

ModelPage::ModelPage(WorkbenchState *state, QWidget *parent)
    : QWidget(parent)
    , mState(state)
    , mForm(new HyperparameterForm(state->hyperparameters(), this))
    , mArchitecture(new ArchitectureView(this))
    , mPresets(new QComboBox(this))
    , mStatus(new QLabel(this))
    , mPresetState(new QLabel(this))
{
    setObjectName(QStringLiteral("modelPage"));
    mForm->setObjectName(QStringLiteral("hyperparameterForm"));
    mPresets->setObjectName(QStringLiteral("presetBox"));
    mPresets->setToolTip(
        tr("Shipped presets: default (accurate, minutes), quick (under a minute, for demos), fast "
           "(seconds, smaller), gpu (larger, for a CUDA machine). Choosing one resets every value to the preset."));
    for (const auto &name : models::presetNames())
        mPresets->addItem(qtText(name));
    connect(mPresets, &QComboBox::activated, this, [this] { applyPreset(mPresets->currentText()); });

    auto *loadButton = new QPushButton(tr("Load preset…"), this);
    loadButton->setToolTip(tr("Apply a JSON object of hyperparameters (as gpumem --config reads) on top of the "
                              "defaults"));
    connect(loadButton, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Load preset"), {}, tr("Presets (*.json);;All files (*)"));
        if (!path.isEmpty())
            loadPresetFile(path);
    });
    auto *saveButton = new QPushButton(tr("Save preset…"), this);
    saveButton->setToolTip(tr("Save the values as a JSON preset, usable with gpumem train --config FILE"));
    connect(saveButton, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save preset"), {}, tr("Presets (*.json);;All files (*)"));
        if (!path.isEmpty())
            savePresetFile(path);
    });

    mPresetState->setObjectName(QStringLiteral("presetState"));
    mPresetState->setToolTip(tr("The values differ from the preset chosen last"));
    mStatus->setObjectName(QStringLiteral("modelStatus"));
    mStatus->setWordWrap(true);

    auto *presetRow = labelledRow(tr("Preset:"), mPresets, this);
    presetRow->addWidget(mPresetState);
    presetRow->addWidget(loadButton);
    presetRow->addWidget(saveButton);

    auto *scroll = new QScrollArea(this);
    scroll->setWidget(mForm);
    scroll->setWidgetResizable(true);
    scroll->setToolTip(tr("Hover over a name to read what it does, its range and default"));

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addLayout(presetRow);
    leftLayout->addWidget(scroll, 1);
    leftLayout->addWidget(mStatus);

    auto *splitter = paneSplitter(left, 2, mArchitecture, 3, this);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(mForm, &HyperparameterForm::valuesChanged, this, &ModelPage::formEdited);
    connect(mState, &WorkbenchState::hyperparametersChanged, this, [this] {
        mForm->setValues(mState->hyperparameters());
        const int index = mPresets->findText(mState->presetName());
        if (index >= 0)
            mPresets->setCurrentIndex(index);
        // Values from elsewhere (a project) name their preset: "modified" compares with that one, not the last applied.
        if (mState->presetName() != mPresetValuesName) {
            mPresetValuesName = mState->presetName();
            mPresetValues = presetValuesText(mPresetValuesName);
        }
        updateFieldStates();
        showArchitecture();
    });
    connect(mState, &WorkbenchState::rolesChanged, this, &ModelPage::dataChanged);
    const int index = mPresets->findText(mState->presetName());
    if (index >= 0)
        mPresets->setCurrentIndex(index);
    mPresetValuesName = mState->presetName();
    mPresetValues = presetValuesText(mPresetValuesName);
    updateFieldStates();
    showArchitecture();
    installWheelOnlyWhenFocused(this);
}

bool ModelPage::succeeds(const std::function<void()> &action)
{
    try {
        action();
        return true;
    } catch (const std::exception &error) {
        mStatus->setText(QString::fromStdString(error.what()));
        return false;
    }
}

void ModelPage::usePresetFile(const std::string &file, const QString &presetName)
{
    models::Hyperparameters hyperparameters = models::neuralNetworkHyperparameters();
    models::applyHyperparameterFile(hyperparameters, file);
    mPresetValues = models::presetFileText(hyperparameters);
    mPresetValuesName = presetName;
    mState->setPresetName(presetName);
    mState->setHyperparameters(hyperparameters);
}

bool ModelPage::applyPreset(const QString &name)
{
    return succeeds([&] {
        usePresetFile(models::presetPath(coreText(name)), name);
        mStatus->setText(tr("Preset %1 applied.").arg(name));
    });
}

bool ModelPage::loadPresetFile(const QString &path)
{
    return succeeds([&] {
        usePresetFile(coreText(path), QFileInfo(path).completeBaseName());
        mStatus->setText(tr("Loaded %1.").arg(QFileInfo(path).fileName()));
    });
}

bool ModelPage::savePresetFile(const QString &path)
{
    return succeeds([&] {
        models::savePresetFile(mForm->values(), coreText(path));
        mStatus->setText(tr("Saved %1.").arg(QFileInfo(path).fileName()));
    });
}

void ModelPage::formEdited()
{
    try {
        const models::Hyperparameters values = mForm->values();
        models::checkNetworkHyperparameters(values);
        mState->setHyperparameters(values);
        mStatus->clear();
        markFieldAtFault({});
    } catch (const std::exception &error) {
        mStatus->setText(QString::fromStdString(error.what()));
        markFieldAtFault(error.what());
    }
}

QString ModelPage::presetState() const
{
    return mPresetState->text();
}

void ModelPage::updateFieldStates()
{
    const models::Hyperparameters &values = mState->hyperparameters();
    const std::vector<std::string> unused = models::unusedNetworkHyperparameters(values);
    for (const auto &spec : values.specs())
        if (QWidget *editor = mForm->editor(spec.name))
            editor->setEnabled(std::find(unused.begin(), unused.end(), spec.name) == unused.end());
    const bool modified = !mPresetValues.empty() && models::presetFileText(values) != mPresetValues;
    mPresetState->setText(modified ? tr("modified") : QString());
}

void ModelPage::markFieldAtFault(const std::string &message)
{
    // The hyperparameter the message names first is the one to fix; a pink background shows where it is.
    const std::string *fault = nullptr;
    std::size_t earliest = std::string::npos;
    for (const auto &spec : mState->hyperparameters().specs()) {
        const std::size_t at = message.find(spec.name);
        if (at != std::string::npos && (at < earliest || (at == earliest && spec.name.size() > fault->size()))) {
            earliest = at;
            fault = &spec.name;
        }
    }
    for (const auto &spec : mState->hyperparameters().specs())
        if (QWidget *editor = mForm->editor(spec.name))
            editor->setStyleSheet(fault && *fault == spec.name ? QStringLiteral("background: #ffd9d9;") : QString());
}

void ModelPage::dataChanged()
{
    mSizesKnown = false;
    showArchitecture();
}

ModelPage::DataSizes ModelPage::dataSizes()
{
    if (mSizesKnown)
        return mSizes;
    mSizes = DataSizes();
    mSizes.source = tr("example sizes (no data loaded)");
    mSizesKnown = true;
    mAwaitingSizes = false;
    if (const auto table = mState->table()) {
        // Measuring takes seconds for a large file (every job's allocator is simulated), so it runs
        // on a pool thread and the example sizes stand in until it ends. The encoder decides how
        // many feature tokens the data gives; the GUI only asks it.
        mSizes.source = tr("example sizes until %1 is measured …").arg(QFileInfo(mState->dataPath()).fileName());
        mAwaitingSizes = true;
        mMeasuring.cancel();
        mMeasuring.start([table, request = mState->roleRequest(),
                          policy = mState->badCellPolicy()](SizesOutcome &outcome, runtime::OperationControl *) {
            outcome.sizes = models::architectureSizesOf(*workflows::selectData(table, request, policy).dataset);
            outcome.measured = true;
        });
    }
    return mSizes;
}

void ModelPage::finishMeasuringData()
{
    const SizesOutcome outcome = mMeasuring.take();
    // Roles not usable yet (e.g. no target) keep the example sizes; the data page says why.
    if (!std::exchange(mAwaitingSizes, false))
        return;
    if (!outcome.measured) {
        mSizes.source = tr("example sizes");
        showArchitecture();
        return;
    }
    static_cast<models::ArchitectureSizes &>(mSizes) = outcome.sizes;
    mSizes.source = QFileInfo(mState->dataPath()).fileName();
    showArchitecture();
}

void ModelPage::showArchitecture()
{
    const DataSizes sizes = dataSizes();
    try {
        const auto &hyperparameters = mState->hyperparameters();
        const auto blocks = models::describeArchitecture(hyperparameters, sizes);
        std::vector<ArchitectureBox> boxes;
        for (const auto &block : blocks)
            boxes.push_back({qtText(block.name), qtText(block.detail), qtText(block.outputShape), block.parameters});
        mArchitecture->setBlocks(boxes, tr("%1; sizes from %2")
                                            .arg(qtText(models::describeNetworkInputs(hyperparameters, sizes)))
                                            .arg(sizes.source));
    } catch (const std::exception &error) {
        mArchitecture->setMessage(QString::fromStdString(error.what()));
    }
}

} // namespace gpumem::ui
