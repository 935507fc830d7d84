// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Private to the neural regressor's .cpp files: its state, with LibTorch types.

#include "data/Standardizer.h"
#include "data/TargetTransform.h"
#include "models/BiGruTransformer.h"
#include "models/EigenNetwork.h"
#include "models/NeuralNetworkRegressor.h"
#include "training/RegressionLoss.h"
#include "training/Trainer.h"
#include "training/TrainingCheckpoint.h"

#include <torch/torch.h>

namespace gpumem::models {

// A dataset scaled for the network, in plain arrays (what CPU prediction reads).
struct ScaledInputs
{
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    Matrix features;                      // [rows, features]
    std::vector<std::int64_t> layerTypes; // [layers], embedding rows, 0 = a type unseen in training
    Matrix layerFields;                   // [layers, fieldsPerLayer]
    std::vector<std::int64_t> layerStart; // rows + 1 offsets into the layer arrays
};

// A dataset turned into tensors on the model's device.
struct PreparedInputs
{
    torch::Tensor features;               // [rows, features] float
    torch::Tensor layerTypes;             // [layers] int64, 0 = a type unseen in training
    torch::Tensor layerFields;            // [layers, fieldsPerLayer] float
    std::vector<std::int64_t> layerStart; // rows + 1 offsets into the layer tensors (CPU)
    torch::Tensor target;                 // [rows] float, scaled; undefined without a target
};

// One mini-batch of model inputs.
struct BatchInputs
{
    torch::Tensor features;    // [batch, features]
    torch::Tensor layerTypes;  // [batch, layers] (undefined without layer tokens)
    torch::Tensor layerFields; // [batch, layers, fieldsPerLayer]
    torch::Tensor layerCounts; // [batch] int64, CPU
};

// One network of the model's ensemble (its only one with ensemble = 1).
struct NetworkMember
{
    BiGruTransformer network{nullptr};
    std::shared_ptr<const EigenNetwork> cpuNetwork; // predicts on the CPU; rebuilt whenever the weights change
    // The training the weights come from, as far as a later fit can continue it.
    training::TrainingCheckpoint checkpoint;
};

// What every member's training shares: the inputs, the rows, and the trainer's
// settings but for the seed and the workers.
struct MemberTraining
{
    const data::Dataset &dataset;
    const PreparedInputs &inputs;
    const std::vector<Eigen::Index> &fitRows;
    const std::vector<Eigen::Index> &validationRows;
    training::TrainerSettings settings;
    bool dropout = false;    // dropout draws from LibTorch's generator while training
    bool continuing = false; // the members continue their checkpoints
    training::RegressionLoss loss;
};

// The most optimizer steps a saved training may have taken: a count a folder can
// claim without being refused, and that a continued training may not pass.
inline constexpr std::int64_t mostOptimizerSteps = std::int64_t{1} << 48;

// The network's part of the model: what it adds to the hyperparameters, compute
// settings and schema that RegressorBase keeps.
struct NeuralNetworkRegressor::Impl
{
    torch::Device device{torch::kCPU};
    data::FeatureEncoder encoder;
    // The encoder's columns are followed by one more, the simulated allocator peak
    // (SimulatedPeakInput.h), when the hyperparameter asked for it and the data allow it.
    bool simulatedPeakInput = false;
    data::Standardizer featureScaler;
    data::Standardizer fieldScaler;
    std::vector<std::string> layerVocabulary; // index + 1 is the embedding row; 0 is unknown
    data::TargetTransform targetTransform;
    BiGruTransformerOptions options;
    // The ensemble's networks, member 0 first; fewer than the "ensemble"
    // hyperparameter asks for only after a cancelled training.
    std::vector<NetworkMember> members;
    training::TrainingResult lastTraining;
    // The count and digest of the training rows the members' checkpoints used.
    std::size_t checkpointRows = 0;
    std::string checkpointRowsDigest;
    bool continuing = false; // the next fit() continues checkpoint (continueTrainingTo())

    // Chooses the device (resolveDevice()) and the target transform the hyperparameters ask for.
    Impl(const Hyperparameters &hyperparameters, const ComputeSettings &compute);

    bool usesLayerTokens() const { return options.layerTypeCount > 0; }
    // Fits the encoder, scalers and target transform on trainingRows and sizes the
    // network's options. Returns encode(dataset), which it built on the way.
    Eigen::MatrixXd fitInputs(const Hyperparameters &hyperparameters, const data::Dataset &dataset,
                              const std::vector<Eigen::Index> &trainingRows);
    // Refuses, with io::InputError, data that the stopped training did not use:
    // other columns than schema's, or other training rows.
    void checkContinuable(const ModelSchema &schema, const data::Dataset &dataset,
                          const std::vector<Eigen::Index> &trainingRows) const;
    // The encoder's columns of every row of dataset, and the simulated peak after
    // them when the network takes it. Throws io::InputError when it cannot be simulated.
    Eigen::MatrixXd encode(const data::Dataset &dataset) const;
    // The network's inputs for every row of dataset; encoded is encode(dataset).
    ScaledInputs scale(const data::Dataset &dataset, const Eigen::MatrixXd &encoded) const;
    PreparedInputs prepare(const data::Dataset &dataset, const Eigen::MatrixXd &encoded) const;
    // Copies every member's trained weights for CPU prediction (call after fitting or loading).
    void snapshotForCpu();
    // Trains member (a new network unless shared.continuing) with seed and workers
    // CPU threads per batch, reporting to observer.
    training::TrainingResult trainMember(NetworkMember &member, std::uint64_t seed, int workers,
                                         const MemberTraining &shared, training::TrainingObserver *observer,
                                         runtime::OperationControl *control) const;
    // Every member's output for every row of dataset, on the scale the network
    // learns: [rows, members]. Puts the networks into evaluation mode.
    Eigen::MatrixXd memberOutputs(const data::Dataset &dataset);
    // Whether every member holds a training a later fit can continue.
    bool holdsTraining() const;
    BatchInputs batch(const PreparedInputs &inputs, const std::vector<Eigen::Index> &rows) const;
};

// Returns the network's options for the hyperparameters and the data's sizes;
// throws io::InputError when heads does not divide d_model or d_model is odd.
BiGruTransformerOptions networkOptions(const Hyperparameters &hyperparameters, std::int64_t featureCount,
                                       std::int64_t layerTypeCount, std::int64_t fieldsPerLayer);

// Returns the SHA-256 of the training row indices, which tells a continued
// training whether it uses the rows the stopped one used.
std::string trainingRowsDigest(const std::vector<Eigen::Index> &trainingRows);

// Returns the feature token of each encoded column under feature_tokens = grouped,
// in the encoder's column order: each numeric column alone, each categorical's
// one-hot columns together, and the sequence summaries as two tokens, its
// composition (length and layer-type counts) and its sizes (sums and maxima of
// the fields), and the simulated allocator peak, when simulatedPeakInput, as a token
// of its own. Empty (one token per column) for per_column, or when the
// encoding's widths do not add up to featureCount.
std::vector<std::int64_t> featureTokensOf(const data::FeatureEncoding &encoding, bool simulatedPeakInput,
                                          const std::string &mode, std::int64_t featureCount);

// Chooses the device for a setting ("auto", "cpu", "cuda"); throws io::InputError when CUDA is asked for but absent.
torch::Device resolveDevice(const std::string &setting);

} // namespace gpumem::models
