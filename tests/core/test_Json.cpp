// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "RaisedInputError.h"
#include "TestSupport.h"
#include "io/InputError.h"
#include "io/Json.h"
#include "io/JsonWriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <sstream>

using gpumem::io::InputError, gpumem::io::Json, gpumem::io::parseJson;

namespace {

std::string_view view(const QByteArray &bytes)
{
    return std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

// The error parsing text as the file named file raises.
InputError parseError(const QByteArray &text, const char *file = "doc.json")
{
    return gpumem::tests::raisedInputError([&] { parseJson(view(text), file); });
}

std::string written(const Json &value, int indent)
{
    std::ostringstream out;
    gpumem::io::JsonWriter writer(out, indent);
    writer.value(value);
    return out.str();
}

// Compares with Qt's parser, which keeps objects sorted by key, so members are
// matched by name rather than by position.
bool sameAsQt(const Json &ours, const QJsonValue &theirs)
{
    if (ours.is_null())
        return theirs.isNull();
    if (ours.is_boolean())
        return theirs.isBool() && theirs.toBool() == ours.get<bool>();
    if (ours.is_number())
        return theirs.isDouble() && theirs.toDouble() == ours.get<double>();
    if (ours.is_string())
        return theirs.isString() && theirs.toString().toStdString() == ours.get<std::string>();
    if (ours.is_array()) {
        const QJsonArray array = theirs.toArray();
        if (!theirs.isArray() || array.size() != static_cast<qsizetype>(ours.size()))
            return false;
        for (qsizetype i = 0; i < array.size(); ++i)
            if (!sameAsQt(ours[static_cast<std::size_t>(i)], array.at(i)))
                return false;
        return true;
    }
    const QJsonObject object = theirs.toObject();
    if (!theirs.isObject() || object.size() != static_cast<qsizetype>(ours.size()))
        return false;
    for (const auto &[key, item] : ours.items()) {
        const QString name = QString::fromStdString(key);
        if (!object.contains(name) || !sameAsQt(item, object.value(name)))
            return false;
    }
    return true;
}

// The parser's refusal of a number JSON has no way to write.
QString notAJsonNumber(const char *text)
{
    return QStringLiteral("'%1' is not a JSON number; write null or a finite number").arg(QString::fromUtf8(text));
}

// The parser's own wording of a syntax error, after its common start.
QString syntaxError(const char *detail)
{
    return QStringLiteral("syntax error while parsing value - ") + QString::fromUtf8(detail);
}

} // namespace

class TestJson : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void parsesValuesAsQtDoes_data()
    {
        addColumns<QByteArray>("text");
        addRow("scalars", QByteArray(R"([null, true, false, 3000, -0, 0.1, -2.5E+2, 1e-3, ""])"));
        addRow("preset",
               QByteArray(
                   R"({"name": "small", "layers": [{"units": 256}, {"units": 64, "activation": null}], "lr": 1e-3})"));
        addRow("escapes", QByteArray("[\"a\\\"b\\\\c\", "
                                     R"("a\/b", "\b\f\n\r\t", "Gr\u00F6\u00dfe", "\ud83d\ude00"])"));
        addRow("raw UTF-8", QByteArray("[\"Größe \xF0\x9F\x98\x80\", \"\x7F\"]"));
        addRow("extremes", QByteArray("[5e-324, 1.7976931348623157e308, 2.2250738585072014e-308]"));
    }

    void parsesValuesAsQtDoes()
    {
        QFETCH(QByteArray, text);
        const Json ours = parseJson(view(text), "values.json");
        QJsonParseError error;
        const QJsonDocument theirs = QJsonDocument::fromJson(text, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QVERIFY(sameAsQt(ours, theirs.isArray() ? QJsonValue(theirs.array()) : QJsonValue(theirs.object())));
    }

    void keepsKeyOrderAndSignOfZero()
    {
        const Json object = parseJson(R"({"zeta": 1, "alpha": 2, "mid": 3, "": 4})", "order.json");
        std::vector<std::string> keys;
        for (const auto &member : object.items())
            keys.push_back(member.key());
        QCOMPARE(keys, (std::vector<std::string>{"zeta", "alpha", "mid", ""}));
        QCOMPARE(written(object, 0), std::string(R"({"zeta":1,"alpha":2,"mid":3,"":4})"));
        QVERIFY(std::signbit(parseJson("-0.0", "zero.json").get<double>()));
        QVERIFY(std::signbit(parseJson("-1e-400", "zero.json").get<double>()));
    }

    // Regression: the former reader held every number as a double, so integers
    // above 2^53 (seeds) lost their low bits.
    void keepsLargeIntegersExactly()
    {
        const Json numbers = parseJson("[18446744073709551557, 9007199254740993, -9223372036854775807]", "big.json");
        QCOMPARE(numbers[0].get<std::uint64_t>(), std::uint64_t(18446744073709551557ull));
        QCOMPARE(numbers[1].get<std::uint64_t>(), std::uint64_t(9007199254740993ull));
        QCOMPARE(numbers[2].get<std::int64_t>(), std::int64_t(-9223372036854775807ll));
        QCOMPARE(written(numbers, 0), std::string("[18446744073709551557,9007199254740993,-9223372036854775807]"));
    }

    void skipsByteOrderMark() { QVERIFY(parseJson("\xEF\xBB\xBF[1]", "bom.json") == Json::array({1})); }

    void reportsErrorsWithLocation_data()
    {
        addColumns<QByteArray, int, int, QString>("text", "line", "column", "message");
        addRow("trailing comma in array", QByteArray("[1, 2,]"), 1, 6, "trailing comma before ']'");
        addRow("trailing comma in object", QByteArray("{\n  \"a\": 1,\n}"), 2, 9, "trailing comma before '}'");
        addRow("line comment", QByteArray("{\n  // note\n  \"a\": 1\n}"), 2, 3, "comments are not allowed in JSON");
        addRow("block comment after value", QByteArray("[1] /* x */"), 1, 5, "comments are not allowed in JSON");
        addRow("NaN", QByteArray("NaN"), 1, 1, notAJsonNumber("NaN"));
        addRow("Infinity", QByteArray("[Infinity]"), 1, 2, notAJsonNumber("Infinity"));
        addRow("minus Infinity", QByteArray("[1, -Infinity]"), 1, 5, notAJsonNumber("-Infinity"));
        addRow("overflow", QByteArray("[1, 1e400]"), 1, 5, "number overflow parsing '1e400'");
        addRow("duplicate key", QByteArray(R"({"a": 1, "a": 2})"), 1, 10, "duplicate key 'a'");
        addRow("duplicate escaped key", QByteArray("{\"x\\\"y\": 1, \"x\\u0022y\": 2}"), 1, 13, "duplicate key 'x\"y'");
        addRow("depth 257", QByteArray(257, '[') + QByteArray(257, ']'), 1, 257, "nesting deeper than 256 levels");
        addRow("empty input", QByteArray(""), 1, 1, "empty input");
        addRow("only whitespace", QByteArray("  \n "), 2, 2, "empty input");
        addRow("nested duplicate", QByteArray("{\"a\": {\"b\": 1},\n \"c\": {\"b\": 2, \"b\": 3}}"), 2, 16,
               "duplicate key 'b'");
        addRow("columns count characters", QByteArray("[\"é😀\", x]"), 1, 8,
               syntaxError("invalid literal; last read: '\"é😀\", x'"));
        addRow("after byte-order mark", QByteArray("\xEF\xBB\xBF{}\n}"), 2, 1,
               syntaxError("unexpected '}'; expected end of input"));
    }

    void reportsErrorsWithLocation()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        const InputError error = parseError(text);
        QCOMPARE(QString::fromStdString(error.message()), message);
        QCOMPARE(error.line(), line);
        QCOMPARE(error.column(), column);
        QCOMPARE(error.file(), std::string("doc.json"));
        QCOMPARE(QString::fromUtf8(error.what()),
                 QStringLiteral("doc.json:%1:%2: %3").arg(line).arg(column).arg(message));
    }

    // What the grammar forbids is refused, each at the character at fault; the
    // wording is the parser's own.
    void rejectsWhatJsonForbids_data()
    {
        addColumns<QByteArray, int, QString>("text", "column", "reason");
        addRow("unterminated string", QByteArray("[\"abc"), 6, "missing closing quote");
        addRow("bad escape", QByteArray(R"("a\qb")"), 4, "forbidden character after backslash");
        addRow("lone high surrogate", QByteArray(R"(["\ud83d"])"), 9, "surrogate U+D800..U+DBFF");
        addRow("lone low surrogate", QByteArray(R"("x\ude00")"), 8, "surrogate U+DC00..U+DFFF");
        addRow("tab in string", QByteArray("\"a\tb\""), 3, "control character U+0009");
        addRow("invalid UTF-8", QByteArray("\"a\xC3(\""), 4, "ill-formed UTF-8 byte");
        addRow("encoded surrogate", QByteArray("\"\xED\xA0\x80\""), 3, "ill-formed UTF-8 byte");
        addRow("truncated UTF-8 at the end", QByteArray("\"\xF0\x9F"), 3, "ill-formed UTF-8 byte");
        addRow("leading zero", QByteArray("01"), 2, "unexpected number literal");
        addRow("plus sign", QByteArray("+1"), 1, "invalid literal");
        addRow("no digit after point", QByteArray("1."), 3, "invalid number");
        addRow("hexadecimal", QByteArray("0x10"), 2, "invalid literal");
        addRow("second value", QByteArray("1 2"), 3, "expected end of input");
        addRow("missing comma", QByteArray("[1 2]"), 4, "expected ']'");
        addRow("truncated object", QByteArray("{\"a\": 1"), 8, "expected '}'");
        addRow("unquoted key", QByteArray("{a: 1}"), 2, "object key");
        addRow("missing colon", QByteArray(R"({"a" 1})"), 6, "object separator");
        // Issue 24: the parser stopped at a NUL as at the end, so --config took "{...}\0garbage".
        addRow("NUL after the document", QByteArray("{\"epochs\":1}\0garbage", 21), 13, "a NUL byte");
        addRow("NUL inside a string", QByteArray("[\"a\0b\"]", 7), 4, "a NUL byte");
    }

    void rejectsWhatJsonForbids()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, column);
        QFETCH(QString, reason);
        const InputError error = parseError(text);
        const QString message = QString::fromStdString(error.message());
        QVERIFY2(message.contains(reason), error.what());
        QCOMPARE(error.line(), 1);
        QCOMPARE(error.column(), column);
        // The message quotes what was read; it must stay valid UTF-8 to print.
        QCOMPARE(message.toStdString(), error.message());
    }

    // Issue 24: a long invalid token came back inside a message of megabytes.
    void quotesALongTokenShortened()
    {
        // The parser quotes the whole string it was reading when it meets the control character.
        const InputError error = parseError("[\"" + QByteArray(1 << 20, 'x') + "\x01\"]");
        QVERIFY2(std::string(error.what()).size() < 300, error.what());
        QVERIFY(QString::fromStdString(error.message()).endsWith(QStringLiteral("\u2026")));
    }

    void acceptsNestingUpToTheLimit()
    {
        const int depth = gpumem::io::maxJsonDepth;
        const Json arrays = parseJson(view(QByteArray(depth, '[') + QByteArray(depth, ']')), "deep.json");
        const Json *level = &arrays;
        for (int i = 1; i < depth; ++i)
            level = &level->front();
        QVERIFY(level->is_array() && level->empty());

        QByteArray objects;
        for (int i = 0; i < depth; ++i)
            objects += "{\"k\":";
        objects += "1" + QByteArray(depth, '}');
        QVERIFY(parseJson(view(objects), "deep.json").is_object());
        QVERIFY_THROWS_EXCEPTION(InputError, parseJson(view("[" + objects + "]"), "deep.json"));
    }

    // A million '[' must be refused at the limit, not recursed into.
    void refusesHostileNestingWithoutRecursing()
    {
        const QByteArray hostile(1000000, '[');
        const InputError error = parseError(hostile, "hostile.json");
        QCOMPARE(error.column(), gpumem::io::maxJsonDepth + 1);
        QCOMPARE(error.message(), std::string("nesting deeper than 256 levels"));
    }

    void typedAccessorsNameWhatTheyFound_data()
    {
        addColumns<QByteArray, QString, QString>("text", "accessor", "message");
        addRow("string as number", QByteArray("\"12\""), "number", "expected a number, found a string");
        addRow("number as bool", QByteArray("1"), "bool", "expected a boolean, found a number");
        addRow("null as string", QByteArray("null"), "string", "expected a string, found null");
        addRow("object as array", QByteArray("{}"), "array", "expected an array, found an object");
        addRow("array as object", QByteArray("[]"), "object", "expected an object, found an array");
        addRow("find in array", QByteArray("[]"), "find", "expected an object, found an array");
        addRow("missing key", QByteArray(R"({"b": 1})"), "member", "missing key 'lr'");
        addRow("numberOr on string", QByteArray(R"({"lr": "fast"})"), "numberOr",
               "key 'lr': expected a number, found a string");
        addRow("strings with a number", QByteArray(R"(["a", 1])"), "strings", "expected a string, found a number");
        addRow("fraction as whole number", QByteArray("2.5"), "whole",
               "\"rounds\" must be a whole number from 0 to 10, not '2.500000'");
        addRow("large integer as whole number", QByteArray("18446744073709551557"), "whole",
               "\"rounds\" must be a whole number from 0 to 10, not '18446744073709551557'");
        addRow("negative as whole number", QByteArray("-1"), "whole",
               "\"rounds\" must be a whole number from 0 to 10, not '-1'");
    }

    void typedAccessorsNameWhatTheyFound()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, accessor);
        QFETCH(QString, message);
        const Json value = parseJson(view(text), "types.json");
        const auto error = gpumem::tests::raisedInputError([&] {
            if (accessor == "number")
                gpumem::io::toNumber(value);
            else if (accessor == "bool")
                gpumem::io::toBool(value);
            else if (accessor == "string")
                gpumem::io::toString(value);
            else if (accessor == "array")
                gpumem::io::toArray(value);
            else if (accessor == "object")
                gpumem::io::toObject(value);
            else if (accessor == "find")
                gpumem::io::findMember(value, "lr");
            else if (accessor == "member")
                gpumem::io::member(value, "lr");
            else if (accessor == "strings")
                gpumem::io::toStrings(value);
            else if (accessor == "whole")
                gpumem::io::toWholeNumber(value, 0, 10, "\"rounds\"");
            else
                gpumem::io::numberOr(value, "lr", 1.0);
        });
        QCOMPARE(QString::fromStdString(error.what()), message);
    }

    void typedAccessorsReadWhatTheyExpect()
    {
        const Json preset = parseJson(
            R"({"name": "mlp", "lr": 1e-3, "batch": 32, "shuffle": true, "seeds": ["a", "b"], "gap": null})", "p");
        QCOMPARE(gpumem::io::toString(gpumem::io::member(preset, "name")), std::string("mlp"));
        QCOMPARE(gpumem::io::toNumber(gpumem::io::member(preset, "lr")), 1e-3);
        QCOMPARE(gpumem::io::toNumber(gpumem::io::member(preset, "batch")), 32.0);
        QCOMPARE(gpumem::io::toBool(gpumem::io::member(preset, "shuffle")), true);
        QCOMPARE(gpumem::io::toStrings(gpumem::io::member(preset, "seeds")), (std::vector<std::string>{"a", "b"}));
        QCOMPARE(gpumem::io::findMember(preset, "epochs"), nullptr);
        QCOMPARE(gpumem::io::numberOr(preset, "epochs", 10.0), 10.0);
        QCOMPARE(gpumem::io::numberOr(preset, "gap", 0.5), 0.5);
        QCOMPARE(gpumem::io::numberOr(preset, "batch", 10.0), 32.0);
        QCOMPARE(gpumem::io::toWholeNumber(gpumem::io::member(preset, "batch"), 1, 64, "batch"), std::int64_t(32));
        QCOMPARE(gpumem::io::toWholeNumber(parseJson("4.0", "w"), 1, 64, "w"), std::int64_t(4));
    }

    void writesTreesThroughJsonWriter()
    {
        const QByteArray text = R"([[[]], {"k": {"k": [{"": -1.5e-300}]}}, "\ud83d\ude00\u0001", 0.30000000000000004])";
        const Json value = parseJson(view(text), "tree.json");
        for (int indent : {0, 2}) {
            const std::string out = written(value, indent);
            QVERIFY(parseJson(out, "written.json") == value);
            QCOMPARE(written(parseJson(out, "written.json"), indent), out);
        }
        QCOMPARE(written(Json::array({std::nan(""), 1.5, Json::object()}), 0), std::string("[null,1.5,{}]"));
    }

    // model.json must never hold a non-finite number, also when part of it is built as a tree.
    void refusesNonFiniteNumbersInTreesWhenAsked()
    {
        std::ostringstream out;
        gpumem::io::JsonWriter writer(out, 0);
        writer.refuseNonFiniteNumbers();
        QVERIFY_THROWS_EXCEPTION(InputError, writer.value(Json::object({{"scale", {1.0, HUGE_VAL}}})));
    }

    void readsJsonFiles()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const QString good = folder.filePath("preset.json");
        QVERIFY(gpumem::tests::writeFile(good, "{\n  \"batchSize\": 32,\n  \"name\": \"Gr\xC3\xB6\xC3\x9F\x65\"\n}\n"));
        const Json preset = gpumem::io::readJsonFile(good.toStdString());
        QCOMPARE(preset["batchSize"].get<int>(), 32);
        QCOMPARE(preset["name"].get<std::string>(), std::string("Größe"));

        const QString bad = folder.filePath("bad.json");
        QVERIFY(gpumem::tests::writeFile(bad, "{\n  \"batchSize\": 32,\n}\n"));
        const InputError badError =
            gpumem::tests::raisedInputError([&bad] { gpumem::io::readJsonFile(bad.toStdString()); });
        QCOMPARE(badError.file(), bad.toStdString());
        QCOMPARE(badError.line(), 2);
        QCOMPARE(badError.column(), 18);

        const std::string missing = folder.filePath("missing.json").toStdString();
        const InputError missingError =
            gpumem::tests::raisedInputError([&missing] { gpumem::io::readJsonFile(missing); });
        QCOMPARE(missingError.file(), missing);
        QCOMPARE(missingError.line(), 0);
        QCOMPARE(QString::fromStdString(missingError.what()),
                 QString::fromStdString(missing + ": cannot open the file for reading: No such file or directory"));
        QVERIFY_THROWS_EXCEPTION(InputError, gpumem::io::readJsonFile(folder.path().toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestJson)
#include "test_Json.moc"
