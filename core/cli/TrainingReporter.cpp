// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/TrainingReporter.h"

#include "io/JsonWriter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpumem::cli {

namespace {

// The fields that batch and epoch events share, in the order both print them.
template <typename Progress> void writeRateAndTiming(io::JsonWriter &json, const Progress &progress)
{
    json.key("learning_rate").value(progress.learningRate);
    json.key("samples_per_second").value(progress.samplesPerSecond);
    json.key("elapsed_seconds").value(progress.elapsedSeconds);
    json.key("remaining_seconds").value(progress.remainingSeconds);
}

// Writes one JSON object, {"event": event, ...what fields adds}, on a line of its own,
// flushed so that a reader sees it at once.
template <typename Fields> void writeEventLine(std::ostream &out, const char *event, const Fields &fields)
{
    io::JsonWriter json(out, 0);
    json.beginObject();
    json.key("event").value(event);
    fields(json);
    json.endObject();
    out << '\n' << std::flush;
}

} // namespace

std::string formatDuration(double seconds)
{
    const auto total = static_cast<long>(std::llround(std::max(0.0, seconds)));
    if (total >= 3600)
        return fmt::format("{}h{:02}m", total / 3600, total % 3600 / 60);
    if (total >= 60)
        return fmt::format("{}m{:02}s", total / 60, total % 60);
    return fmt::format("{}s", total);
}

std::string progressBar(double fraction, int width)
{
    const int filled = std::clamp(static_cast<int>(fraction * width), 0, width);
    std::string bar(static_cast<std::size_t>(filled), '=');
    bar += filled < width ? ">" : "";
    bar.resize(static_cast<std::size_t>(width), ' ');
    return bar;
}

TrainingReporter::TrainingReporter(Style style, std::ostream &out, std::ostream &err)
    : mStyle(style)
    , mOut(out)
    , mErr(err)
    , mLastReport(std::chrono::steady_clock::now() - std::chrono::hours(1))
{
}

bool TrainingReporter::due(double interval)
{
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - mLastReport).count() < interval)
        return false;
    mLastReport = now;
    return true;
}

void TrainingReporter::batchFinished(const training::BatchProgress &progress)
{
    if (mStyle == Style::JsonLines) {
        if (!due(0.5))
            return;
        writeEventLine(mOut, "batch", [&progress](io::JsonWriter &json) {
            json.key("epoch").value(progress.epoch);
            json.key("batch").value(progress.batch);
            json.key("batches").value(progress.batches);
            json.key("train_loss").value(progress.trainLoss);
            writeRateAndTiming(json, progress);
        });
        return;
    }
    if (mStyle != Style::ProgressBar || !due(0.1))
        return;
    const double done = (static_cast<double>(progress.epoch - 1) +
                         static_cast<double>(progress.batch) / static_cast<double>(progress.batches)) /
                        static_cast<double>(progress.epochs);
    const std::string bar = progressBar(done, 28);
    const std::string validation = mLastValidationLoss >= 0.0 ? fmt::format("  val {:.4g}", mLastValidationLoss) : "";
    mErr << fmt::format("\r[{}] {:3.0f}%  epoch {}/{}  loss {:.4g}{}  lr {:.2g}  {:.0f} rows/s  ETA {}   ", bar,
                        100.0 * done, progress.epoch, progress.epochs, progress.trainLoss, validation,
                        progress.learningRate, progress.samplesPerSecond, formatDuration(progress.remainingSeconds))
         << std::flush;
    mBarShown = true;
}

void TrainingReporter::epochFinished(const training::EpochProgress &progress)
{
    mLastValidationLoss = progress.validationLoss;
    if (mStyle == Style::JsonLines) {
        writeEventLine(mOut, "epoch", [&progress](io::JsonWriter &json) {
            json.key("epoch").value(progress.epoch);
            json.key("epochs").value(progress.epochs);
            json.key("train_loss").value(progress.trainLoss);
            json.key("validation_loss");
            if (progress.validationLoss >= 0.0)
                json.value(progress.validationLoss);
            else
                json.null();
            writeRateAndTiming(json, progress);
            json.key("best").value(progress.best);
        });
    } else if (mStyle == Style::EpochLines) {
        mErr << fmt::format("epoch {}/{}  train loss {:.5g}", progress.epoch, progress.epochs, progress.trainLoss);
        if (progress.validationLoss >= 0.0)
            mErr << fmt::format("  validation loss {:.5g}{}", progress.validationLoss, progress.best ? " *" : "");
        mErr << fmt::format("  {:.0f} rows/s  ETA {}\n", progress.samplesPerSecond,
                            formatDuration(progress.remainingSeconds))
             << std::flush;
    }
}

void TrainingReporter::finish()
{
    if (mBarShown)
        mErr << '\n' << std::flush;
    mBarShown = false;
}

} // namespace gpumem::cli
