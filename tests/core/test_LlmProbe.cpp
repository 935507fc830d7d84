// SPDX-License-Identifier: GPL-3.0-or-later
#include "TestSupport.h"
#include "architectures/ArchitectureLibrary.h"
#include "data/ColumnNotes.h"
#include "io/InputError.h"
#include "probe/JobConfiguration.h"
#include "probe/JobSampler.h"
#include "probe/ProbeCsvLine.h"
#include "probe/ProbeRunner.h"
#include "workflows/LanguageModelJobSimulator.h"
#include "workflows/ProbeWorkflow.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <vector>

// `gpumem probe --family llm`: language-model jobs drawn over the shipped
// architectures and estimated on a GPU profile, the dataset datasets/llm_jobs.csv.

using gpumem::probe::JobConfiguration, gpumem::probe::JobFamily, gpumem::probe::JobSampler, gpumem::probe::ProbeRunner;

namespace {

const std::string kDataset = GPUMEM_TEST_DATA_DIR "/../../datasets/llm_jobs.csv";

bool contains(const std::vector<std::string> &names, const std::string &name)
{
    return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace

class TestLlmProbe : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void theFamilyIsNamedLlm()
    {
        QCOMPARE(gpumem::probe::parseJobFamily("llm"), JobFamily::Llm);
        QCOMPARE(std::string(gpumem::probe::jobFamilyName(JobFamily::Llm)), std::string("llm"));
    }

    void columnsDescribeTheModelAndTheRecipe()
    {
        const std::vector<std::string> names = ProbeRunner::columnNames(JobFamily::Llm, true);
        for (const char *name : {"architecture",
                                 "parameters",
                                 "hidden_size",
                                 "layers",
                                 "heads",
                                 "kv_heads",
                                 "intermediate_size",
                                 "vocabulary",
                                 "experts",
                                 "seq_len",
                                 "batch_size",
                                 "dtype",
                                 "autocast",
                                 "lora_rank",
                                 "lora_targets",
                                 "qlora",
                                 "checkpointing",
                                 "optimizer",
                                 "mode",
                                 "generated",
                                 "gpus",
                                 "sharding",
                                 "tensor_parallel",
                                 "simulated_gpu",
                                 "simulated_reserved_mib",
                                 "simulated_device_mib",
                                 "activations_mib",
                                 "fits",
                                 "status"})
            QVERIFY2(contains(names, name), name);
        // A language model has no GPUMemNet layer description.
        QVERIFY(!contains(names, "layer_sequence"));
        const std::vector<std::string> header = gpumem::tests::firstLines(kDataset, 1);
        QCOMPARE(header.size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(header.front()),
                 QString::fromStdString(gpumem::probe::joinCells(ProbeRunner::columnNames(JobFamily::Llm, true))));
    }

    void columnNotesKeepEveryOutcomeOutOfTheFeatures()
    {
        const gpumem::data::ColumnNotes notes = gpumem::data::readColumnNotes(kDataset);
        QCOMPARE(QString::fromStdString(notes.target), QStringLiteral("simulated_device_mib"));
        const std::vector<std::string> configuration = JobConfiguration::columnNames(JobFamily::Llm);
        // Every column after the configuration is measured from the job, but for the
        // three that say where (constant in the file): device, libtorch and the profile.
        for (const auto &name : ProbeRunner::columnNames(JobFamily::Llm, true)) {
            const bool chosen = contains(configuration, name);
            const bool where = name == "device" || name == "libtorch" || name == "simulated_gpu";
            QVERIFY2(contains(notes.outcomes, name) == (!chosen && !where), name.c_str());
        }
    }

    void aJobDependsOnlyOnSeedAndIndex()
    {
        const JobSampler sampler(JobFamily::Llm, "cpu", 42);
        const JobSampler again(JobFamily::Llm, "cuda", 42, 7, gpumem::probe::JobSizes::Gpu);
        QCOMPARE(QString::fromStdString(sampler.sample(17).key()), QString::fromStdString(again.sample(17).key()));
        QVERIFY(sampler.sample(17).key() != JobSampler(JobFamily::Llm, "cpu", 43).sample(17).key());
        // Written and read back, a job is the same job.
        const JobConfiguration job = sampler.sample(3);
        const std::vector<std::string> names = JobConfiguration::columnNames(JobFamily::Llm);
        const std::vector<std::string> values = job.columnValues();
        const JobConfiguration read = JobConfiguration::fromColumns(JobFamily::Llm, [&](const std::string &name) {
            return values[static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin())];
        });
        QCOMPARE(QString::fromStdString(read.key()), QString::fromStdString(job.key()));
    }

    void drawsStayWithinTheRecipes()
    {
        const JobSampler sampler(JobFamily::Llm, "cpu", 42);
        std::set<std::string> seen;
        int inference = 0;
        for (std::uint64_t index = 0; index < 600; ++index) {
            const JobConfiguration job = sampler.sample(index);
            seen.insert(job.architecture);
            const auto config = gpumem::architectures::resolveArchitecture(job.architecture);
            QCOMPARE(job.hiddenSize, static_cast<int>(config.hiddenSize));
            QVERIFY(job.sequenceLength % 64 == 0 && job.sequenceLength >= 128 && job.sequenceLength <= 8192);
            QVERIFY(job.sequenceLength + job.generated <= config.maxPositions);
            QVERIFY(job.batchSize >= 1 && job.batchSize <= 32);
            QVERIFY(job.gpus == 1 || job.gpus == 2 || job.gpus == 4 || job.gpus == 8);
            QVERIFY(job.tensorParallel <= job.gpus && job.gpus % job.tensorParallel == 0);
            if (job.tensorParallel > 1)
                QVERIFY(config.family == gpumem::architectures::Family::Llama);
            if (job.qlora)
                QVERIFY(job.loraRank > 0 && job.dtype != "float32");
            if (job.sharding.rfind("zero", 0) == 0)
                QVERIFY(job.optimizer != "adamw_8bit" && job.optimizer != "adafactor");
            if (job.mode == "inference") {
                ++inference;
                QCOMPARE(job.gpus, job.tensorParallel);
                QCOMPARE(job.loraRank, 0);
            }
        }
        QCOMPARE(seen.size(), gpumem::architectures::architectureNames().size());
        QVERIFY(inference > 30 && inference < 150);
    }

    void firstRowsReproduceTheDataset()
    {
        // gpumem probe --family llm --count 2200 --seed 42 --gpu h100-80 --out datasets/llm_jobs.csv
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        gpumem::workflows::ProbeConfiguration configuration;
        configuration.options.family = JobFamily::Llm;
        configuration.options.count = 2; // the sampler draws the same first jobs whatever the count
        configuration.options.seed = 42;
        configuration.options.outPath = folder.filePath("rows.csv").toStdString();
        configuration.gpu = "h100-80";
        gpumem::workflows::probeJobs(configuration);
        const std::vector<std::string> committed = gpumem::tests::firstLines(kDataset, 3);
        const std::vector<std::string> remade = gpumem::tests::firstLines(configuration.options.outPath, 3);
        QCOMPARE(remade.size(), std::size_t{3});
        QCOMPARE(committed.size(), std::size_t{3});
        for (std::size_t line = 0; line < remade.size(); ++line)
            QCOMPARE(QString::fromStdString(remade[line]), QString::fromStdString(committed[line]));
    }

    void aRecipeTheEstimateRefusesIsAnInvalidRow()
    {
        // ZeRO keeps DeepSpeed's float32 optimizer state: Adafactor is refused there.
        JobConfiguration job = JobSampler(JobFamily::Llm, "cpu", 42).sample(0);
        job.gpus = 2;
        job.sharding = "zero1";
        job.tensorParallel = 1;
        job.optimizer = "adafactor";
        const gpumem::workflows::LanguageModelJobSimulator simulator("h100-80");
        const auto measured = simulator.measure(job);
        QCOMPARE(measured.status, gpumem::probe::JobStatus::Invalid);
        QVERIFY(measured.message.find("zero1") != std::string::npos);
        std::vector<std::string> cells;
        QCOMPARE(gpumem::probe::splitCsvLine(ProbeRunner::formatRow(job, measured, "cpu", "h100-80"), cells),
                 std::size_t{0});
        const std::vector<std::string> names = ProbeRunner::columnNames(JobFamily::Llm, true);
        QCOMPARE(cells.size(), names.size());
        const auto cell = [&](const std::string &name) {
            return cells[static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin())];
        };
        QCOMPARE(QString::fromStdString(cell("status")), QStringLiteral("invalid"));
        QCOMPARE(QString::fromStdString(cell("simulated_device_mib")), QString());
        QCOMPARE(QString::fromStdString(cell("fits")), QString());
    }

    void withoutAProfileTheFamilyIsRefused()
    {
        QTemporaryDir folder;
        gpumem::probe::ProbeOptions options;
        options.family = JobFamily::Llm;
        options.count = 1;
        options.outPath = folder.filePath("rows.csv").toStdString();
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, ProbeRunner(options).run());
    }
};

QTEST_GUILESS_MAIN(TestLlmProbe)
#include "test_LlmProbe.moc"
