// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/WrappedLabelHeight.h"

#include <QEvent>
#include <QLabel>
#include <QTextDocument>
#include <QTimer>

#include <cmath>

namespace gpumem::ui {

namespace {

class WholeHeightFilter : public QObject
{
  public:
    using QObject::QObject;

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize || event->type() == QEvent::FontChange) {
            auto *label = static_cast<QLabel *>(watched);
            // Later, not inside the resize: the new minimum lays the parent out again.
            QTimer::singleShot(0, label, [label] { fitWrappedLabelHeight(label); });
        }
        return false;
    }
};

} // namespace

void keepWrappedLabelWhole(QLabel *label)
{
    label->installEventFilter(new WholeHeightFilter(label));
    fitWrappedLabelHeight(label);
}

void fitWrappedLabelHeight(QLabel *label)
{
    // The text laid out at the label's width, as the label draws it.
    QTextDocument document;
    document.setDefaultFont(label->font());
    document.setDocumentMargin(0);
    if (Qt::mightBeRichText(label->text()))
        document.setHtml(label->text());
    else
        document.setPlainText(label->text());
    const int frame = 2 * (label->margin() + label->frameWidth());
    document.setTextWidth(label->width() - frame - label->contentsMargins().left() - label->contentsMargins().right());
    const int height = static_cast<int>(std::ceil(document.size().height())) + frame + label->contentsMargins().top() +
                       label->contentsMargins().bottom();
    if (height > 0 && height != label->minimumHeight())
        label->setMinimumHeight(height);
}

} // namespace gpumem::ui
