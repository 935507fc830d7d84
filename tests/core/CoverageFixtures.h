// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Calibrated comparisons on the job fixture, and the CSV reports' cells, shared by
// the tests of bounds in comparisons and in their reports.

#include "GridJobs.h"
#include "TestSupport.h"

#include "calibration/Calibration.h"
#include "data/Dataset.h"
#include "data/TableLoader.h"
#include "evaluation/Experiment.h"
#include "models/RegressorRegistry.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gpumem::tests {

inline data::Dataset jobsDataset()
{
    return datasetOf(data::loadTable(dataFile("jobs_training.csv")), "memory_mib");
}

inline evaluation::ExperimentSettings calibratedSettings(std::vector<std::string> names, int folds, double coverage,
                                                         calibration::Score score)
{
    evaluation::ExperimentSettings settings;
    for (const auto &name : names)
        settings.models.push_back({name, models::regressorHyperparameters(name)});
    settings.folds = folds;
    calibration::CalibrationSettings calibration;
    calibration.coverage = coverage;
    calibration.fraction = 0.5;
    calibration.score = score;
    calibration.seed = 7;
    settings.calibration = calibration;
    return settings;
}

// Returns a CSV file's rows as cells (the files read here quote nothing).
inline std::vector<std::vector<std::string>> csvRows(const std::string &path)
{
    std::ifstream in(path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream fields(line);
        std::string cell;
        while (std::getline(fields, cell, ','))
            cells.push_back(cell);
        if (!line.empty() && line.back() == ',')
            cells.emplace_back();
        rows.push_back(cells);
    }
    return rows;
}

inline std::size_t columnNamed(const std::vector<std::string> &header, const std::string &name)
{
    const auto found = std::find(header.begin(), header.end(), name);
    return static_cast<std::size_t>(found - header.begin());
}

inline const std::vector<std::string> quickCompare{"compare",  dataFile("jobs_training.csv"), "--target", "memory_mib",
                                                   "--models", "ridge,decision_tree",         "--folds",  "2"};

// A calibrated comparison of ridge and a decision tree on the job fixture.
inline evaluation::ExperimentResult calibratedJobs()
{
    return evaluation::runExperiment(
        jobsDataset(), calibratedSettings({"ridge", "decision_tree"}, 2, 0.8, calibration::Score::Difficulty));
}

} // namespace gpumem::tests
