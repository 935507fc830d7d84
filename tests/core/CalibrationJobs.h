// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The jobs that the calibration's command-line tests train on, written once into a
// folder, and the calibrated models those tests train there and then edit.

#include "CommandLineRun.h"
#include "io/AtomicFileWriter.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <string>
#include <vector>

namespace gpumem::tests {

// The row-th generated job: width, batch and depth cycle on their own, and the
// noise (MiB) grows with depth.
struct GeneratedJob
{
    int width;
    int batch;
    int depth;
    double noise;
};

inline GeneratedJob generatedJob(int row)
{
    const int depth = 1 + row % 3;
    return {16 << (row % 5), 8 << (row % 4), depth, static_cast<double>(((row * 37) % 11 - 5) * depth)};
}

// 60 jobs in the GPUMemNet layout whose memory grows with width, depth and batch,
// so every model type can fit them.
inline std::string jobsCsv()
{
    std::string csv = "Activations-Params,Batch Size,Depth,memory\n";
    for (int row = 0; row < 60; ++row) {
        const auto [width, batch, depth, noise] = generatedJob(row);
        std::string layers;
        for (int layer = 0; layer < depth; ++layer)
            layers += std::string(layer ? ", " : "") + "('linear', " + std::to_string(width) + ", " +
                      std::to_string(width * width + width) + "), ('ReLU', " + std::to_string(width) + ", 0)";
        const double memory =
            1400.0 + depth * width * width * 16.0 * 50.0 / (1 << 20) + batch * width * depth * 0.01 + noise;
        csv += "\"[" + layers + "]\"," + std::to_string(batch) + "," + std::to_string(depth) + "," +
               std::to_string(memory) + "\n";
    }
    return csv;
}

// The same kind of jobs with plain numeric columns only, for the in-process comparison.
inline std::string numericJobsCsv()
{
    std::string csv = "width,batch,depth,memory\n";
    for (int row = 0; row < 80; ++row) {
        const auto [width, batch, depth, noise] = generatedJob(row);
        csv += std::to_string(width) + "," + std::to_string(batch) + "," + std::to_string(depth) + "," +
               std::to_string(1400.0 + width * 0.5 + batch * depth * 0.2 + noise) + "\n";
    }
    return csv;
}

// `gpumem train` of model on data into out with the calibration: a quarter of the rows
// for the test, 0.3 of the rest for the calibration, coverage 0.8 (argument 11; the
// fraction is argument 13).
inline std::vector<std::string> calibratedTrainArguments(const std::string &data, const std::string &model,
                                                         const std::string &out)
{
    std::vector<std::string> arguments{"train",
                                       data,
                                       "--target",
                                       "memory",
                                       "--model",
                                       model,
                                       "--out",
                                       out,
                                       "--test-fraction",
                                       "0.25",
                                       "--coverage",
                                       "0.8",
                                       "--calibration-fraction",
                                       "0.3"};
    if (model == "bigru_transformer")
        arguments.insert(arguments.end(), {"--preset", "fast", "--set", "epochs=2"});
    return arguments;
}

// Whether a message is one line that ends with its newline.
inline bool isOneLineMessage(const std::string &text)
{
    return !text.empty() && text.find('\n') == text.size() - 1;
}

// A temporary folder holding jobs.csv (jobsCsv()) and numeric.csv (numericJobsCsv()).
class CalibrationFolder
{
  public:
    CalibrationFolder()
        : jobs(path("jobs.csv"))
        , numericJobs(path("numeric.csv"))
    {
        io::writeFileAtomically(jobs, jobsCsv());
        io::writeFileAtomically(numericJobs, numericJobsCsv());
    }

    bool isValid() const { return mFolder.isValid(); }
    std::string path(const char *name) const { return mFolder.filePath(QString::fromLatin1(name)).toStdString(); }

    // Trains a ridge model with the calibration into the folder called name and returns its path.
    std::string calibratedRidge(const char *name) const
    {
        const std::string model = path(name);
        const Run train = runGpumem(calibratedTrainArguments(jobs, "ridge", model));
        if (train.exitCode != 0)
            qWarning() << train.err.c_str();
        return model;
    }

    static QJsonObject modelJson(const std::string &model)
    {
        return QJsonDocument::fromJson(fileBytes(QString::fromStdString(model + "/model.json"))).object();
    }

    static void writeModelJson(const std::string &model, const QJsonObject &metadata)
    {
        io::writeFileAtomically(model + "/model.json", QJsonDocument(metadata).toJson().toStdString());
    }

  private:
    QTemporaryDir mFolder; // declared first: the paths below are inside it

  public:
    const std::string jobs;
    const std::string numericJobs;
};

} // namespace gpumem::tests
