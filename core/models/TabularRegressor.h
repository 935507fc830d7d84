// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/FeatureEncoder.h"
#include "io/Json.h"
#include "models/RegressorBase.h"

#include <Eigen/Core>

#include <string>
#include <vector>

// Declares, in a TabularRegressor subclass, the four overrides every tabular model
// implements: fitMatrix(), predictMatrix(), fittedState() and readFitted(). One
// macro instead of the same seven lines in each model's header; use it under
// `protected:`.
#define GPUMEM_TABULAR_REGRESSOR_OVERRIDES                                                                             \
    training::TrainingResult fitMatrix(const Eigen::MatrixXd &features, const Eigen::VectorXd &target,                 \
                                       training::TrainingObserver *observer, runtime::OperationControl *control)       \
        override;                                                                                                      \
    Eigen::VectorXd predictMatrix(const Eigen::MatrixXd &features) const override;                                     \
    io::Json fittedState(const std::string &folder) const override;                                                    \
    void readFitted(const io::Json &fitted, const io::Json &metadata, const std::string &directory) override

namespace gpumem::models {

// The shared part of the models that learn from a flat feature matrix (trees,
// ensembles, ridge, XGBoost): it encodes the dataset with a FeatureEncoder fitted
// on the training rows only (numeric columns, one-hot categories, layer-sequence
// summary features), hands the matrix to the model, and saves or loads the model
// folder. Subclasses implement the learning on the matrix.
class TabularRegressor : public RegressorBase
{
  public:
    // The names of the encoded feature columns, e.g. "Batch Size", "act=ReLU".
    const std::vector<std::string> &featureNames() const { return mEncoder.featureNames(); }

    // Public so that subclasses can inherit it (see GPUMEM_REGRESSOR_NAMED); the class itself is abstract.
    TabularRegressor(Hyperparameters hyperparameters, ComputeSettings compute = {});

  protected:
    // Learns from features (rows × encoded columns) and target (the target's
    // units). Reports progress and honours control as Regressor::fit() says.
    virtual training::TrainingResult fitMatrix(const Eigen::MatrixXd &features, const Eigen::VectorXd &target,
                                               training::TrainingObserver *observer,
                                               runtime::OperationControl *control) = 0;
    // Predicts each row of features (encoded as in fitMatrix()).
    virtual Eigen::VectorXd predictMatrix(const Eigen::MatrixXd &features) const = 0;

  private:
    // Encodes the training rows for fitMatrix() with an encoder fitted on them.
    training::TrainingResult fitRows(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows,
                                     training::TrainingObserver *observer, runtime::OperationControl *control) override;
    Eigen::VectorXd predictFitted(const data::Dataset &dataset) const override;
    // Rebuilds the encoder from the restored schema.
    void schemaRestored() override;

    data::FeatureEncoder mEncoder;
};

} // namespace gpumem::models
