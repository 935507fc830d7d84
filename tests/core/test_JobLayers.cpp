// SPDX-License-Identifier: GPL-3.0-or-later
#include "ProbeJobs.h"
#include "data/LayerSequenceParser.h"
#include "probe/JobBuilder.h"
#include "probe/JobLayers.h"
#include "probe/JobSampler.h"

#include <QTest>

using gpumem::probe::JobConfiguration;
using gpumem::probe::JobFamily;

class TestJobLayers : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void mlpLayersByHand()
    {
        JobConfiguration job = gpumem::tests::mlpJob(10, 2, 64, "pyramid", 3);
        job.batchNorm = true;
        job.dropout = 0.5;
        const std::string text = gpumem::probe::formatLayerSequence(gpumem::probe::describeLayers(job));
        // 10→64 (704 parameters), batch norm (128), 64→32 (2080), 32→3 (99).
        QCOMPARE(QString::fromStdString(text),
                 QStringLiteral("[('linear', 64, 704), ('batch_normalization', 64, 128), ('ReLU', 64, 0), "
                                "('dropout', 64, 0), ('linear', 32, 2080), ('batch_normalization', 32, 64), "
                                "('ReLU', 32, 0), ('dropout', 32, 0), ('linear', 3, 99)]"));
    }

    void sequencesParseAndCountTheNetworksParameters()
    {
        // The parameter field of every family adds up to what LibTorch builds.
        for (JobFamily family : {JobFamily::Mlp, JobFamily::Cnn, JobFamily::Transformer}) {
            const gpumem::probe::JobSampler sampler(family, "cpu", 9);
            for (std::uint64_t index = 0; index < 20; ++index) {
                const JobConfiguration job = sampler.sample(index);
                std::vector<gpumem::data::LayerTuple> parsed;
                gpumem::data::parseLayerSequence(gpumem::probe::formatLayerSequence(gpumem::probe::describeLayers(job)),
                                                 parsed);
                double described = 0.0;
                for (const auto &layer : parsed)
                    described += layer.fields.at(1);
                const auto built = gpumem::probe::JobBuilder::build(job, torch::Device(torch::kCPU));
                double counted = 0.0;
                for (const auto &parameter : built.network->parameters())
                    counted += static_cast<double>(parameter.numel());
                QCOMPARE(described, counted);
            }
        }
    }

    void poolingToNothingIsRefused()
    {
        const JobConfiguration job = gpumem::tests::pooledCnnJob(1, 4, 3, 8, 2);
        QVERIFY_THROWS_EXCEPTION(std::exception, gpumem::probe::describeLayers(job));
    }
};

QTEST_GUILESS_MAIN(TestJobLayers)
#include "test_JobLayers.moc"
