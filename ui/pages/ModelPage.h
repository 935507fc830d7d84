// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/ArchitectureSizes.h"
#include "ui/app/BackgroundTask.h"

#include <QWidget>

#include <cstdint>
#include <functional>
#include <string>

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
    // Whether the loaded data's sizes are still being measured on a pool thread.
    bool isMeasuringData() const { return mAwaitingSizes; }

  private:
    // The example sizes until data is loaded, then the data's.
    struct DataSizes : models::ArchitectureSizes
    {
        QString source;
    };

    // Runs action; an exception's message goes to the status line and gives false.
    bool succeeds(const std::function<void()> &action);
    // Applies the hyperparameter file as the preset presetName; throws what the file's reading throws.
    void usePresetFile(const std::string &file, const QString &presetName);
    void formEdited();
    void showArchitecture();
    void dataChanged();
    // Disables the fields the other values make irrelevant and says whether the preset was modified.
    void updateFieldStates();
    // Marks the field a message names (red frame) and clears the others.
    void markFieldAtFault(const std::string &message);
    // The sizes known now; after a data change, starts measuring the data on a pool thread.
    DataSizes dataSizes();
    void finishMeasuringData();

    WorkbenchState *mState;
    HyperparameterForm *mForm;
    ArchitectureView *mArchitecture;
    QComboBox *mPresets;
    QLabel *mStatus;
    QLabel *mPresetState;
    std::string mPresetValues; // the applied preset's values, as JSON text, to tell a modified form
    QString mPresetValuesName; // the preset mPresetValues holds
    bool mSizesKnown = false;
    DataSizes mSizes;
    struct SizesOutcome
    {
        models::ArchitectureSizes sizes;
        bool measured = false;
        QString error; // the roles are not usable yet (e.g. no target)
    };
    bool mAwaitingSizes = false; // a measurement was started and nothing replaced it since
    // Last, so that it is destroyed first: waiting for the worker before the members it reports to go.
    BackgroundJob<SizesOutcome> mMeasuring{this, &ModelPage::finishMeasuringData};
};

} // namespace gpumem::ui
