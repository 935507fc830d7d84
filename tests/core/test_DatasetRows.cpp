// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "TestSupport.h"
#include "estimate/GpuProfile.h"
#include "estimate/ProbeJobSimulator.h"
#include "probe/JobConfiguration.h"
#include "probe/ProbeCsvLine.h"
#include "workflows/ProbeWorkflow.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

// The committed datasets are what the commands in datasets/README.md make: rows of
// each, measured again by this build, are the file's rows byte for byte (the CPU
// measurement and the simulation are deterministic).

using gpumem::probe::JobFamily;

namespace {

const std::string kDatasets = GPUMEM_TEST_DATA_DIR "/../../datasets/";
constexpr std::uint64_t kSimulationMemoryLimit = std::uint64_t{16384} << 20; // --memory-limit 16384

std::string mib(std::uint64_t bytes)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.6f", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return text;
}

} // namespace

class TestDatasetRows : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void firstRowsAreReproducible_data()
    {
        addColumns<QString, int, int, bool>("file", "family", "steps", "simulated");
        // gpumem probe --family F --count 1600 --seed 42 --out datasets/probe_F.csv
        addRow("probe_mlp", "probe_mlp.csv", int(JobFamily::Mlp), 3, false);
        addRow("probe_cnn", "probe_cnn.csv", int(JobFamily::Cnn), 3, false);
        addRow("probe_transformer", "probe_transformer.csv", int(JobFamily::Transformer), 3, false);
        // gpumem probe --family cnn --count 800 --seed 42 --steps 2 --sizes gpu --gpu a100-80 --memory-limit 16384
        addRow("gpu_cnn", "gpu_cnn.csv", int(JobFamily::Cnn), 2, true);
    }
    void firstRowsAreReproducible()
    {
        const auto [file, family, steps, simulated] =
            fetchColumns<QString, int, int, bool>("file", "family", "steps", "simulated");
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        gpumem::workflows::ProbeConfiguration configuration;
        configuration.options.family = static_cast<JobFamily>(family);
        configuration.options.count = 2; // the sampler draws the same first jobs whatever the count
        configuration.options.seed = 42;
        configuration.options.steps = steps;
        configuration.options.outPath = folder.filePath("rows.csv").toStdString();
        if (simulated) {
            configuration.options.sizes = gpumem::probe::JobSizes::Gpu;
            configuration.options.memoryLimitBytes = kSimulationMemoryLimit;
            configuration.gpu = "a100-80";
        }
        gpumem::workflows::probeJobs(configuration);
        const std::vector<std::string> committed = gpumem::tests::firstLines(kDatasets + file.toStdString(), 3);
        const std::vector<std::string> remade = gpumem::tests::firstLines(configuration.options.outPath, 3);
        QCOMPARE(remade.size(), std::size_t{3});
        for (std::size_t line = 0; line < remade.size(); ++line)
            QCOMPARE(QString::fromStdString(remade[line]), QString::fromStdString(committed[line]));
    }

    void aLongTransformerRowIsReproducible()
    {
        // Row 88 of gpu_transformer.csv: 2 layers of d_model 256 over 1,024 tokens (6 M
        // parameters, the cheapest row at that length), extrapolated from lengths 4–16.
        // The file's first row (117 M parameters) would cost this test 18 s.
        const std::vector<std::string> lines = gpumem::tests::firstLines(kDatasets + "gpu_transformer.csv", 89);
        QCOMPARE(lines.size(), std::size_t{89});
        std::vector<std::string> header;
        std::vector<std::string> cells;
        QCOMPARE(gpumem::probe::splitCsvLine(lines.front(), header), std::size_t{0});
        QCOMPARE(gpumem::probe::splitCsvLine(lines.back(), cells), std::size_t{0});
        QCOMPARE(cells.size(), header.size());
        const auto cell = [&](const std::string &name) {
            for (std::size_t i = 0; i < header.size(); ++i)
                if (header[i] == name)
                    return cells[i];
            return std::string();
        };
        const auto job = gpumem::probe::JobConfiguration::fromColumns(JobFamily::Transformer, cell);
        QCOMPARE(job.sequenceLength, 1024);
        const gpumem::estimate::ProbeJobSimulator simulator(gpumem::estimate::findGpuProfile("a100-80"), "a100-80",
                                                            kSimulationMemoryLimit);
        const auto measured = simulator.measure(job);
        QCOMPARE(QString::fromStdString(measured.message), QString());
        QCOMPARE(QString::fromStdString(mib(measured.peakAllocatedBytes)),
                 QString::fromStdString(cell("peak_allocated_mib")));
        QCOMPARE(QString::fromStdString(mib(measured.simulatedReservedBytes.value_or(0))),
                 QString::fromStdString(cell("simulated_reserved_mib")));
    }
};

QTEST_GUILESS_MAIN(TestDatasetRows)
#include "test_DatasetRows.moc"
