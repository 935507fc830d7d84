// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "io/JsonWriter.h"

#include "io/InputError.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <limits>
#include <sstream>

using gpumem::io::JsonWriter;

class TestJsonWriter : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void writesDocumentsThatParseBack()
    {
        std::ostringstream out;
        JsonWriter json(out);
        json.beginObject();
        json.key("name").value("Max GPU Memory (MiB)");
        json.key("rows").value(3000);
        json.key("ratio").value(0.1);
        json.key("nan").value(std::nan(""));
        json.key("flag").value(true);
        json.key("list").value(std::vector<std::string>{"a", "b"});
        json.key("empty").beginArray().endArray();
        json.endObject();

        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(out.str()), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        const QJsonObject object = document.object();
        QCOMPARE(object.value("name").toString(), QStringLiteral("Max GPU Memory (MiB)"));
        QCOMPARE(object.value("rows").toInt(), 3000);
        QCOMPARE(object.value("ratio").toDouble(), 0.1);
        QVERIFY(object.value("nan").isNull());
        QCOMPARE(object.value("flag").toBool(), true);
        QCOMPARE(object.value("list").toArray().size(), 2);
        QVERIFY(object.value("empty").toArray().isEmpty());
    }

    void escapesStrings_data()
    {
        addColumns<QByteArray, QByteArray>("raw", "written");
        addRow("quote and backslash", QByteArray("a\"b\\c"), QByteArray("\"a\\\"b\\\\c\""));
        addRow("control characters", QByteArray("x\n\t\x01"), QByteArray("\"x\\n\\t\\u0001\""));
        addRow("valid UTF-8 kept", QByteArray("Größe"), QByteArray("\"Größe\""));
        addRow("invalid byte replaced", QByteArray("a\xFFz"), QByteArray("\"a\xEF\xBF\xBDz\""));
        addRow("truncated sequence", QByteArray("\xE2\x82"), QByteArray("\"\xEF\xBF\xBD\xEF\xBF\xBD\""));
        addRow("overlong encoding", QByteArray("\xC0\xAF"), QByteArray("\"\xEF\xBF\xBD\xEF\xBF\xBD\""));
    }

    void escapesStrings()
    {
        QFETCH(QByteArray, raw);
        QFETCH(QByteArray, written);
        std::ostringstream out;
        JsonWriter(out, 0).value(std::string(raw.constData(), static_cast<std::size_t>(raw.size())));
        QCOMPARE(QByteArray::fromStdString(out.str()), written);
    }

    void writesShortestRoundTripNumbers()
    {
        std::ostringstream out;
        JsonWriter json(out, 0);
        json.beginArray().value(0.1).value(1e300).value(-2.5).value(std::numeric_limits<double>::infinity()).endArray();
        QCOMPARE(out.str(), std::string("[0.1,1e+300,-2.5,null]"));
    }

    void refusesNonFiniteNumbersWhenAsked()
    {
        // Regression: a ridge model with a NaN intercept was saved as "intercept": null.
        std::ostringstream out;
        JsonWriter json(out, 0);
        json.refuseNonFiniteNumbers();
        json.beginArray().value(1.5);
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, json.value(std::nan("")));
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, json.value(-std::numeric_limits<double>::infinity()));
    }

    void compactModeWritesOneLine()
    {
        std::ostringstream out;
        JsonWriter json(out, 0);
        json.beginObject().key("a").beginArray().value(1).value(2).endArray().key("b").value("x").endObject();
        QCOMPARE(out.str(), std::string("{\"a\":[1,2],\"b\":\"x\"}"));
    }

    void rejectsMisuse()
    {
        std::ostringstream out;
        JsonWriter json(out);
        json.beginObject();
        QVERIFY_THROWS_EXCEPTION(std::logic_error, json.value(1));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, json.endArray());
    }
};

QTEST_GUILESS_MAIN(TestJsonWriter)
#include "test_JsonWriter.moc"
