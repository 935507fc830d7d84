// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/InputError.h"
#include "io/JsonValue.h"
#include "io/JsonWriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <sstream>

using gpumem::io::InputError;
using gpumem::io::JsonValue;
using gpumem::io::JsonWriter;
using gpumem::io::parseJson;

Q_DECLARE_METATYPE(JsonValue)

namespace gpumem::io {

// Lets QCOMPARE print both sides of a failed comparison as JSON.
char *toString(const JsonValue &value)
{
    std::ostringstream out;
    JsonWriter writer(out, 0);
    writeJson(writer, value);
    return qstrdup(out.str().c_str());
}

} // namespace gpumem::io

namespace {

std::string_view view(const QByteArray &bytes)
{
    return std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

std::string toJsonText(const JsonValue &value, int indent)
{
    std::ostringstream out;
    JsonWriter writer(out, indent);
    writeJson(writer, value);
    return out.str();
}

// Compares with Qt's parser, which keeps objects sorted by key, so members are
// matched by name rather than by position.
bool sameAsQt(const JsonValue &ours, const QJsonValue &theirs)
{
    switch (ours.type()) {
    case JsonValue::Type::Null: return theirs.isNull();
    case JsonValue::Type::Bool: return theirs.isBool() && theirs.toBool() == ours.toBool();
    case JsonValue::Type::Number: return theirs.isDouble() && theirs.toDouble() == ours.toNumber();
    case JsonValue::Type::String: return theirs.isString() && theirs.toString().toStdString() == ours.toString();
    case JsonValue::Type::Array: {
        const QJsonArray array = theirs.toArray();
        if (!theirs.isArray() || array.size() != static_cast<qsizetype>(ours.toArray().size()))
            return false;
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (!sameAsQt(ours.toArray()[static_cast<std::size_t>(i)], array.at(i)))
                return false;
        }
        return true;
    }
    case JsonValue::Type::Object: {
        const QJsonObject object = theirs.toObject();
        if (!theirs.isObject() || object.size() != static_cast<qsizetype>(ours.toObject().size()))
            return false;
        for (const auto &[key, item] : ours.toObject()) {
            const QString name = QString::fromStdString(key);
            if (!object.contains(name) || !sameAsQt(item, object.value(name)))
                return false;
        }
        return true;
    }
    }
    return false;
}

} // namespace

class TestJsonValue : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void parsesEveryValueType_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<JsonValue>("expected");
        QTest::addColumn<int>("type");
        QTest::newRow("null") << QByteArray("null") << JsonValue() << int(JsonValue::Type::Null);
        QTest::newRow("true") << QByteArray("true") << JsonValue(true) << int(JsonValue::Type::Bool);
        QTest::newRow("false") << QByteArray(" false ") << JsonValue(false) << int(JsonValue::Type::Bool);
        QTest::newRow("integer") << QByteArray("3000") << JsonValue(3000) << int(JsonValue::Type::Number);
        QTest::newRow("negative zero") << QByteArray("-0") << JsonValue(-0.0) << int(JsonValue::Type::Number);
        QTest::newRow("fraction") << QByteArray("0.1") << JsonValue(0.1) << int(JsonValue::Type::Number);
        QTest::newRow("exponent") << QByteArray("-2.5E+2") << JsonValue(-250.0) << int(JsonValue::Type::Number);
        QTest::newRow("negative exponent") << QByteArray("1e-3") << JsonValue(0.001) << int(JsonValue::Type::Number);
        QTest::newRow("smallest subnormal")
            << QByteArray("5e-324") << JsonValue(4.9406564584124654e-324) << int(JsonValue::Type::Number);
        QTest::newRow("underflow is zero") << QByteArray("1e-400") << JsonValue(0.0) << int(JsonValue::Type::Number);
        QTest::newRow("long fraction underflow")
            << QByteArray("0.0000000001e-320") << JsonValue(0.0) << int(JsonValue::Type::Number);
        QTest::newRow("largest double") << QByteArray("1.7976931348623157e308") << JsonValue(1.7976931348623157e308)
                                        << int(JsonValue::Type::Number);
        QTest::newRow("string") << QByteArray("\"Max GPU Memory (MiB)\"") << JsonValue("Max GPU Memory (MiB)")
                                << int(JsonValue::Type::String);
        QTest::newRow("empty string") << QByteArray("\"\"") << JsonValue("") << int(JsonValue::Type::String);
        QTest::newRow("empty array") << QByteArray("[ ]") << JsonValue::array() << int(JsonValue::Type::Array);
        QTest::newRow("empty object") << QByteArray("{\r\n}") << JsonValue::object() << int(JsonValue::Type::Object);
        QTest::newRow("byte-order mark") << QByteArray("\xEF\xBB\xBF[1]") << JsonValue(JsonValue::Array{1})
                                         << int(JsonValue::Type::Array);
    }

    void parsesEveryValueType()
    {
        QFETCH(QByteArray, text);
        QFETCH(JsonValue, expected);
        QFETCH(int, type);
        const JsonValue value = parseJson(view(text), "value.json");
        QCOMPARE(value, expected);
        QCOMPARE(int(value.type()), type);
        QCOMPARE(value.isNull(), type == int(JsonValue::Type::Null));
        QCOMPARE(value.isBool(), type == int(JsonValue::Type::Bool));
        QCOMPARE(value.isNumber(), type == int(JsonValue::Type::Number));
        QCOMPARE(value.isString(), type == int(JsonValue::Type::String));
        QCOMPARE(value.isArray(), type == int(JsonValue::Type::Array));
        QCOMPARE(value.isObject(), type == int(JsonValue::Type::Object));
    }

    void keepsTheSignOfZero()
    {
        QVERIFY(std::signbit(parseJson("-0", "zero.json").toNumber()));
        QVERIFY(std::signbit(parseJson("-1e-400", "zero.json").toNumber()));
        QVERIFY(!std::signbit(parseJson("0", "zero.json").toNumber()));
    }

    void parsesNestedDocuments()
    {
        const JsonValue preset = parseJson(R"({
  "name": "small MLP",
  "model": {"layers": [{"units": 256, "activation": "relu"}, {"units": 64, "activation": null}]},
  "training": {"batchSize": 32, "learningRate": 1e-3, "shuffle": true, "seeds": [1, 2, 3]}
})",
                                           "preset.json");
        QCOMPARE(preset.at("name").toString(), std::string("small MLP"));
        const JsonValue::Array &layers = preset.at("model").at("layers").toArray();
        QCOMPARE(layers.size(), std::size_t(2));
        QCOMPARE(layers[0].at("units").toNumber(), 256.0);
        QCOMPARE(layers[0].at("activation").toString(), std::string("relu"));
        QVERIFY(layers[1].at("activation").isNull());
        const JsonValue &training = preset.at("training");
        QCOMPARE(training.at("learningRate").toNumber(), 1e-3);
        QCOMPARE(training.at("shuffle").toBool(), true);
        QCOMPARE(training.at("seeds"), JsonValue(JsonValue::Array{1, 2, 3}));
        QCOMPARE(training.find("epochs"), nullptr);
        QCOMPARE(training.numberOr("epochs", 10.0), 10.0);
        QCOMPARE(training.numberOr("batchSize", 10.0), 32.0);
        QCOMPARE(layers[1].numberOr("activation", 0.5), 0.5);
    }

    void keepsKeyOrder()
    {
        const JsonValue object = parseJson(R"({"zeta": 1, "alpha": 2, "mid": 3, "": 4})", "order.json");
        std::vector<std::string> keys;
        for (const auto &member : object.toObject())
            keys.push_back(member.first);
        QCOMPARE(keys, (std::vector<std::string>{"zeta", "alpha", "mid", ""}));
        QCOMPARE(toJsonText(object, 0), std::string(R"({"zeta":1,"alpha":2,"mid":3,"":4})"));
    }

    void decodesEscapes_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("decoded");
        QTest::newRow("quote and backslash") << QByteArray("\"a\\\"b\\\\c\"") << QByteArray("a\"b\\c");
        QTest::newRow("solidus") << QByteArray(R"("a\/b")") << QByteArray("a/b");
        QTest::newRow("control escapes") << QByteArray(R"("\b\f\n\r\t")") << QByteArray("\b\f\n\r\t");
        QTest::newRow("two-byte") << QByteArray(R"("Gr\u00F6\u00dfe")") << QByteArray("Größe");
        QTest::newRow("three-byte") << QByteArray(R"("\u20ac")") << QByteArray("\xE2\x82\xAC");
        QTest::newRow("surrogate pair") << QByteArray(R"("\ud83d\ude00")") << QByteArray("\xF0\x9F\x98\x80");
        QTest::newRow("highest code point") << QByteArray(R"("\uDBFF\uDFFF")") << QByteArray("\xF4\x8F\xBF\xBF");
        QTest::newRow("nul character") << QByteArray(R"("a\u0000b")") << QByteArray("a\0b", 3);
        QTest::newRow("raw UTF-8 kept") << QByteArray("\"Größe \xF0\x9F\x98\x80\"")
                                        << QByteArray("Größe \xF0\x9F\x98\x80");
        QTest::newRow("delete character") << QByteArray("\"\x7F\"") << QByteArray("\x7F");
    }

    void decodesEscapes()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, decoded);
        QCOMPARE(QByteArray::fromStdString(parseJson(view(text), "escape.json").toString()), decoded);
    }

    void roundTripsThroughJsonWriter_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("scalar") << QByteArray("0.30000000000000004");
        QTest::newRow("flat object") << QByteArray(R"({"b": 1, "a": [true, false, null], "c": "x\ny"})");
        QTest::newRow("nested") << QByteArray(R"([[[]], {"k": {"k": [{"": -1.5e-300}]}}, "\ud83d\ude00\u0001"])");
        QTest::newRow("numbers") << QByteArray("[0, -0, 1e21, 123456789012345678, 2.2250738585072014e-308, 5e-324]");
    }

    void roundTripsThroughJsonWriter()
    {
        QFETCH(QByteArray, text);
        const JsonValue value = parseJson(view(text), "original.json");
        for (int indent : {0, 2}) {
            const std::string written = toJsonText(value, indent);
            QCOMPARE(parseJson(written, "written.json"), value);
            // Writing again gives the same text: nothing drifts across generations.
            QCOMPARE(toJsonText(parseJson(written, "written.json"), indent), written);
        }
    }

    void matchesQJsonDocument_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("preset") << QByteArray(
            R"({"optimizer": "adam", "learningRate": 0.0003, "betas": [0.9, 0.999], "amp": false, "clip": null})");
        QTest::newRow("metadata") << QByteArray(R"json({"model": {"name": "Gr\u00f6\u00dfe \ud83d\ude00", "rows": 3000,
            "columns": ["Max GPU Memory (MiB)", "Batch Size"], "metrics": {"mae": 12.5, "r2": 0.97}}})json");
        QTest::newRow("array of mixed") << QByteArray(R"([1, -2.5e-3, "tab\there", [], {}, [null, true]])");
        QTest::newRow("escapes") << QByteArray(
            "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\", \"\\u0000\\u001f\\u007f\\u00e9\\uffff\"]");
    }

    void matchesQJsonDocument()
    {
        QFETCH(QByteArray, text);
        QJsonParseError error;
        const QJsonDocument reference = QJsonDocument::fromJson(text, &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const JsonValue ours = parseJson(view(text), "reference.json");
        const QJsonValue theirs = reference.isArray() ? QJsonValue(reference.array()) : QJsonValue(reference.object());
        QVERIFY(sameAsQt(ours, theirs));
    }

    void reportsErrorsWithLocation_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");
        QTest::newRow("trailing comma in array") << QByteArray("[1, 2,]") << 1 << 6 << "trailing comma before ']'";
        QTest::newRow("trailing comma in object")
            << QByteArray("{\n  \"a\": 1,\n}") << 2 << 9 << "trailing comma before '}'";
        QTest::newRow("line comment") << QByteArray("{\n  // note\n  \"a\": 1\n}") << 2 << 3
                                      << "comments are not allowed in JSON";
        QTest::newRow("block comment after value")
            << QByteArray("[1] /* x */") << 1 << 5 << "comments are not allowed in JSON";
        QTest::newRow("unterminated string") << QByteArray("[\"abc") << 1 << 2 << "unterminated string";
        QTest::newRow("unterminated escape") << QByteArray("\"abc\\") << 1 << 1 << "unterminated string";
        QTest::newRow("bad escape") << QByteArray(R"("a\qb")") << 1 << 3 << R"(invalid escape '\q' in a string)";
        QTest::newRow("short unicode escape")
            << QByteArray(R"("\u12G4")") << 1 << 2 << R"(invalid escape '\u12G', \u needs four hex digits)";
        QTest::newRow("lone high surrogate")
            << QByteArray(R"(["\ud83d"])") << 1 << 3 << R"(lone surrogate '\ud83d' in a string)";
        QTest::newRow("lone low surrogate")
            << QByteArray(R"("x\ude00")") << 1 << 3 << R"(lone surrogate '\ude00' in a string)";
        QTest::newRow("high surrogate without low")
            << QByteArray(R"("\ud83d\u0041")") << 1 << 2 << R"(lone surrogate '\ud83d' in a string)";
        QTest::newRow("tab in string") << QByteArray("\"a\tb\"") << 1 << 3
                                       << "unescaped control character U+0009 in a string";
        QTest::newRow("newline in string")
            << QByteArray("{\"k\":\n\"ab\ncd\"}") << 2 << 4 << "unescaped control character U+000A in a string";
        QTest::newRow("invalid UTF-8") << QByteArray("\"a\xC3(\"") << 1 << 3 << "invalid UTF-8 in a string";
        QTest::newRow("encoded surrogate") << QByteArray("\"\xED\xA0\x80\"") << 1 << 2 << "invalid UTF-8 in a string";
        QTest::newRow("leading zero") << QByteArray("01") << 1 << 1
                                      << "invalid number '01', leading zeros are not allowed";
        QTest::newRow("negative leading zero")
            << QByteArray("[-012]") << 1 << 2 << "invalid number '-012', leading zeros are not allowed";
        QTest::newRow("no digit after point")
            << QByteArray("1.") << 1 << 1 << "invalid number '1.', a digit must follow the decimal point";
        QTest::newRow("no digit before point")
            << QByteArray(".5") << 1 << 1 << "invalid number '.5', a digit must come before the decimal point";
        QTest::newRow("lone minus") << QByteArray("-") << 1 << 1 << "invalid number '-'";
        QTest::newRow("plus sign") << QByteArray("+1") << 1 << 1 << "invalid number '+1', a leading '+' is not allowed";
        QTest::newRow("empty exponent") << QByteArray("[1e]") << 1 << 2
                                        << "invalid number '1e', the exponent needs digits";
        QTest::newRow("hexadecimal") << QByteArray("0x10") << 1 << 1 << "invalid number '0x10'";
        QTest::newRow("two points") << QByteArray("1.2.3") << 1 << 1 << "invalid number '1.2.3'";
        QTest::newRow("NaN") << QByteArray("NaN") << 1 << 1 << "expected a value, found 'NaN'";
        QTest::newRow("Infinity") << QByteArray("[Infinity]") << 1 << 2 << "expected a value, found 'Infinity'";
        QTest::newRow("minus Infinity") << QByteArray("-Infinity") << 1 << 1 << "invalid number '-Infinity'";
        QTest::newRow("overflow") << QByteArray("1e400") << 1 << 1 << "number out of range: '1e400'";
        QTest::newRow("negative overflow") << QByteArray("[-1234e306]") << 1 << 2 << "number out of range: '-1234e306'";
        QTest::newRow("huge exponent") << QByteArray("1e99999999999999999999") << 1 << 1
                                       << "number out of range: '1e99999999999999999999'";
        QTest::newRow("duplicate key") << QByteArray(R"({"a": 1, "a": 2})") << 1 << 10 << "duplicate key 'a'";
        QByteArray wide = "{";
        for (int i = 0; i < 40; ++i)
            wide += "\"k" + QByteArray::number(i) + "\": " + QByteArray::number(i) + ", ";
        const int repeatedKey = int(wide.size()) + 1;
        wide += "\"k3\": 0}";
        QTest::newRow("duplicate key in a large object") << wide << 1 << repeatedKey << "duplicate key 'k3'";
        QTest::newRow("depth 257") << QByteArray(257, '[') + QByteArray(257, ']') << 1 << 257
                                   << "nesting deeper than 256 levels";
        QTest::newRow("garbage after value")
            << QByteArray("{}\n x") << 2 << 2 << "expected the end of input after the JSON value, found 'x'";
        QTest::newRow("second value") << QByteArray("1 2") << 1 << 3
                                      << "expected the end of input after the JSON value, found '2'";
        QTest::newRow("literal with suffix") << QByteArray("truex") << 1 << 1 << "expected a value, found 'truex'";
        QTest::newRow("number with suffix") << QByteArray("[12px]") << 1 << 2 << "invalid number '12px'";
        QTest::newRow("empty input") << QByteArray("") << 1 << 1 << "empty input";
        QTest::newRow("only whitespace") << QByteArray("  \n ") << 2 << 2 << "empty input";
        QTest::newRow("missing comma") << QByteArray("[1 2]") << 1 << 4
                                       << "expected ',' or ']' after an array element, found '2'";
        QTest::newRow("truncated array") << QByteArray("[1,") << 1 << 4 << "expected a value, found end of input";
        QTest::newRow("truncated object")
            << QByteArray("{\"a\": 1") << 1 << 8 << "expected ',' or '}' after an object member, found end of input";
        QTest::newRow("unquoted key") << QByteArray("{a: 1}") << 1 << 2 << "expected a string key, found 'a'";
        QTest::newRow("missing colon") << QByteArray(R"({"a" 1})") << 1 << 6
                                       << "expected ':' after the key 'a', found '1'";
        QTest::newRow("value where key belongs")
            << QByteArray("{\"a\": 1, 2}") << 1 << 10 << "expected a string key, found '2'";
        QTest::newRow("stray closer") << QByteArray("[}") << 1 << 2 << "expected a value, found '}'";
        QTest::newRow("columns count characters")
            << QByteArray("[\"é😀\", x]") << 1 << 8 << "expected a value, found 'x'";
        QTest::newRow("after byte-order mark")
            << QByteArray("\xEF\xBB\xBF[,]") << 1 << 2 << "expected a value, found ','";
    }

    void reportsErrorsWithLocation()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);
        try {
            parseJson(view(text), "doc.json");
            QFAIL("expected an InputError");
        } catch (const InputError &error) {
            QCOMPARE(QString::fromStdString(error.message()), message);
            QCOMPARE(error.line(), line);
            QCOMPARE(error.column(), column);
            QCOMPARE(error.file(), std::string("doc.json"));
            QCOMPARE(QString::fromUtf8(error.what()),
                     QStringLiteral("doc.json:%1:%2: %3").arg(line).arg(column).arg(message));
        }
    }

    void acceptsNestingUpToTheLimit()
    {
        const int depth = gpumem::io::maxJsonDepth;
        const QByteArray arrays = QByteArray(depth, '[') + QByteArray(depth, ']');
        const JsonValue value = parseJson(view(arrays), "deep.json");
        const JsonValue *level = &value;
        for (int i = 1; i < depth; ++i)
            level = &level->toArray().front();
        QVERIFY(level->toArray().empty());

        QByteArray objects;
        for (int i = 0; i < depth; ++i)
            objects += "{\"k\":";
        objects += "1" + QByteArray(depth, '}');
        QVERIFY(parseJson(view(objects), "deep.json").isObject());
        QVERIFY_THROWS_EXCEPTION(InputError, parseJson(view("[" + objects + "]"), "deep.json"));
    }

    void wrongTypeAccessorsThrow_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("accessor");
        QTest::addColumn<QString>("message");
        QTest::newRow("string as number") << QByteArray("\"12\"") << "number"
                                          << "expected a number, found a string";
        QTest::newRow("number as bool") << QByteArray("1") << "bool"
                                        << "expected a boolean, found a number";
        QTest::newRow("null as string") << QByteArray("null") << "string"
                                        << "expected a string, found null";
        QTest::newRow("object as array") << QByteArray("{}") << "array"
                                         << "expected an array, found an object";
        QTest::newRow("array as object") << QByteArray("[]") << "object"
                                         << "expected an object, found an array";
        QTest::newRow("find in array") << QByteArray("[]") << "find"
                                       << "expected an object, found an array";
        QTest::newRow("missing key") << QByteArray(R"({"b": 1})") << "at"
                                     << "missing key 'lr'";
        QTest::newRow("numberOr on string") << QByteArray(R"({"lr": "fast"})") << "numberOr"
                                            << "key 'lr': expected a number, found a string";
    }

    void wrongTypeAccessorsThrow()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, accessor);
        QFETCH(QString, message);
        const JsonValue value = parseJson(view(text), "types.json");
        try {
            if (accessor == "number")
                value.toNumber();
            else if (accessor == "bool")
                value.toBool();
            else if (accessor == "string")
                value.toString();
            else if (accessor == "array")
                value.toArray();
            else if (accessor == "object")
                value.toObject();
            else if (accessor == "find")
                value.find("lr");
            else if (accessor == "at")
                value.at("lr");
            else
                value.numberOr("lr", 1.0);
            QFAIL("expected an InputError");
        } catch (const InputError &error) {
            QCOMPARE(QString::fromStdString(error.what()), message);
        }
    }

    void buildsValues()
    {
        JsonValue layers = JsonValue::array();
        layers.push_back(256);
        layers.push_back(std::size_t(64));
        layers.push_back(0.5);
        JsonValue metadata = JsonValue::object();
        metadata.set("name", "mlp");
        metadata.set("layers", layers);
        metadata.set("trained", false);
        metadata.set("notes", std::string("none"));
        metadata.set("extra", nullptr);
        metadata.set("name", "renamed"); // replaces in place, keeping the position

        QCOMPARE(
            toJsonText(metadata, 0),
            std::string(R"({"name":"renamed","layers":[256,64,0.5],"trained":false,"notes":"none","extra":null})"));
        QCOMPARE(parseJson(toJsonText(metadata, 2), "built.json"), metadata);
        QCOMPARE(metadata.toObject().size(), std::size_t(5));
        QCOMPARE(JsonValue(JsonValue::Object{{"a", 1}, {"b", "x"}}).at("b").toString(), std::string("x"));

        QVERIFY_THROWS_EXCEPTION(std::logic_error, metadata.push_back(1));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, layers.set("a", 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, JsonValue(JsonValue::Object{{"a", 1}, {"a", 2}}));
        JsonValue::Object wide;
        for (int i = 0; i < 40; ++i)
            wide.emplace_back("k" + std::to_string(i), i);
        QCOMPARE(JsonValue(wide).toObject().size(), std::size_t(40));
        wide.emplace_back("k39", 0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, JsonValue{wide});
    }

    void comparesValues()
    {
        QVERIFY(JsonValue(1) == JsonValue(1.0));
        QVERIFY(JsonValue(1) != JsonValue(true));
        QVERIFY(JsonValue("1") != JsonValue(1));
        QVERIFY(JsonValue() == JsonValue(nullptr));
        QVERIFY(JsonValue::array() != JsonValue::object());
        QVERIFY(parseJson(R"({"a":1,"b":2})", "x") == parseJson(R"({ "a" : 1 , "b" : 2 })", "y"));
        // Order is part of an object's value here, since the reader keeps it.
        QVERIFY(parseJson(R"({"a":1,"b":2})", "x") != parseJson(R"({"b":2,"a":1})", "y"));
        QVERIFY(parseJson("[1,[2]]", "x") != parseJson("[1,[3]]", "y"));
    }

    void readsJsonFiles()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const QString good = folder.filePath("preset.json");
        {
            QFile file(good);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\n  \"batchSize\": 32,\n  \"name\": \"Gr\xC3\xB6\xC3\x9F\x65\"\n}\n");
        }
        const JsonValue preset = gpumem::io::readJsonFile(good.toStdString());
        QCOMPARE(preset.at("batchSize").toNumber(), 32.0);
        QCOMPARE(preset.at("name").toString(), std::string("Größe"));

        const QString bad = folder.filePath("bad.json");
        {
            QFile file(bad);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{\n  \"batchSize\": 32,\n}\n");
        }
        try {
            gpumem::io::readJsonFile(bad.toStdString());
            QFAIL("expected an InputError");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), bad.toStdString());
            QCOMPARE(error.line(), 2);
            QCOMPARE(error.column(), 18);
        }

        const std::string missing = folder.filePath("missing.json").toStdString();
        try {
            gpumem::io::readJsonFile(missing);
            QFAIL("expected an InputError");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), missing);
            QCOMPARE(error.line(), 0);
            QCOMPARE(QString::fromStdString(error.what()),
                     QString::fromStdString(missing + ": cannot open the file for reading: No such file or directory"));
        }
        QVERIFY_THROWS_EXCEPTION(InputError, gpumem::io::readJsonFile(folder.path().toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestJsonValue)
#include "test_JsonValue.moc"
