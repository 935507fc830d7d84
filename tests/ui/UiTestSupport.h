// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers shared by the UI tests: settings isolation and small fixtures.

#include "TestSupport.h"
#include "data/TableLoader.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "ui/app/WorkbenchState.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QString>

#include <memory>

namespace gpumem::tests {

// Keeps QSettings away from the user's configuration and starts from empty settings.
inline void isolateSettings(const char *testName)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("gpumem-tests"));
    QCoreApplication::setApplicationName(QString::fromLatin1(testName));
    QSettings().clear();
}

inline QString testDataPath(const char *name)
{
    return QStringLiteral(GPUMEM_TEST_DATA_DIR "/") + QString::fromLatin1(name);
}

// The 80 synthetic jobs of tests/data/jobs_training.csv.
inline std::shared_ptr<const data::Table> trainingTable()
{
    return std::make_shared<const data::Table>(data::loadTable(testDataPath("jobs_training.csv").toStdString()));
}

// Small, quick network settings: a few epochs of one narrow network.
inline models::Hyperparameters quickHyperparameters(int epochs)
{
    models::Hyperparameters hyperparameters = models::neuralNetworkHyperparameters();
    hyperparameters.set("d_model", std::int64_t{16});
    hyperparameters.set("gru_hidden", std::int64_t{8});
    hyperparameters.set("encoder_layers", std::int64_t{1});
    hyperparameters.set("heads", std::int64_t{2});
    hyperparameters.set("feedforward", std::int64_t{32});
    hyperparameters.set("head_hidden", std::int64_t{16});
    hyperparameters.set("batch_size", std::int64_t{8});
    hyperparameters.set("epochs", std::int64_t{epochs});
    hyperparameters.set("ensemble", std::int64_t{1});
    // A validation share (8 of the 80 rows), so that the pages draw and record validation curves.
    hyperparameters.set("validation_fraction", 0.1);
    return hyperparameters;
}

// Prepares state for a quick training: the 80 training jobs, as opened from
// tests/data/jobs_training.csv, and quickHyperparameters(epochs).
inline void prepareQuickTraining(ui::WorkbenchState &state, int epochs)
{
    state.setTable(trainingTable(), testDataPath("jobs_training.csv"));
    state.setHyperparameters(quickHyperparameters(epochs));
}

// A workbench state of its own, prepared for a quick training from the start,
// before any page is built on it.
class QuickTrainingState : public ui::WorkbenchState
{
  public:
    explicit QuickTrainingState(int epochs) { prepareQuickTraining(*this, epochs); }
};

// Writes a CSV of `rows` jobs (batch, optimizer, memory_mib), large enough at 300,000
// rows that a load is still on its first records when a cancel comes.
inline bool writeLargeJobsCsv(const QString &path, int rows)
{
    QByteArray text = "batch,optimizer,memory_mib\n";
    for (int row = 0; row < rows; ++row)
        text += QByteArray::number(row % 512) + (row % 2 ? ",adam," : ",sgd,") + QByteArray::number(row) + '\n';
    return writeFile(path, text);
}

} // namespace gpumem::tests
