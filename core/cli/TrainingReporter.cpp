#include "cli/TrainingReporter.h"

#include "io/JsonWriter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpumem::cli {

std::string formatDuration(double seconds)
{
    const auto total = static_cast<long>(std::llround(std::max(0.0, seconds)));
    char text[32];
    if (total >= 3600)
        std::snprintf(text, sizeof text, "%ldh%02ldm", total / 3600, total % 3600 / 60);
    else if (total >= 60)
        std::snprintf(text, sizeof text, "%ldm%02lds", total / 60, total % 60);
    else
        std::snprintf(text, sizeof text, "%lds", total);
    return text;
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
        io::JsonWriter json(mOut, 0);
        json.beginObject();
        json.key("event").value("batch");
        json.key("epoch").value(progress.epoch);
        json.key("batch").value(progress.batch);
        json.key("batches").value(progress.batches);
        json.key("train_loss").value(progress.trainLoss);
        json.key("learning_rate").value(progress.learningRate);
        json.key("samples_per_second").value(progress.samplesPerSecond);
        json.key("elapsed_seconds").value(progress.elapsedSeconds);
        json.key("remaining_seconds").value(progress.remainingSeconds);
        json.endObject();
        mOut << '\n' << std::flush;
        return;
    }
    if (mStyle != Style::ProgressBar || !due(0.1))
        return;
    const double done = (static_cast<double>(progress.epoch - 1) +
                         static_cast<double>(progress.batch) / static_cast<double>(progress.batches)) /
                        static_cast<double>(progress.epochs);
    const std::string bar = progressBar(done, 28);
    char line[256];
    std::snprintf(line, sizeof line, "\r[%s] %3.0f%%  epoch %d/%d  loss %.4g%s  lr %.2g  %.0f rows/s  ETA %s   ",
                  bar.c_str(), 100.0 * done, progress.epoch, progress.epochs, progress.trainLoss,
                  mLastValidationLoss >= 0.0 ? ("  val " + std::to_string(mLastValidationLoss).substr(0, 7)).c_str()
                                             : "",
                  progress.learningRate, progress.samplesPerSecond, formatDuration(progress.remainingSeconds).c_str());
    mErr << line << std::flush;
    mBarShown = true;
}

void TrainingReporter::epochFinished(const training::EpochProgress &progress)
{
    mLastValidationLoss = progress.validationLoss;
    if (mStyle == Style::JsonLines) {
        io::JsonWriter json(mOut, 0);
        json.beginObject();
        json.key("event").value("epoch");
        json.key("epoch").value(progress.epoch);
        json.key("epochs").value(progress.epochs);
        json.key("train_loss").value(progress.trainLoss);
        json.key("validation_loss");
        if (progress.validationLoss >= 0.0)
            json.value(progress.validationLoss);
        else
            json.null();
        json.key("learning_rate").value(progress.learningRate);
        json.key("samples_per_second").value(progress.samplesPerSecond);
        json.key("elapsed_seconds").value(progress.elapsedSeconds);
        json.key("remaining_seconds").value(progress.remainingSeconds);
        json.key("best").value(progress.best);
        json.endObject();
        mOut << '\n' << std::flush;
    } else if (mStyle == Style::EpochLines) {
        char line[200];
        std::snprintf(line, sizeof line, "epoch %d/%d  train loss %.5g", progress.epoch, progress.epochs,
                      progress.trainLoss);
        mErr << line;
        if (progress.validationLoss >= 0.0) {
            std::snprintf(line, sizeof line, "  validation loss %.5g%s", progress.validationLoss,
                          progress.best ? " *" : "");
            mErr << line;
        }
        std::snprintf(line, sizeof line, "  %.0f rows/s  ETA %s\n", progress.samplesPerSecond,
                      formatDuration(progress.remainingSeconds).c_str());
        mErr << line << std::flush;
    }
}

void TrainingReporter::finish()
{
    if (mBarShown)
        mErr << '\n' << std::flush;
    mBarShown = false;
}

} // namespace gpumem::cli
