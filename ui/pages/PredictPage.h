// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Table.h"
#include "prediction/Predictor.h"

#include <QFutureWatcher>
#include <QWidget>

#include <map>
#include <memory>
#include <string>

class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace gpumem::ui {

class CapacityTable;
class RunModelBox;
class TableModel;
class TrainingPage;
class WorkbenchState;

// The prediction page: load a saved model folder (or take the model just
// trained, or the model of a run, a reopened project's included), enter one job's values — the predicted memory updates
// as they change — or predict a whole CSV file and save it with the columns of `gpumem predict` (prediction,
// upper_bound, actual, error). A model trained with
// --coverage also shows the memory to request at a chosen coverage and which
// common GPUs the job fits. Every prediction goes through core's prediction
// pipeline (prediction::predictJob, prediction::predictFile), so the page and the command line agree.
class PredictPage : public QWidget
{
    Q_OBJECT

  public:
    PredictPage(WorkbenchState *state, TrainingPage *training, QWidget *parent = nullptr);
    ~PredictPage() override;

    // Loads a model folder; returns false (and shows why) on error.
    bool loadModel(const QString &directory);
    // Uses an already fitted model (with the calibration of its upper bound, when it has one).
    void setModel(prediction::SavedModel saved, const QString &description);
    bool hasModel() const { return mSaved.model != nullptr; }
    // The memory to request for the job on show at the chosen coverage (MiB), NaN without a calibration.
    double currentUpperBound() const { return mUpperBound; }
    // Sets the coverage of the upper bounds (a calibrated model only).
    void setCoverage(double coverage);

    // Sets one input of the single-job form by column name (text as typed).
    bool setInput(const QString &column, const QString &text);
    // The single-job prediction on show (MiB), NaN when there is none.
    double currentPrediction() const { return mPrediction; }
    QString predictionText() const;

    // Predicts every row of a CSV file in the background and writes the result to
    // outputPath atomically; predictionFinished() tells the outcome.
    void predictFile(const QString &inputPath, const QString &outputPath);
    bool isPredictingFile() const;
    // Returns why the model cannot predict the file at inputPath (one line), or an empty text when it can.
    QString checkInput(const QString &inputPath) const;
    QString statusText() const;

  Q_SIGNALS:
    void predictionFinished(bool succeeded);

  private:
    struct FileOutcome
    {
        std::shared_ptr<const data::Table> preview; // the saved predictions as the preview shows them; null: none
        QString error;
        QString warnings;
    };

    void buildForm();
    void predictOne();
    void finishFile();
    void chooseFile();

    WorkbenchState *mState;
    TrainingPage *mTraining;
    prediction::SavedModel mSaved;
    RunModelBox *mRunModels; // the models of the training runs, a project's saved ones included
    QLabel *mModelInfo;
    QWidget *mFormHost;
    QFormLayout *mForm = nullptr;
    std::map<std::string, QWidget *> mInputs; // column name → editor
    QLabel *mPredictionLabel;
    QLabel *mExtrapolationWarning; // shown when the job lies outside the training data
    QDoubleSpinBox *mCoverage;
    CapacityTable *mCapacities; // which common GPUs the job fits at the coverage
    QLabel *mStatus;
    QPushButton *mPredictFile;
    TableModel *mPreviewModel;
    QTableView *mPreview;
    QFutureWatcher<FileOutcome> mWatcher;
    QString mOutputPath;
    double mPrediction;
    double mUpperBound;
};

} // namespace gpumem::ui
