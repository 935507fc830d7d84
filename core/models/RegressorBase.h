// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/Json.h"
#include "models/Regressor.h"

#include <cstddef>
#include <string>
#include <vector>

// Declares, first in the body of a model class derived from Base, what only
// its registry name tells apart: the constructor, inherited from Base, and
// name(). Leaves the class body in its private part.
#define GPUMEM_REGRESSOR_NAMED(Base, registryName)                                                                     \
  public:                                                                                                              \
    using Base::Base;                                                                                                  \
    std::string name() const override                                                                                  \
    {                                                                                                                  \
        return registryName;                                                                                           \
    }                                                                                                                  \
                                                                                                                       \
  private:                                                                                                             \
    static_assert(true, "")

namespace gpumem::models {

// Throws the one error for a model used before it was trained, naming it.
[[noreturn]] void throwNotTrained(const std::string &model);

// Throws the one error for data a model cannot learn from: no target, or fewer
// than minimumRows training rows. Returns when dataset and trainingRows can be learned from.
void requireTrainingData(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows,
                         std::size_t minimumRows = 1);

// The state, preconditions and plumbing every model shares: hyperparameters,
// compute settings, the schema it was fitted on, whether it is fitted, the
// checks before fitting and predicting, and the model folder, written by save()
// and read by restore() around what fittedState() and readFitted() add. Not
// thread-safe, like every Regressor.
class RegressorBase : public Regressor
{
  public:
    // Checks the data (requireTrainingData() with minimumTrainingRows()), then
    // learns through fitRows(). The model is fitted afterwards unless the fit
    // threw, or was cancelled and keepsCancelledFit() is false. The result's
    // seconds are the fit's wall time unless fitRows() measured them itself.
    training::TrainingResult fit(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows,
                                 training::TrainingObserver *observer = nullptr,
                                 runtime::OperationControl *control = nullptr) final;
    // Predicts through predictFitted(); throws throwNotTrained() when the model is not fitted.
    Eigen::VectorXd predict(const data::Dataset &dataset) const final;

    const Hyperparameters &hyperparameters() const override { return mHyperparameters; }
    const ModelSchema &schema() const override { return mSchema; }
    bool isFitted() const override { return mFitted; }

    // Writes model.json (header, hyperparameters, seed, schema, "fitted": what
    // fittedState() returns, extraMembers, file digests, library versions) plus
    // any files fittedState() adds, atomically. Throws io::InputError when the
    // model is not trained.
    void save(const std::string &directory, const io::Json &extraMembers) const override;
    using Regressor::save;

    // Restores a model saved by save(): reads hyperparameters, seed and schema,
    // then readFitted(). metadata is what readModelMetadata(directory) returned.
    // Throws io::InputError naming the file; the model is then unfitted.
    void restore(const io::Json &metadata, const std::string &directory);

  protected:
    RegressorBase(Hyperparameters hyperparameters, ComputeSettings compute);

    const ComputeSettings &compute() const { return mCompute; }
    // The hyperparameters to change in place, for a model that continues a training with more epochs.
    Hyperparameters &changeableHyperparameters() { return mHyperparameters; }
    void setSchema(ModelSchema schema) { mSchema = std::move(schema); }
    // Throws throwNotTrained() unless the model is fitted.
    void requireFitted() const;

    // The fewest training rows the model learns from.
    virtual std::size_t minimumTrainingRows() const { return 1; }
    // True when a cancelled fit leaves a usable model (a network keeps the weights it reached).
    virtual bool keepsCancelledFit() const { return false; }
    // Learns from trainingRows of dataset, which fit() has checked, reporting
    // progress and honouring control as Regressor::fit() says; the model is
    // unfitted meanwhile.
    virtual training::TrainingResult fitRows(const data::Dataset &dataset,
                                             const std::vector<Eigen::Index> &trainingRows,
                                             training::TrainingObserver *observer,
                                             runtime::OperationControl *control) = 0;
    // Predicts every row of dataset once the model is fitted.
    virtual Eigen::VectorXd predictFitted(const data::Dataset &dataset) const = 0;
    // Called by restore() once schema() is read back, before readFitted().
    virtual void schemaRestored() {}
    // Returns the learned parameters, model.json's "fitted" member; folder is the
    // model folder being written, for models that keep files of their own there.
    virtual io::Json fittedState(const std::string &folder) const = 0;
    // Reads back what fittedState() returned, after schema() is restored;
    // metadata is the folder's whole model.json, whose "files" list holds the
    // digests of the files beside it (readRecordedFile()). Throws io::InputError
    // when anything is malformed.
    virtual void readFitted(const io::Json &fitted, const io::Json &metadata, const std::string &directory) = 0;

  private:
    Hyperparameters mHyperparameters;
    ComputeSettings mCompute;
    ModelSchema mSchema;
    bool mFitted = false;
};

} // namespace gpumem::models
