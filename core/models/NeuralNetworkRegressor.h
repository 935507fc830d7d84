// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "models/ArchitectureSizes.h"
#include "models/NetworkModelName.h"
#include "models/RegressorBase.h"

#include <Eigen/Core>

#include <memory>
#include <string>
#include <vector>

namespace gpumem::models {

// One block of the network, for `gpumem describe-model` and the workbench's architecture view.
struct ArchitectureBlock
{
    std::string name;        // e.g. "BiGRU"
    std::string detail;      // e.g. "2 directions × 32 hidden, 1 layer"
    std::string outputShape; // e.g. "[batch, 30, 64]"
    std::int64_t parameters = 0;
};

// The BiGRU-optimised Transformer as a regressor of peak memory: prepares the
// inputs (feature tokens, layer tokens, log scaling, target transform, all fitted
// on training rows only), trains with the shared training loop, predicts in the
// target's units (MiB), and saves or loads itself as a model folder: its
// "fitted" state holds the scalers, and the folder adds the weights and the
// optimizer state beside model.json. With ensemble = K it trains K networks
// with seeds derived from its seed (ensembleMemberSeed()), side by side on its
// threads, and predicts the mean of their outputs on the scale the network
// learns, so that it stands for one model everywhere. Not thread-safe: one thread uses a
// regressor at a time (the trainer may run on a worker thread while others only
// touch the OperationControl).
class NeuralNetworkRegressor final : public RegressorBase
{
  public:
    // Throws io::InputError when the device cannot be used.
    NeuralNetworkRegressor(Hyperparameters hyperparameters, ComputeSettings compute = {});
    ~NeuralNetworkRegressor() override;
    NeuralNetworkRegressor(NeuralNetworkRegressor &&) noexcept;
    NeuralNetworkRegressor &operator=(NeuralNetworkRegressor &&) noexcept;

    // Makes the next fit() continue the training this model was loaded with
    // (weights, optimizer state and position) instead of starting afresh, until
    // epochs epochs in all; the "epochs" hyperparameter becomes epochs. That fit
    // keeps the scalers and network and refuses, with io::InputError, a dataset
    // whose columns differ from the schema or training rows that differ from the
    // stopped run's. Throws io::InputError when the model holds no training to
    // continue or has already trained epochs epochs.
    void continueTrainingTo(int epochs);
    // The epochs of the training the weights come from that a later fit can
    // continue (0 when it cannot, e.g. a folder saved without optimizer state);
    // for an ensemble, the most epochs any of its networks keeps.
    int epochsTrained() const;
    // The seed the model was trained with.
    std::uint64_t seed() const;
    // The spread of the ensemble's networks (the "ensemble" hyperparameter) on
    // every row of dataset: the sample standard deviation of their predictions in
    // the space the network learns (log1p of MiB with log_target, else MiB);
    // zeros for a single network. Throws io::InputError as predict() does.
    Eigen::VectorXd memberSpread(const data::Dataset &dataset) const;

    // Reads a model folder written by save() (weights, optimizer state and
    // training position beside model.json). Throws io::InputError naming the file.
    static NeuralNetworkRegressor load(const std::string &directory, ComputeSettings compute = {});

    std::string name() const override { return kNetworkModelName; }
    // The device the model runs on, e.g. "cpu" or "cuda:0".
    std::string deviceName() const override;
    bool readsSimulatedPeak() const override;
    // The fitted network's blocks with shapes and parameter counts.
    std::vector<ArchitectureBlock> architecture() const;

    struct Impl;

  protected:
    // At least two rows: the validation split and the scalers need more than one.
    std::size_t minimumTrainingRows() const override { return 2; }
    // A cancelled training keeps the best weights it reached, which predict and save.
    bool keepsCancelledFit() const override { return true; }
    // Trains with the shared training loop: a validation split of
    // validation_fraction is taken from trainingRows for early stopping. Throws
    // io::InputError for unusable hyperparameter combinations.
    training::TrainingResult fitRows(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows,
                                     training::TrainingObserver *observer, runtime::OperationControl *control) override;
    // Predicts in the target's units; throws io::InputError when dataset lacks a
    // column the model was trained with.
    Eigen::VectorXd predictFitted(const data::Dataset &dataset) const override;
    // Writes the weights (and the optimizer state, when the training can be
    // continued) into folder and returns the scalers, vocabulary, target
    // transform, network sizes and a summary of the training.
    io::Json fittedState(const std::string &folder) const override;
    // Reads what fittedState() wrote, checking the weights and optimizer files
    // against the digests in metadata before a tensor is built.
    void readFitted(const io::Json &fitted, const io::Json &metadata, const std::string &directory) override;

  private:
    std::unique_ptr<Impl> mImpl;
};

// Describes the network the hyperparameters build for data of sizes: its encoded
// features (and the simulated allocator peak after them when allocator_input is on
// and the data allow it) and, when sizes.layerTypes > 0, layer tokens of
// fieldsPerLayer numbers (typicalLayers per row for the shapes). The data's
// encoding decides how feature_tokens = grouped groups the features; with an
// empty one every feature is a token. Throws io::InputError for invalid sizes.
std::vector<ArchitectureBlock> describeArchitecture(const Hyperparameters &hyperparameters,
                                                    const ArchitectureSizes &sizes);

} // namespace gpumem::models
