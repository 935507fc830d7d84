// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <cstdint>

class QComboBox;
class QLabel;

namespace gpumem::ui {

class ArchitectureView;
class HyperparameterForm;
class WorkbenchState;

// The model page: the neural network's hyperparameter form (generated from its
// specs), presets (the shipped ones, or any JSON file), and the architecture the
// values build, redrawn as they change. Edits go to WorkbenchState at once.
class ModelPage : public QWidget
{
    Q_OBJECT

  public:
    explicit ModelPage(WorkbenchState *state, QWidget *parent = nullptr);

    // Applies a shipped preset by name ("default", "fast", "gpu") on top of the defaults.
    // Returns false (and shows why) when it cannot be read.
    bool applyPreset(const QString &name);
    // Applies a preset file on top of the defaults; returns false (and shows why) on error.
    bool loadPresetFile(const QString &path);
    // Writes the current values as a preset JSON object, atomically.
    bool savePresetFile(const QString &path);

    HyperparameterForm *form() const { return mForm; }
    // "modified" once a value differs from the preset last applied, else empty.
    QString presetState() const;
    ArchitectureView *architectureView() const { return mArchitecture; }

  private:
    struct DataSizes
    {
        std::int64_t features = 0;
        std::int64_t layerTypes = 0;
        std::int64_t fieldsPerLayer = 0;
        std::int64_t typicalLayers = 0;
        QString source;
    };

    void formEdited();
    void showArchitecture();
    void dataChanged();
    // Disables the fields the other values make irrelevant and says whether the preset was modified.
    void updateFieldStates();
    // Marks the field a message names (red frame) and clears the others.
    void markFieldAtFault(const std::string &message);
    DataSizes dataSizes();

    WorkbenchState *mState;
    HyperparameterForm *mForm;
    ArchitectureView *mArchitecture;
    QComboBox *mPresets;
    QLabel *mStatus;
    QLabel *mPresetState;
    std::string mPresetValues; // the applied preset's values, as JSON text, to tell a modified form
    bool mSizesKnown = false;
    DataSizes mSizes;
};

} // namespace gpumem::ui
