#pragma once

#include "data/FeatureEncoder.h"
#include "io/JsonValue.h"
#include "io/JsonWriter.h"
#include "models/Regressor.h"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace gpumem::models {

// The shared part of the models that learn from a flat feature matrix (trees,
// ensembles, ridge, XGBoost): it encodes the dataset with a FeatureEncoder fitted
// on the training rows only (numeric columns, one-hot categories, layer-sequence
// summary features), hands the matrix to the model, and saves or loads the model
// folder. Subclasses implement the learning on the matrix.
class TabularRegressor : public Regressor
{
  public:
    const Hyperparameters &hyperparameters() const override { return mHyperparameters; }
    const ModelSchema &schema() const override { return mSchema; }
    bool isFitted() const override { return mFitted; }

    training::TrainingResult fit(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows,
                                 training::TrainingObserver *observer = nullptr,
                                 training::TrainingControl *control = nullptr) override;
    Eigen::VectorXd predict(const data::Dataset &dataset) const override;
    // Writes model.json (header, hyperparameters, seed, schema, "fitted": what
    // writeFitted() writes, library versions) plus any files writeFitted() adds.
    void save(const std::string &directory) const override;

    // The names of the encoded feature columns, e.g. "Batch Size", "act=ReLU".
    const std::vector<std::string> &featureNames() const { return mEncoder.featureNames(); }

    // Restores a model saved by save(): reads the schema, then readFitted().
    // metadata is what readModelMetadata(directory) returned.
    void restore(const io::JsonValue &metadata, const std::string &directory);

  protected:
    TabularRegressor(Hyperparameters hyperparameters, ComputeSettings compute);

    const ComputeSettings &compute() const { return mCompute; }

    // Learns from features (rows × encoded columns) and target (the target's
    // units). Reports progress and honours control as Regressor::fit() says.
    virtual training::TrainingResult fitMatrix(const Eigen::MatrixXd &features, const Eigen::VectorXd &target,
                                               training::TrainingObserver *observer,
                                               training::TrainingControl *control) = 0;
    // Predicts each row of features (encoded as in fitMatrix()).
    virtual Eigen::VectorXd predictMatrix(const Eigen::MatrixXd &features) const = 0;
    // Writes the learned parameters as one JSON value; directory is the model
    // folder being written, for models that keep a file of their own there.
    virtual void writeFitted(io::JsonWriter &json, const std::string &directory) const = 0;
    // Reads back what writeFitted() wrote; throws io::InputError when it is malformed.
    virtual void readFitted(const io::JsonValue &fitted, const std::string &directory) = 0;

  private:
    Hyperparameters mHyperparameters;
    ComputeSettings mCompute;
    ModelSchema mSchema;
    data::FeatureEncoder mEncoder;
    bool mFitted = false;
};

} // namespace gpumem::models
