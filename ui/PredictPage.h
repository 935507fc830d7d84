#pragma once

#include <QFutureWatcher>
#include <QWidget>

#include <map>
#include <memory>
#include <string>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace gpumem::models {
class Regressor;
}

namespace gpumem::ui {

class TableModel;
class TrainingPage;
class WorkbenchState;

// The prediction page: load a saved model folder (or take the model just
// trained), enter one job's values — the predicted memory updates as they
// change — or predict a whole CSV file and save it with the columns of
// `gpumem predict` (prediction, actual, error). Every prediction goes through
// core's loader and roles, so the page and the command line agree.
class PredictPage : public QWidget
{
    Q_OBJECT

  public:
    PredictPage(WorkbenchState *state, TrainingPage *training, QWidget *parent = nullptr);
    ~PredictPage() override;

    // Loads a model folder; returns false (and shows why) on error.
    bool loadModel(const QString &directory);
    // Uses an already fitted model.
    void setModel(std::shared_ptr<models::Regressor> model, const QString &description);
    bool hasModel() const { return mModel != nullptr; }

    // Sets one input of the single-job form by column name (text as typed).
    bool setInput(const QString &column, const QString &text);
    // The single-job prediction on show (MiB), NaN when there is none.
    double currentPrediction() const { return mPrediction; }
    QString predictionText() const;

    // Predicts every row of a CSV file in the background and writes the result to
    // outputPath atomically; predictionFinished() tells the outcome.
    void predictFile(const QString &inputPath, const QString &outputPath);
    bool isPredictingFile() const;
    QString statusText() const;

  Q_SIGNALS:
    void predictionFinished(bool succeeded);

  private:
    struct FileOutcome
    {
        QString csv;
        QString error;
        QString warnings;
    };

    void buildForm();
    void predictOne();
    void finishFile();
    void chooseFile();

    WorkbenchState *mState;
    TrainingPage *mTraining;
    std::shared_ptr<models::Regressor> mModel;
    QLabel *mModelInfo;
    QWidget *mFormHost;
    QFormLayout *mForm = nullptr;
    std::map<std::string, QWidget *> mInputs; // column name → editor
    QLabel *mPredictionLabel;
    QLabel *mStatus;
    QPushButton *mPredictFile;
    TableModel *mPreviewModel;
    QTableView *mPreview;
    QFutureWatcher<FileOutcome> mWatcher;
    QString mOutputPath;
    double mPrediction;
};

} // namespace gpumem::ui
