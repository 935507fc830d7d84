// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A comparison small enough for a test to run twice, in-process and through
// `gpumem`, and the figures of its report that do not depend on time.

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <string>

namespace gpumem::tests {

// Writes the first 60 jobs of the shipped datasets/gpu_cnn.csv to folder/fileName
// (enough for three folds, quick to fit); returns its path, or "" when it could not.
inline std::string writeSmallCnnTable(const QTemporaryDir &folder, const QString &fileName)
{
    QFile source(QStringLiteral(GPUMEM_TEST_DATA_DIR "/../../datasets/gpu_cnn.csv"));
    if (!source.open(QIODevice::ReadOnly))
        return {};
    QByteArray rows;
    for (int line = 0; line < 61 && !source.atEnd(); ++line)
        rows += source.readLine();
    const QString path = folder.filePath(fileName);
    QFile target(path);
    if (!target.open(QIODevice::WriteOnly) || target.write(rows) != rows.size())
        return {};
    return path.toStdString();
}

// What a comparison's JSON report says of each model that does not depend on time:
// its name, hyperparameters, mean metrics and per-fold metrics.
inline nlohmann::json timeFreeScores(const nlohmann::json &report)
{
    nlohmann::json models = nlohmann::json::array();
    for (const auto &model : report.at("models"))
        models.push_back({model.at("name"), model.at("hyperparameters"), model.at("metrics"), model.at("per_fold")});
    return models;
}

} // namespace gpumem::tests
