// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "io/InputError.h"
#include "io/SafeTensors.h"

#include <QTest>

#include <cstring>
#include <string>
#include <vector>

using gpumem::io::InputError, gpumem::io::SafeTensorsFile, gpumem::io::serializeSafeTensors, gpumem::io::TensorView;

namespace {

// A safetensors file written by hand: the length as 8 little-endian bytes, the header, the data.
std::string handMade(const std::string &header, const std::string &data)
{
    std::string file;
    for (int i = 0; i < 8; ++i)
        file.push_back(static_cast<char>((header.size() >> (8 * i)) & 0xff));
    return file + header + data;
}

std::string parseError(const std::string &file)
{
    try {
        SafeTensorsFile::parse(file, "w.safetensors");
    } catch (const InputError &error) {
        return error.what();
    }
    return "(parsed)";
}

} // namespace

class TestSafeTensors : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void writesTheDocumentedLayout()
    {
        const std::vector<float> weights{1.0f, -2.5f, 3.25f, 0.0f, 5.0f, 6.0f};
        const std::vector<std::int64_t> ids{7, -8};
        const std::string file = serializeSafeTensors(
            {{"w", "F32", {2, 3}, weights.data()}, {"ids", "I64", {2}, ids.data()}}, {{"format", "test"}});

        std::uint64_t headerSize = 0;
        for (int i = 7; i >= 0; --i)
            headerSize = (headerSize << 8) | static_cast<unsigned char>(file[static_cast<std::size_t>(i)]);
        QCOMPARE(headerSize % 8, std::uint64_t(0)); // padded so the buffers stay aligned
        const std::string header = file.substr(8, headerSize);
        QVERIFY2(header.find(R"("w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]})") != std::string::npos,
                 header.c_str());
        QVERIFY2(header.find(R"("ids":{"dtype":"I64","shape":[2],"data_offsets":[24,40]})") != std::string::npos,
                 header.c_str());
        QCOMPARE(file.size(), std::size_t(8 + headerSize + 40));
        float third;
        std::memcpy(&third, file.data() + 8 + headerSize + 8, 4);
        QCOMPARE(third, 3.25f);
    }

    void readsBackWhatItWrote()
    {
        const std::vector<float> weights{1.0f, -2.5f, 3.25f, 0.0f, 5.0f, 6.0f};
        const float scalar = 9.5f;
        const SafeTensorsFile file = SafeTensorsFile::parse(
            serializeSafeTensors({{"w", "F32", {2, 3}, weights.data()}, {"s", "F32", {}, &scalar}}, {{"k", "v"}}),
            "w.safetensors");
        QCOMPARE(file.tensors().size(), std::size_t(2));
        const auto *w = file.find("w");
        QVERIFY(w);
        QCOMPARE(w->shape, (std::vector<std::int64_t>{2, 3}));
        QCOMPARE(w->elementCount(), std::int64_t(6));
        std::vector<float> back(6);
        std::memcpy(back.data(), file.data(*w), 24);
        QCOMPARE(back, weights);
        QCOMPARE(file.find("s")->elementCount(), std::int64_t(1));
        QCOMPARE(file.metadata().at("k"), std::string("v"));
        QVERIFY(!file.find("missing"));
    }

    void refusesHostileFiles_data()
    {
        addColumns<QByteArray, QString>("file", "message");
        const auto row = [](const char *name, const std::string &file, const char *message) {
            addRow(name, QByteArray(file.data(), static_cast<int>(file.size())), QString(message));
        };
        const std::string eight(8, 'x');
        row("shorter than the length", "abc", "too short");
        row("header past the end", handMade("{}", "").substr(0, 9), "file holds only");
        std::string huge = handMade("{}", "");
        huge[7] = 0x7f; // a header length near 2^63
        row("header larger than the cap", huge, "more than the limit");
        row("not JSON", handMade("{\"w\": [", ""), "w.safetensors:1:");
        row("not an object", handMade("[1, 2]", ""), "must be a JSON object");
        row("duplicate name",
            handMade(R"({"w":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},)"
                     R"("w":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}})",
                     eight),
            "duplicate key 'w'");
        row("unknown dtype", handMade(R"({"w":{"dtype":"F7","shape":[1],"data_offsets":[0,1]}})", "x"),
            "no known dtype");
        row("negative dimension", handMade(R"({"w":{"dtype":"U8","shape":[-1],"data_offsets":[0,1]}})", "x"),
            "non-negative whole number");
        row("fractional offset", handMade(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1.5]}})", "x"),
            "non-negative whole number");
        row("size disagrees with shape", handMade(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", eight),
            "need 12");
        // 2^62 × 4 bytes overflows 64 bits; it must not wrap around to a small size.
        row("shape overflows",
            handMade(R"({"w":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,0]}})", ""), "too large");
        row("overlap",
            handMade(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},)"
                     R"("b":{"dtype":"U8","shape":[4],"data_offsets":[2,6]}})",
                     std::string(6, 'x')),
            "overlaps another");
        row("gap", handMade(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}})", eight), "gap");
        row("offset past the data", handMade(R"({"a":{"dtype":"U8","shape":[8],"data_offsets":[0,8]}})", "xx"),
            "data section holds 2");
        row("trailing bytes", handMade(R"({"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}})", eight),
            "data section holds 8");
        row("metadata not strings", handMade(R"({"__metadata__":{"k":1}})", ""), "object of strings");
        row("unknown member", handMade(R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"code":"x"}})", "x"),
            "unknown member 'code'");
        row("too many dimensions",
            handMade(R"({"w":{"dtype":"U8","shape":[1,1,1,1,1,1,1,1,1],"data_offsets":[0,1]}})", "x"),
            "at most 8 dimensions");
    }

    void refusesHostileFiles()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, message);
        const std::string error = parseError(std::string(file.constData(), static_cast<std::size_t>(file.size())));
        QVERIFY2(error.rfind("w.safetensors", 0) == 0, error.c_str());
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
        QVERIFY2(error.find('\n') == std::string::npos, error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSafeTensors)
#include "test_SafeTensors.moc"
