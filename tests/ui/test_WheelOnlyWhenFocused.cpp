// SPDX-License-Identifier: GPL-3.0-or-later
#include "UiTestSupport.h"
#include "ui/app/WorkbenchState.h"
#include "ui/pages/ModelPage.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <functional>

namespace {

// Turns the wheel one notch towards the user (down the form, down a spin box's value) over
// widget's centre, as a mouse does; true when a widget took the turn.
bool turnWheelDown(QWidget *widget)
{
    const QPointF centre = QRectF(widget->rect()).center();
    QWheelEvent wheel(centre, widget->mapToGlobal(centre), QPoint(), QPoint(0, -QWheelEvent::DefaultDeltasPerStep),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &wheel);
    return wheel.isAccepted();
}

// A value that the wheel changes, whatever the kind of editor.
double valueOf(const QWidget *editor)
{
    if (const auto *box = qobject_cast<const QSpinBox *>(editor))
        return box->value();
    if (const auto *box = qobject_cast<const QDoubleSpinBox *>(editor))
        return box->value();
    if (const auto *box = qobject_cast<const QComboBox *>(editor))
        return box->currentIndex();
    return qobject_cast<const QSlider *>(editor)->value();
}

} // namespace

class TestWheelOnlyWhenFocused : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void initTestCase() { gpumem::tests::isolateSettings("test_WheelOnlyWhenFocused"); }

    void guardsEditorsButNotScrollBars()
    {
        QSpinBox spin;
        QComboBox combo;
        QSlider slider;
        QScrollBar bar;
        QWidget plain;
        QVERIFY(gpumem::ui::WheelOnlyWhenFocused::guards(&spin));
        QVERIFY(gpumem::ui::WheelOnlyWhenFocused::guards(&combo));
        QVERIFY(gpumem::ui::WheelOnlyWhenFocused::guards(&slider));
        QVERIFY(!gpumem::ui::WheelOnlyWhenFocused::guards(&bar));
        QVERIFY(!gpumem::ui::WheelOnlyWhenFocused::guards(&plain));
    }

    void scrollsTheFormUnlessTheEditorHasFocus_data()
    {
        QTest::addColumn<std::function<QWidget *(QWidget *)>>("makeEditor");
        QTest::newRow("spin box") << std::function<QWidget *(QWidget *)>([](QWidget *parent) {
            auto *box = new QSpinBox(parent);
            box->setRange(0, 100);
            box->setValue(50);
            return box;
        });
        QTest::newRow("double spin box") << std::function<QWidget *(QWidget *)>([](QWidget *parent) {
            auto *box = new QDoubleSpinBox(parent);
            box->setRange(0.0, 100.0);
            box->setValue(50.0);
            return box;
        });
        QTest::newRow("combo box") << std::function<QWidget *(QWidget *)>([](QWidget *parent) {
            auto *box = new QComboBox(parent);
            box->addItems({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")});
            box->setCurrentIndex(1);
            return box;
        });
        QTest::newRow("slider") << std::function<QWidget *(QWidget *)>([](QWidget *parent) {
            auto *slider = new QSlider(Qt::Horizontal, parent);
            slider->setRange(0, 100);
            slider->setValue(50);
            return slider;
        });
    }

    void scrollsTheFormUnlessTheEditorHasFocus()
    {
        QFETCH(std::function<QWidget *(QWidget *)>, makeEditor);
        QScrollArea area;
        auto *form = new QWidget;
        auto *layout = new QVBoxLayout(form);
        // The window's first field takes the focus when it opens; the editor is not it.
        layout->addWidget(new QLineEdit(form));
        QWidget *editor = makeEditor(form);
        layout->addWidget(editor);
        layout->addSpacing(2000); // taller than the area: the form scrolls
        area.setWidget(form);
        area.resize(300, 200);
        gpumem::ui::installWheelOnlyWhenFocused(form);
        QCOMPARE(editor->focusPolicy(), Qt::StrongFocus);
        area.show();
        QVERIFY(QTest::qWaitForWindowActive(&area));

        QVERIFY(!editor->hasFocus());
        const double before = valueOf(editor);
        QVERIFY(turnWheelDown(editor));
        QCOMPARE(valueOf(editor), before);
        QVERIFY(area.verticalScrollBar()->value() > 0);

        const int scrolled = area.verticalScrollBar()->value();
        editor->setFocus(Qt::MouseFocusReason);
        QVERIFY(editor->hasFocus());
        turnWheelDown(editor);
        QVERIFY(valueOf(editor) != before);
        QCOMPARE(area.verticalScrollBar()->value(), scrolled);
    }

    // Bug: turning the wheel to scroll the Model page's hyperparameter form changed
    // whichever spin box passed under the pointer.
    void scrollingTheModelFormEditsNoField()
    {
        gpumem::ui::WorkbenchState state;
        gpumem::ui::ModelPage page(&state);
        page.resize(700, 300); // shorter than the form: it scrolls
        page.show();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        auto *epochs = page.findChild<QSpinBox *>(QStringLiteral("hp_epochs"));
        QVERIFY(epochs);
        QScrollArea *area = nullptr;
        for (QWidget *ancestor = epochs->parentWidget(); ancestor && !area; ancestor = ancestor->parentWidget())
            area = qobject_cast<QScrollArea *>(ancestor);
        QVERIFY(area);
        QVERIFY(area->verticalScrollBar()->maximum() > 0);
        QVERIFY(!epochs->hasFocus());
        const int epochsBefore = epochs->value();
        const int scrollBefore = area->verticalScrollBar()->value();

        turnWheelDown(epochs);
        QCOMPARE(epochs->value(), epochsBefore);
        QCOMPARE(state.hyperparameters().integer("epochs"), std::int64_t{epochsBefore});
        QVERIFY(area->verticalScrollBar()->value() > scrollBefore);

        // Clicked into, the field is the user's to turn.
        epochs->setFocus(Qt::MouseFocusReason);
        turnWheelDown(epochs);
        QCOMPARE(epochs->value(), epochsBefore - 1);
    }
};

QTEST_MAIN(TestWheelOnlyWhenFocused)
#include "test_WheelOnlyWhenFocused.moc"
