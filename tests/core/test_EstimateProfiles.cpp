// SPDX-License-Identifier: GPL-3.0-or-later
// GPU profiles: every shipped file is read and holds the workspaces its source
// names, hostile files are refused on one line; and the sample shapes an estimate takes.
#include "DataTables.h"
#include "RaisedInputError.h"
#include "TestSupport.h"

#include "estimate/EstimateConfiguration.h"
#include "estimate/GpuProfile.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

using namespace gpumem;

namespace {

// The profile files the project ships, one per card.
std::vector<std::filesystem::path> shippedProfiles()
{
    std::vector<std::filesystem::path> files;
    for (const auto &entry : std::filesystem::directory_iterator(GPUMEM_SHIPPED_GPU_DIR))
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The MiB of one cuBLAS workspace under the first CUBLAS_WORKSPACE_CONFIG
// (":KiB:count" pairs, as ":4096:2:16:8") that a profile's source names after
// "workspace_mib:", or 0 when it names none.
double workspaceConfigMib(const std::string &source)
{
    const std::size_t from = source.find("workspace_mib:");
    if (from == std::string::npos)
        return 0.0;
    // The first ':' that a digit follows starts the setting; it runs while ":digits" do.
    std::size_t at = from;
    const auto digitAt = [&source](std::size_t index) {
        return index < source.size() && std::isdigit(static_cast<unsigned char>(source[index])) != 0;
    };
    while ((at = source.find(':', at)) != std::string::npos && !digitAt(at + 1))
        ++at;
    std::vector<double> numbers;
    while (at != std::string::npos && at < source.size() && source[at] == ':' && digitAt(at + 1)) {
        std::size_t end = at + 1;
        while (digitAt(end))
            ++end;
        numbers.push_back(std::stod(source.substr(at + 1, end - at - 1)));
        at = end;
    }
    if (numbers.empty())
        return 0.0;
    double kib = 0.0;
    for (std::size_t i = 0; i + 1 < numbers.size(); i += 2)
        kib += numbers[i] * numbers[i + 1];
    return kib / 1024.0;
}

} // namespace

class TestEstimateProfiles : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void installedProfilesAreRead()
    {
        const std::vector<std::string> names = estimate::gpuProfileNames();
        const std::vector<std::filesystem::path> shipped = shippedProfiles();
        QVERIFY(shipped.size() >= 2);
        for (const auto &file : shipped)
            QVERIFY2(std::find(names.begin(), names.end(), file.stem().string()) != names.end(), file.c_str());
        for (const auto &name : names) {
            const estimate::GpuProfile profile = estimate::findGpuProfile(name);
            QVERIFY(profile.capacityMib > profile.contextMib + profile.workspaceMib);
            QVERIFY(!profile.source.empty());
        }
        QCOMPARE(estimate::findGpuProfile("A100-80").capacityMib, 80.0 * 1024.0);
        QVERIFY(!tests::raisedMessage([] { estimate::findGpuProfile("a100-81"); }).empty());
    }

    void profilesHoldTwoCublasWorkspaces()
    {
        // One workspace per cuBLAS handle: the training loop's thread and autograd's device
        // thread, each of the CUBLAS_WORKSPACE_CONFIG the profile's source names for it
        // (PyTorch's default :4096:2:16:8 is 2 x 4 MiB + 8 x 16 KiB = 8.125 MiB per handle,
        // whole MiB in the profiles; :4096:8, which Hopper gets, is 32 MiB).
        for (const auto &file : shippedProfiles()) {
            const estimate::GpuProfile profile = estimate::readGpuProfile(file.string());
            const double perHandle = std::floor(workspaceConfigMib(profile.source));
            QVERIFY2(perHandle > 0.0, file.c_str());
            QCOMPARE(profile.workspaceMib, 2 * perHandle);
            QCOMPARE(estimate::findGpuProfile(file.stem().string()).workspaceMib, profile.workspaceMib);
        }
    }

    void hostileProfilesAreRefusedOnOneLine_data()
    {
        addColumns<QString>("content");
        addRow("not json", "{\"name\": ");
        addRow("array", "[1, 2]");
        addRow("missing capacity", R"({"name":"x","context_mib":1,"workspace_mib":1,"source":"s"})");
        addRow("capacity text", R"({"name":"x","capacity_mib":"80","context_mib":1,"workspace_mib":1,"source":"s"})");
        addRow("negative context", R"({"name":"x","capacity_mib":80,"context_mib":-1,"workspace_mib":1,"source":"s"})");
        addRow("huge capacity", R"({"name":"x","capacity_mib":1e300,"context_mib":1,"workspace_mib":1,"source":"s"})");
        addRow("context above capacity",
               R"({"name":"x","capacity_mib":80,"context_mib":100,"workspace_mib":1,"source":"s"})");
        addRow("unknown key",
               R"({"name":"x","capacity_mib":80,"context_mib":1,"workspace_mib":1,"source":"s","extra":1})");
        addRow("empty name", R"({"name":"","capacity_mib":80,"context_mib":1,"workspace_mib":1,"source":"s"})");
        // Issue 24: the profile had its own lenient reader, which kept the last of two names.
        addRow("duplicate key",
               R"({"name":"x","name":"y","capacity_mib":80,"context_mib":1,"workspace_mib":1,"source":"s"})");
    }
    void hostileProfilesAreRefusedOnOneLine()
    {
        QFETCH(QString, content);
        QTemporaryDir folder;
        const QString path = folder.filePath("profile.json");
        QVERIFY(writeText(path, content.toStdString()));
        const std::string message = tests::raisedMessage([&] { estimate::readGpuProfile(path.toStdString()); });
        QVERIFY2(!message.empty(), qPrintable(content));
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
        QVERIFY2(message.rfind(path.toStdString(), 0) == 0, message.c_str());
    }

    void oversizedProfileIsRefusedBeforeReading()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("big.json");
        QVERIFY(writeText(path, "{\"name\":\"" + std::string(100000, 'x') + "\"}"));
        QVERIFY(!tests::raisedMessage([&] { estimate::readGpuProfile(path.toStdString()); }).empty());
    }

    void sampleShapesAreChecked()
    {
        QCOMPARE(estimate::parseSampleShape("3,224,224", "--input-shape"), (std::vector<std::int64_t>{3, 224, 224}));
        for (const char *bad : {"", "3,,4", "0", "-1", "3,x", "3,224,", "99999999999"})
            QVERIFY2(!tests::raisedMessage([&] { estimate::parseSampleShape(bad, "--input-shape"); }).empty(), bad);
    }
};

QTEST_GUILESS_MAIN(TestEstimateProfiles)
#include "test_EstimateProfiles.moc"
