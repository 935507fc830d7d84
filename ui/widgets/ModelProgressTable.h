// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "ui/app/ProgressBridge.h"

#include <QTableWidget>

#include <map>
#include <utility>
#include <vector>

class QProgressBar;

namespace gpumem::ui {

// The Compare page's progress of each model: a row per model with a bar over its folds
// and what it is doing ("fold 2 of 5", "done", "cancelled"). It listens to a
// ProgressBridge's fits, folds and models, and takes its batch and epoch events.
class ModelProgressTable : public QTableWidget
{
    Q_OBJECT

  public:
    ModelProgressTable(ProgressBridge *bridge, QWidget *parent = nullptr);

    // Starts over with one waiting row per model: (registry name, title), each over folds fits.
    void reset(const std::vector<std::pair<QString, QString>> &models, int folds);
    // Says "cancelled" on every model that had not finished.
    void markUnfinishedCancelled();
    // Moves the bars by the batch and epoch events waiting in the bridge.
    void takeEvents();

  private:
    struct ModelProgress
    {
        int row = 0;
        int foldsDone = 0;
        int folds = 1;
        QProgressBar *bar = nullptr;
    };

    // The progress row of model, or nullptr when the run has none.
    ModelProgress *progressOf(const QString &model);
    void setModelFraction(const QString &model, double withinFold);

    ProgressBridge *mBridge;
    std::map<QString, ModelProgress> mProgress;
};

} // namespace gpumem::ui
