// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "data/LayerSequenceParser.h"

#include <QTest>

using gpumem::data::LayerSequenceError, gpumem::data::LayerTuple, gpumem::data::parseLayerSequence;

namespace {

std::vector<LayerTuple> parse(const std::string &text)
{
    std::vector<LayerTuple> layers;
    parseLayerSequence(text, layers);
    return layers;
}

} // namespace

class TestLayerSequenceParser : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void parsesGpuMemNetCell()
    {
        const auto layers = parse("[('linear', 1173, 2753031), ('batch_normalization', 1173, 2346), "
                                  "('ReLU', 1173, 0), ('Softmax', 197, 0)]");
        QCOMPARE(layers.size(), std::size_t(4));
        QCOMPARE(layers[0].type, std::string("linear"));
        QCOMPARE(layers[0].fields, (std::vector<double>{1173, 2753031}));
        QCOMPARE(layers[1].type, std::string("batch_normalization"));
        QCOMPARE(layers[1].fields, (std::vector<double>{1173, 2346}));
        QCOMPARE(layers[3].type, std::string("Softmax"));
        QCOMPARE(layers[3].fields, (std::vector<double>{197, 0}));
    }

    void acceptsPythonSyntaxVariants_data()
    {
        addColumns<QString, int, double>("text", "layers", "lastField");
        addRow("empty list", "[]", 0, 0.0);
        addRow("blanks everywhere", "  [ ( 'a' , 1 , 2 ) , ( \"b\" , 3 , 4 ) ]  ", 2, 4.0);
        addRow("trailing commas", "[('a', 1, 2,), ('b', 3,),]", 2, 3.0);
        addRow("floats and exponents", "[('a', 1.5, -2e3)]", 1, -2000.0);
        addRow("plus sign", "[('a', +7)]", 1, 7.0);
        addRow("escaped quote in type", "[('it\\'s', 1)]", 1, 1.0);
        addRow("newlines", "[\n('a', 1),\n('b', 2)\n]", 2, 2.0);
    }

    void acceptsPythonSyntaxVariants()
    {
        QFETCH(QString, text);
        QFETCH(int, layers);
        QFETCH(double, lastField);
        const auto parsed = parse(text.toStdString());
        QCOMPARE(static_cast<int>(parsed.size()), layers);
        if (layers > 0)
            QCOMPARE(parsed.back().fields.back(), lastField);
    }

    void reusesStorageWithoutStaleLayers()
    {
        std::vector<LayerTuple> layers;
        parseLayerSequence("[('a', 1, 2), ('b', 3, 4), ('c', 5, 6)]", layers);
        parseLayerSequence("[('d', 7)]", layers);
        QCOMPARE(layers.size(), std::size_t(1));
        QCOMPARE(layers[0].type, std::string("d"));
        QCOMPARE(layers[0].fields, std::vector<double>{7});
    }

    void rejectsMalformedCells_data()
    {
        addColumns<QString, int, QString>("text", "offset", "messagePart");
        addRow("empty", "", 0, "expected '['");
        addRow("not a list", "linear", 0, "expected '['");
        addRow("unclosed list", "[('a', 1)", 9, "expected ','");
        addRow("unclosed tuple", "[('a', 1", 8, "expected ',' or ')'");
        addRow("unquoted type", "[(linear, 1)]", 2, "quoted layer type");
        addRow("unterminated type", "[('linear, 1)]", 2, "unterminated");
        addRow("empty type", "[('', 1)]", 2, "empty layer type");
        addRow("no numbers", "[('ReLU')]", 8, "at least one number");
        addRow("text as number", "[('a', None)]", 7, "expected a number");
        addRow("nan", "[('a', nan)]", 7, "not finite");
        addRow("overflow", "[('a', 1e400)]", 7, "not finite");
        addRow("text after list", "[('a', 1)] extra", 11, "unexpected text");
        addRow("missing comma", "[('a', 1) ('b', 2)]", 10, "expected ','");
        addRow("nested list", "[[('a', 1)]]", 1, "expected '('");
    }

    void rejectsMalformedCells()
    {
        QFETCH(QString, text);
        QFETCH(int, offset);
        QFETCH(QString, messagePart);
        try {
            parse(text.toStdString());
            QFAIL("no error raised");
        } catch (const LayerSequenceError &error) {
            QVERIFY2(QString::fromUtf8(error.what()).contains(messagePart), error.what());
            QCOMPARE(static_cast<int>(error.offset()), offset);
        }
    }

    void recognisesSequenceCells()
    {
        QVERIFY(gpumem::data::looksLikeLayerSequence("[('a', 1)]"));
        QVERIFY(gpumem::data::looksLikeLayerSequence("  []"));
        QVERIFY(!gpumem::data::looksLikeLayerSequence("linear"));
        QVERIFY(!gpumem::data::looksLikeLayerSequence(""));
    }
};

QTEST_GUILESS_MAIN(TestLayerSequenceParser)
#include "test_LayerSequenceParser.moc"
