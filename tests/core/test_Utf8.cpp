// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "io/Utf8.h"

#include <QTest>

#include <string>

class TestUtf8 : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void findsTheFirstInvalidByte_data()
    {
        addColumns<QByteArray, qlonglong>("text", "invalid");
        addRow("ascii", QByteArray("memory_mib"), qlonglong{-1});
        addRow("two and three bytes", QByteArray("r\xC3\xA9sum\xE2\x82\xAC"), qlonglong{-1});
        addRow("four bytes", QByteArray("\xF0\x9F\x98\x80"), qlonglong{-1});
        addRow("lone continuation", QByteArray("ab\x80"), qlonglong{2});
        addRow("overlong slash", QByteArray("a\xC0\xAF"), qlonglong{1});
        addRow("overlong three bytes", QByteArray("\xE0\x80\xAF"), qlonglong{0});
        addRow("surrogate", QByteArray("x\xED\xA0\x80"), qlonglong{1});
        addRow("beyond U+10FFFF", QByteArray("\xF4\x90\x80\x80"), qlonglong{0});
        addRow("cut short", QByteArray("ok\xE2\x82"), qlonglong{2});
    }
    void findsTheFirstInvalidByte()
    {
        QFETCH(QByteArray, text);
        QFETCH(qlonglong, invalid);
        const std::size_t offset = gpumem::io::firstInvalidUtf8Byte(std::string_view(text.constData(), text.size()));
        QCOMPARE(offset == std::string_view::npos ? qlonglong{-1} : static_cast<qlonglong>(offset), invalid);
    }

    void replacesEachInvalidByte()
    {
        QCOMPARE(gpumem::io::replaceInvalidUtf8("a\xFF"
                                                "b\xC3\xA9"),
                 std::string("a\xEF\xBF\xBD"
                             "b\xC3\xA9"));
        // A surrogate's three bytes are each replaced: none starts a well-formed sequence.
        QCOMPARE(gpumem::io::replaceInvalidUtf8("\xED\xA0\x80"), std::string("\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"));
    }

    void cutsWithoutSplittingACharacter()
    {
        const std::string text = "ab\xE2\x82\xAC"
                                 "c"; // "ab€c"
        QCOMPARE(std::string(gpumem::io::cutUtf8(text, 4)), std::string("ab"));
        QCOMPARE(std::string(gpumem::io::cutUtf8(text, 5)), std::string("ab\xE2\x82\xAC"));
        QCOMPARE(std::string(gpumem::io::cutUtf8(text, 100)), text);
    }
};

QTEST_GUILESS_MAIN(TestUtf8)
#include "test_Utf8.moc"
