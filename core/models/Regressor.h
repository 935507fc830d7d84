// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Dataset.h"
#include "data/FeatureEncoder.h"
#include "models/Hyperparameters.h"
#include "training/TrainingProgress.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::models {

// Where and how a model computes.
struct ComputeSettings
{
    std::string device = "auto"; // auto (CUDA when available), cpu, cuda
    std::uint64_t seed = 42;     // weight initialisation, dropout, shuffling, sampling, validation split
    // CPU threads for training: the neural network splits each batch across this
    // many workers (dropout > 0 keeps one, for reproducibility); tree ensembles
    // build this many trees at a time. Results never depend on it.
    int threads = 1;
};

// The columns a trained model reads, by name.
struct ModelSchema
{
    std::string target;
    data::FeatureEncoding encoding;
};

// A model of peak memory as the comparison sees it: it describes its
// hyperparameters, fits on some rows of a dataset with progress and cancel,
// predicts every row in the target's units (MiB), and saves itself as a model
// folder that loadRegressor() reads back. Not thread-safe: one thread uses a
// regressor at a time, while others may only touch the OperationControl.
// Different regressors may fit on different threads at once, and each result
// depends only on its data, hyperparameters and seed.
class Regressor
{
  public:
    virtual ~Regressor() = default;

    // The registry name, e.g. "random_forest" (see regressorNames()).
    virtual std::string name() const = 0;
    virtual const Hyperparameters &hyperparameters() const = 0;

    // Fits on trainingRows of dataset (which must have a target). Iterative
    // models report each epoch, tree or boosting round as an EpochProgress
    // (trainLoss NaN where the algorithm does not compute it) and check control
    // between them; a cancelled fit returns StopReason::Cancelled and leaves the
    // model unfitted. Throws io::InputError for unusable hyperparameter combinations.
    virtual training::TrainingResult fit(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows,
                                         training::TrainingObserver *observer = nullptr,
                                         runtime::OperationControl *control = nullptr) = 0;

    // Predicts every row of dataset in the target's units. Throws io::InputError
    // when the model is not fitted or dataset lacks a column it was trained with.
    virtual Eigen::VectorXd predict(const data::Dataset &dataset) const = 0;

    // Writes the model folder atomically: an interrupted save leaves the old folder or none.
    // extraMembers, a JSON object, adds its members to model.json after "fitted",
    // inside the same atomic save: what every model stores the same way without
    // knowing of it (the calibration of `gpumem train --coverage`). A key that
    // every model.json has already is refused with std::invalid_argument.
    virtual void save(const std::string &directory, const io::Json &extraMembers) const = 0;
    // The same with no extra members.
    void save(const std::string &directory) const { save(directory, io::Json::object()); }

    virtual const ModelSchema &schema() const = 0;
    virtual bool isFitted() const = 0;
    // The device the model computes on, e.g. "cpu" or "cuda:0".
    virtual std::string deviceName() const { return "cpu"; }
    // Whether the fitted model reads each row's simulated allocator peak
    // (SimulatedPeakInput.h), so that a row the simulation cannot follow is
    // predicted from a stand-in and marked as extrapolated.
    virtual bool readsSimulatedPeak() const { return false; }
};

} // namespace gpumem::models
