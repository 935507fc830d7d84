// SPDX-License-Identifier: GPL-3.0-or-later
#include "BaselineTestData.h"
#include "DataTables.h"

#include "io/Json.h"
#include "models/RegressorRegistry.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <fstream>
#include <sstream>

namespace {

std::uint64_t savedSeed(const std::string &directory)
{
    std::ifstream in(directory + "/model.json", std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const gpumem::io::Json metadata = gpumem::io::parseJson(text.str(), directory);
    const gpumem::io::Json &seed = gpumem::io::member(metadata, "seed");
    if (!seed.is_number_unsigned())
        throw std::runtime_error("the seed is not stored as an unsigned integer: " + seed.dump());
    return seed.get<std::uint64_t>();
}

} // namespace

class TestModelSeed : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void seedRoundTripsBitForBit_data()
    {
        addColumns<quint64>("seed");
        addRow("2^53 + 1", quint64(9007199254740993ull));
        addRow("2^63 + 1", quint64(9223372036854775809ull));
        addRow("largest prime below 2^64", quint64(18446744073709551557ull));
    }

    // Regression: model.json's seed was read back through a double, so a seed
    // above 2^53 came back with its low bits changed and a reloaded model
    // resumed (or saved again) with a different seed than the user gave.
    void seedRoundTripsBitForBit()
    {
        QFETCH(quint64, seed);
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(40, 1.0));
        const auto model = gpumem::models::createRegressor("ridge", gpumem::models::regressorHyperparameters("ridge"),
                                                           gpumem::tests::cpuSettings(seed));
        model->fit(dataset, gpumem::tests::firstRows(40));
        const std::string first = folder.filePath("first").toStdString();
        model->save(first);
        QCOMPARE(savedSeed(first), std::uint64_t(seed));

        // Loading and saving again writes the seed the loaded model holds.
        const std::string second = folder.filePath("second").toStdString();
        gpumem::models::loadRegressor(first)->save(second);
        QCOMPARE(savedSeed(second), std::uint64_t(seed));
    }

    // Folders written before seeds were stored unsigned hold seeds of 2^63 and
    // above as negative signed integers; they still read back to the same bits.
    void negativeSeedsOfOlderFoldersReadBack()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const auto dataset = gpumem::tests::baselineDataset(gpumem::tests::linearJobsCsv(40, 1.0));
        const auto model = gpumem::models::createRegressor("ridge", gpumem::models::regressorHyperparameters("ridge"),
                                                           gpumem::tests::cpuSettings(1));
        model->fit(dataset, gpumem::tests::firstRows(40));
        const std::string first = folder.filePath("first").toStdString();
        model->save(first);
        std::string text;
        {
            std::ifstream in(first + "/model.json", std::ios::binary);
            std::stringstream content;
            content << in.rdbuf();
            text = content.str();
        }
        const std::size_t at = text.find("\"seed\": 1,");
        QVERIFY(at != std::string::npos);
        text.replace(at, 10, "\"seed\": -59,");
        std::ofstream(first + "/model.json", std::ios::binary | std::ios::trunc) << text;
        const std::string second = folder.filePath("second").toStdString();
        gpumem::models::loadRegressor(first)->save(second);
        QCOMPARE(savedSeed(second), std::uint64_t(18446744073709551557ull));
    }
};

QTEST_GUILESS_MAIN(TestModelSeed)
#include "test_ModelSeed.moc"
