// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Helpers shared by the UI tests: settings isolation and small fixtures.

#include "TestSupport.h"
#include "data/TableLoader.h"
#include "models/NeuralNetworkHyperparameters.h"
#include "ui/WorkbenchState.h"

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

// Small, quick network settings: a few epochs of a narrow model.
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
    return hyperparameters;
}

// Prepares state for a quick training: the 80 training jobs, as opened from
// tests/data/jobs_training.csv, and quickHyperparameters(epochs).
inline void prepareQuickTraining(ui::WorkbenchState &state, int epochs)
{
    state.setTable(trainingTable(), testDataPath("jobs_training.csv"));
    state.setHyperparameters(quickHyperparameters(epochs));
}

} // namespace gpumem::tests
