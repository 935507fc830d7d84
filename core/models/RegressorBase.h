// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "io/Json.h"
#include "io/JsonWriter.h"
#include "models/Regressor.h"

#include <string>
#include <vector>

namespace gpumem::models {

// Throws the one error for a model used before it was trained, naming it.
[[noreturn]] void throwNotTrained(const std::string &model);

// Throws the one error for data a model cannot learn from: no target, or no
// training rows. Returns when dataset and trainingRows can be learned from.
void requireTrainingData(const data::Dataset &dataset, const std::vector<Eigen::Index> &trainingRows);

// The state and plumbing the tabular and analytic models share: hyperparameters,
// compute settings, the schema they were fitted on, whether they are fitted, and
// the model folder, written by save() and read by restore() around what
// writeFitted() and readFitted() add. Not thread-safe, like every Regressor.
class RegressorBase : public Regressor
{
  public:
    const Hyperparameters &hyperparameters() const override { return mHyperparameters; }
    const ModelSchema &schema() const override { return mSchema; }
    bool isFitted() const override { return mFitted; }

    // Writes model.json (header, hyperparameters, seed, schema, "fitted": what
    // writeFitted() writes, file digests, library versions) plus any files
    // writeFitted() adds. Throws io::InputError when the model is not trained.
    void save(const std::string &directory) const override;

    // Restores a model saved by save(): reads hyperparameters, seed and schema,
    // then readFitted(). metadata is what readModelMetadata(directory) returned.
    void restore(const io::Json &metadata, const std::string &directory);

  protected:
    RegressorBase(Hyperparameters hyperparameters, ComputeSettings compute);

    const ComputeSettings &compute() const { return mCompute; }
    void setSchema(ModelSchema schema) { mSchema = std::move(schema); }
    void setFitted(bool fitted) { mFitted = fitted; }
    // Throws throwNotTrained() unless the model is fitted.
    void requireFitted() const;

    // Called by restore() once schema() is read back, before readFitted().
    virtual void schemaRestored() {}
    // Writes the learned parameters as one JSON value; directory is the model
    // folder being written, for models that keep a file of their own there.
    virtual void writeFitted(io::JsonWriter &json, const std::string &directory) const = 0;
    // Reads back what writeFitted() wrote, after schema() is restored; throws
    // io::InputError when it is malformed.
    virtual void readFitted(const io::Json &fitted, const std::string &directory) = 0;

  private:
    Hyperparameters mHyperparameters;
    ComputeSettings mCompute;
    ModelSchema mSchema;
    bool mFitted = false;
};

} // namespace gpumem::models
