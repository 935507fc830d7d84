// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/LikelyOutcomesBar.h"

#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/QtText.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

#include <algorithm>

namespace gpumem::ui {

LikelyOutcomesBar::LikelyOutcomesBar(QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("likelyOutcomesBar"));
    // An amber bar, apart from the red error panel: nothing failed, a choice is asked for.
    setStyleSheet(QStringLiteral("#likelyOutcomesBar { background: #fff4d6; border: 1px solid #e0b84d; "
                                 "border-radius: 3px; } #likelyOutcomesBar QLabel { color: #4a3500; }"));
    mText = new QLabel(this);
    mText->setObjectName(QStringLiteral("likelyOutcomesText"));
    mText->setWordWrap(true);
    mText->setTextFormat(Qt::RichText);
    mText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    mIgnore = namedWidget<QPushButton>(QStringLiteral("ignoreLikelyOutcomes"),
                                       tr("Gives every column named here the role ignored, as choosing it in their "
                                          "role boxes does"),
                                       tr("Ignore them"), this);
    mKeep = namedWidget<QPushButton>(QStringLiteral("keepLikelyOutcomes"),
                                     tr("Keeps them as features, for a model that is meant to see them; not asked "
                                        "again until the target changes"),
                                     tr("Keep as features"), this);

    auto *buttons = new QVBoxLayout;
    buttons->addWidget(mIgnore);
    buttons->addWidget(mKeep);
    buttons->addStretch(1);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->addWidget(mText, 1);
    layout->addLayout(buttons);

    connect(mIgnore, &QPushButton::clicked, this, &LikelyOutcomesBar::ignoreRequested);
    connect(mKeep, &QPushButton::clicked, this, [this] {
        dismiss();
        Q_EMIT keepRequested();
    });
    hide();
}

void LikelyOutcomesBar::ask(const std::vector<data::LikelyOutcome> &outcomes, const std::string &target)
{
    mOutcomes = outcomes;
    mTarget = target;
    showOutcomes();
}

void LikelyOutcomesBar::keepOnly(const std::vector<std::string> &stillFeatures)
{
    const auto before = mOutcomes.size();
    mOutcomes.erase(std::remove_if(mOutcomes.begin(), mOutcomes.end(),
                                   [&](const data::LikelyOutcome &outcome) {
                                       return std::find(stillFeatures.begin(), stillFeatures.end(), outcome.column) ==
                                              stillFeatures.end();
                                   }),
                    mOutcomes.end());
    if (mOutcomes.size() != before)
        showOutcomes();
}

void LikelyOutcomesBar::dismiss()
{
    mOutcomes.clear();
    showOutcomes();
}

QString LikelyOutcomesBar::text() const
{
    return QTextDocumentFragment::fromHtml(mText->text()).toPlainText();
}

void LikelyOutcomesBar::showOutcomes()
{
    if (mOutcomes.empty()) {
        mText->clear();
        hide();
        return;
    }
    QStringList columns;
    for (const auto &outcome : mOutcomes)
        columns
            << tr("<b>%1</b> (%2)").arg(qtText(outcome.column).toHtmlEscaped(), qtText(outcome.reason).toHtmlEscaped());
    const int count = static_cast<int>(mOutcomes.size());
    const QString target =
        mTarget.empty() ? tr("the target") : tr("the target <b>%1</b>").arg(qtText(mTarget).toHtmlEscaped());
    // The why comes first: a user who has not met the problem reads a list of names as noise.
    const QString opening =
        count == 1 ? tr("A feature column looks measured by the same run as %1").arg(target)
                   : tr("%1 feature columns look measured by the same run as %2").arg(QString::number(count), target);
    mText->setText(tr("%1, not chosen before it. As features they hand a model the answer, and no one knows them "
                      "before running a job: %2.")
                       .arg(opening, columns.join(QStringLiteral(", "))));
    mIgnore->setToolTip(
        count == 1
            ? tr("Gives %1 the role ignored, as choosing it in its role box does").arg(qtText(mOutcomes.front().column))
            : tr("Gives these %n columns the role ignored, as choosing it in their role boxes "
                 "does",
                 nullptr, count));
    show();
}

} // namespace gpumem::ui
