// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/EstimateConfiguration.h"
#include "estimate/ProfileCalibration.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpumem::estimate {

// One training job a user measured on their card, as a row of a
// measurement file for `gpumem estimate --calibrate`.
struct MeasuredJob
{
    EstimateConfiguration configuration; // modelPath resolved against the file's folder
    std::int64_t batchSize = 0;
    double measuredMib = 0.0;
    MeasuredQuantity quantity = MeasuredQuantity::DeviceTotal;
    std::int64_t line = 0;           // the row's 1-based line in the file
    std::int64_t modelColumn = 0;    // the 1-based column of its model cell
    std::int64_t measuredColumn = 0; // … and of its measured_mib cell
};

// The columns of a measurement file: the required ones, then the optional ones.
const std::vector<std::string> &measuredJobsRequiredColumns();
const std::vector<std::string> &measuredJobsOptionalColumns();

// The most rows a measurement file may hold, and its largest size in bytes.
constexpr std::size_t maxMeasuredJobs = 1000;
constexpr std::uint64_t maxMeasuredJobsFileBytes = 1u << 20;

// Reads a measurement file as untrusted input: a CSV file (comma, semicolon
// or tab) with a header naming the columns in any order: model (a TorchScript
// file, relative to the CSV's folder unless absolute), input_shape (one
// sample's shape, "3,224,224"; several inputs separated by "|"), batch_size,
// optimizer, measured_mib and measured_by (nvidia-smi or
// max_memory_reserved); optionally dtype, input_kind (float or tokens),
// vocabulary, loss and classes, whose empty cells mean the estimate's
// defaults. Throws io::InputError with the file, line and column of the first
// problem: an unknown, repeated or missing column, a bad value, a model file
// that does not exist, no rows or too many.
std::vector<MeasuredJob> readMeasuredJobs(const std::string &path);

} // namespace gpumem::estimate
