// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/Dataset.h"
#include "data/FeatureEncoder.h"
#include "data/LayerSequenceParser.h"
#include "io/InputError.h"
#include "probe/JobConfiguration.h"

#include <string>
#include <vector>

namespace gpumem::models {

// What the analytic models (formula, allocator_sim) know about one row's job.
struct JobRow
{
    bool fromProbe = false;               // a `gpumem probe` row: job holds its full configuration
    probe::JobConfiguration job;          // probe rows only
    std::vector<data::LayerTuple> layers; // (type, activations per sample, parameters) per layer
    int batchSize = 0;
    std::string optimizer; // sgd, sgd_momentum, adam, adamw
    int bytesPerElement = 4;
};

// Rebuilds jobs from the rows of a dataset, for models that compute memory
// from the job itself rather than learn it from features. Two layouts:
//  - probe datasets: a categorical `family` column and the family's
//    configuration columns (batch_size, optimizer, dtype, steps and the
//    architecture knobs, see docs/probe.md); the layers are derived from them;
//  - GPUMemNet-style MLP rows: the layer sequence (the dataset's sequence
//    column, e.g. "Activations-Params") and a batch size column ("Batch Size" or
//    batch_size); the optimizer comes from an `optimizer` column when there is
//    one, else the assumed optimizer; elements are float32.
// Columns are found by name among the dataset's features and its constant
// columns (ignored, one value in every row), so an ignored column that varies
// counts as missing. Thread-safe after construction.
class JobRowReader
{
  public:
    // Checks that dataset has one of the layouts. Throws io::InputError naming
    // the model and the missing column otherwise.
    JobRowReader(const data::Dataset &dataset, std::string modelName, std::string assumedOptimizer);

    // Returns row index (0-based dataset row). Throws io::InputError naming the
    // file line and column when a cell cannot describe a job.
    JobRow row(std::size_t index) const;

    // Returns the batch size cell of row index of a layer-sequence dataset as a number,
    // whatever it holds (NaN where it is not one, or for a probe dataset).
    double batchSize(std::size_t index) const;

    // Returns error, which the job of row index gave, located at that row's line of
    // the file; an error that names its line already is returned as it is.
    io::InputError atRow(std::size_t index, const io::InputError &error) const;

    // Whether the rows are a probe dataset's (their jobs rebuilt from the
    // configuration columns) rather than layer sequences.
    bool describesProbeJobs() const { return mProbe; }

    // The columns this reader uses, as a schema records them.
    const data::FeatureEncoding &columnsUsed() const { return mColumns; }

  private:
    std::string text(std::size_t row, const std::string &column) const;
    double number(std::size_t row, const std::string &column) const;
    void require(const std::string &column);

    const data::Dataset &mDataset;
    std::string mModelName;
    std::string mAssumedOptimizer;
    bool mProbe = false;
    std::string mBatchColumn;
    data::FeatureEncoding mColumns;
};

} // namespace gpumem::models
