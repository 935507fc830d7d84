// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/NamedValues.h"

#include "RaisedInputError.h"

#include <QTest>

#include <stdexcept>
#include <string>

using gpumem::io::NamedValues;

namespace {

enum class Colour
{
    Red,
    Green,
    Blue,
};

constexpr NamedValues<Colour, 2> kPrimaries{{{"red", Colour::Red}, {"green", Colour::Green}}};
// Two names for one value, as "adam" and "adamw" share a state count.
constexpr NamedValues<int, 3> kStates{{{"sgd", 0}, {"adam", 2}, {"adamw", 2}}};

} // namespace

class TestNamedValues : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void readsAndWritesByTheSameList()
    {
        QCOMPARE(*gpumem::io::valueNamed(kPrimaries, "green"), Colour::Green);
        QVERIFY(!gpumem::io::valueNamed(kPrimaries, "Green").has_value()); // names are exact
        QVERIFY(!gpumem::io::valueNamed(kPrimaries, "").has_value());
        QCOMPARE(gpumem::io::nameOf(kPrimaries, Colour::Red), std::string_view("red"));
        QCOMPARE(*gpumem::io::valueNamed(kStates, "adamw"), 2);
        QCOMPARE(gpumem::io::nameOf(kStates, 2), std::string_view("adam")); // the first of a shared value
    }

    void aValueTheListLacksIsAProgrammingError()
    {
        QVERIFY_THROWS_EXCEPTION(std::logic_error, gpumem::io::nameOf(kPrimaries, Colour::Blue));
    }

    void listsTheNamesInOrder()
    {
        QCOMPARE(gpumem::io::listedNames(kStates), std::string("sgd, adam, adamw"));
        QCOMPARE(gpumem::io::namesOf(kPrimaries), (std::vector<std::string>{"red", "green"}));
    }

    void anUnknownNameIsOneLineNamingTheChoices()
    {
        QCOMPARE(gpumem::io::parseNamed(kStates, "sgd", "optimizer"), 0);
        const auto error =
            gpumem::tests::raisedInputError([] { gpumem::io::parseNamed(kStates, "lion\nx", "optimizer"); });
        // The hostile name is quoted with its line break replaced by '?', so the message stays on one line.
        QCOMPARE(error.message(), std::string("unknown optimizer 'lion?x' (known: sgd, adam, adamw)"));
    }
};

QTEST_GUILESS_MAIN(TestNamedValues)
#include "test_NamedValues.moc"
