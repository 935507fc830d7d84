// SPDX-License-Identifier: GPL-3.0-or-later
// Each workflow's configuration checks itself (validate()) and its messages name
// the parameters: the workbench shows the plain names, `gpumem` its flags.

#include "RaisedInputError.h"
#include "io/InputError.h"
#include "models/RegressorRegistry.h"
#include "workflows/CompareWorkflow.h"
#include "workflows/ParameterFlags.h"
#include "workflows/ProbeWorkflow.h"
#include "workflows/SweepWorkflow.h"
#include "workflows/TrainWorkflow.h"

#include <QTest>

#include <cmath>

using gpumem::io::InputError;
using gpumem::tests::raisedInputError;

namespace {

// Checks that validate() refuses configuration with plain (what()) and flagged
// (withFlags) texts as given, and no "--" in the plain one.
template <typename Configuration>
void checkRefusal(const Configuration &configuration, const std::string &plain, const std::string &flagged)
{
    const InputError error = raisedInputError([&] { configuration.validate(); });
    QCOMPARE(std::string(error.what()), plain);
    QVERIFY2(plain.find("--") == std::string::npos, error.what());
    QCOMPARE(gpumem::workflows::withFlags(error.markedWhat()), flagged);
}

} // namespace

class ConfigurationValidationTest : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void defaultsAreValid()
    {
        gpumem::workflows::TrainConfiguration{}.validate();
        gpumem::workflows::SweepConfiguration{}.validate();
        gpumem::workflows::CompareConfiguration{}.validate();
        gpumem::workflows::ProbeConfiguration{}.validate();
    }

    void trainRefusesAWholeHoldOut()
    {
        gpumem::workflows::TrainConfiguration configuration;
        configuration.holdOutFraction = 1.0;
        checkRefusal(configuration, "test_fraction takes a number in [0, 1), not 1",
                     "--test-fraction takes a number in [0, 1), not 1");
        configuration.holdOutFraction = std::nan("");
        QVERIFY(!gpumem::tests::raisedMessage([&] { configuration.validate(); }).empty());
    }

    void trainRefusesToCalibrateAContinuedRun()
    {
        gpumem::workflows::TrainConfiguration configuration;
        configuration.calibration.emplace();
        configuration.validate(); // a calibration alone is fine
        configuration.continuing = gpumem::models::createRegressor(
            "decision_tree", gpumem::models::regressorHyperparameters("decision_tree"), {});
        checkRefusal(configuration, "coverage cannot be combined with resume_from; calibrate a training from scratch",
                     "--coverage cannot be combined with --resume-from; calibrate a training from scratch");
    }

    void sweepRefusesAShardBeyondItsCount()
    {
        gpumem::workflows::SweepConfiguration configuration;
        configuration.shard = 3;
        configuration.shards = 2;
        // The same words as `gpumem sweep --shard` gives the plan (runs::sweepShard).
        checkRefusal(configuration, "shard needs 0 <= I < N, not 3/2", "--shard I/N needs 0 <= I < N, not 3/2");
        configuration.shard = 0;
        configuration.shards = 0;
        QVERIFY(!gpumem::tests::raisedMessage([&] { configuration.validate(); }).empty());
    }

    void sweepRefusesANegativeHoldOut()
    {
        gpumem::workflows::SweepConfiguration configuration;
        configuration.holdOutFraction = -0.5;
        checkRefusal(configuration, "test_fraction takes a number in [0, 1), not -0.5",
                     "--test-fraction takes a number in [0, 1), not -0.5");
    }

    void compareRefusesRepetitionsOfAHoldOut()
    {
        gpumem::workflows::CompareConfiguration configuration;
        configuration.experiment.testFraction = 0.2;
        configuration.validate(); // one hold-out is fine
        configuration.experiment.repeats = 3;
        checkRefusal(configuration, "repeats and group_by need cross-validation, not test_fraction",
                     "--repeats and --group-by need cross-validation, not --test-fraction");
        configuration.experiment.repeats = 1;
        configuration.groupBy = "family";
        QVERIFY(!gpumem::tests::raisedMessage([&] { configuration.validate(); }).empty());
    }

    void probeRefusesAProfileOnTheCard()
    {
        gpumem::workflows::ProbeConfiguration configuration;
        configuration.gpu = "a100-80";
        configuration.validate(); // traced on the CPU
        configuration.options.device = "cuda";
        checkRefusal(configuration, "gpu traces on the CPU; leave out device cuda, which measures on the card",
                     "--gpu traces on the CPU; leave out --device cuda, which measures on the card");
    }

    void probeRefusesGpuSizesWithoutAProfile()
    {
        gpumem::workflows::ProbeConfiguration configuration;
        configuration.options.sizes = gpumem::probe::JobSizes::Gpu;
        checkRefusal(configuration,
                     "sizes gpu on the CPU needs gpu: such jobs are traced and extrapolated, not run at their batch",
                     "--sizes gpu on the CPU needs --gpu PROFILE: such jobs are traced and extrapolated, not run at "
                     "their batch");
        configuration.options.device = "cuda"; // measured on the card at their own size
        configuration.validate();
    }
};

QTEST_GUILESS_MAIN(ConfigurationValidationTest)
#include "test_ConfigurationValidation.moc"
