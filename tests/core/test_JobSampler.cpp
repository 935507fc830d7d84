// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe/JobLayers.h"
#include "probe/JobSampler.h"

#include <QTest>

#include <set>

using gpumem::probe::JobConfiguration, gpumem::probe::JobFamily, gpumem::probe::JobSampler;

class TestJobSampler : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void sameSeedSameConfigurations()
    {
        for (JobFamily family : {JobFamily::Mlp, JobFamily::Cnn, JobFamily::Transformer}) {
            const JobSampler first(family, "cpu", 7);
            const JobSampler second(family, "cpu", 7);
            for (std::uint64_t index = 0; index < 50; ++index)
                QCOMPARE(first.sample(index).key(), second.sample(index).key());
        }
    }

    void configurationDependsOnlyOnItsIndex()
    {
        // Drawing job 40 first or after the others gives the same job: resume relies on it.
        const JobSampler sampler(JobFamily::Cnn, "cpu", 3);
        const std::string direct = sampler.sample(40).key();
        for (std::uint64_t index = 0; index < 40; ++index)
            sampler.sample(index);
        QCOMPARE(sampler.sample(40).key(), direct);
    }

    void seedsAndIndicesGiveVariety()
    {
        const JobSampler sampler(JobFamily::Mlp, "cpu", 1);
        const JobSampler other(JobFamily::Mlp, "cpu", 2);
        std::set<std::string> keys;
        int differentFromOtherSeed = 0;
        for (std::uint64_t index = 0; index < 200; ++index) {
            keys.insert(sampler.sample(index).key());
            differentFromOtherSeed += sampler.sample(index).key() != other.sample(index).key();
        }
        QVERIFY(keys.size() >= 195);
        QVERIFY(differentFromOtherSeed >= 195);
    }

    void configurationsAreBuildable()
    {
        // Every draw describes a network: pooled maps keep a pixel, heads divide d_model.
        for (JobFamily family : {JobFamily::Mlp, JobFamily::Cnn, JobFamily::Transformer}) {
            const JobSampler sampler(family, "cpu", 11);
            for (std::uint64_t index = 0; index < 300; ++index) {
                const JobConfiguration job = sampler.sample(index);
                QVERIFY(job.batchSize > 0);
                QVERIFY(job.dtype == "float32" || job.dtype == "float64");
                QVERIFY(!gpumem::probe::describeLayers(job).empty());
                if (family == JobFamily::Transformer)
                    QCOMPARE(job.dModel % job.heads, 0);
            }
        }
    }

    void cudaDrawsHalfPrecision()
    {
        const JobSampler sampler(JobFamily::Transformer, "cuda", 5);
        std::set<std::string> dtypes;
        for (std::uint64_t index = 0; index < 100; ++index)
            dtypes.insert(sampler.sample(index).dtype);
        QVERIFY(dtypes.count("float16") == 1 && dtypes.count("bfloat16") == 1 && dtypes.count("float64") == 0);
    }
};

QTEST_GUILESS_MAIN(TestJobSampler)
#include "test_JobSampler.moc"
