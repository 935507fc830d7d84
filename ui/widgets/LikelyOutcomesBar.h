// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "data/LikelyOutcomes.h"

#include <QFrame>

#include <string>
#include <vector>

class QLabel;
class QPushButton;

namespace gpumem::ui {

// A message bar inside the Data page that asks what to do with feature columns core
// found to look measured by the target's run (data::likelyOutcomes): it names each
// with core's reason and offers to ignore them or keep them as features. It asks and
// reports the answer; the page applies it. Not modal, so the rest of the page stays
// usable while it is on show.
class LikelyOutcomesBar : public QFrame
{
    Q_OBJECT

  public:
    explicit LikelyOutcomesBar(QWidget *parent = nullptr);

    // Shows the bar for outcomes of the target column named target; hides it when
    // outcomes is empty.
    void ask(const std::vector<data::LikelyOutcome> &outcomes, const std::string &target);
    // Keeps asked about only the columns in stillFeatures (those the user has not given
    // another role meanwhile); hides the bar when none is left.
    void keepOnly(const std::vector<std::string> &stillFeatures);
    // Hides the bar and forgets the columns it asked about.
    void dismiss();
    // The columns the bar asks about now, in table order; empty when it is hidden.
    const std::vector<data::LikelyOutcome> &outcomes() const { return mOutcomes; }
    // The text on show, as plain text, for tests and screen readers.
    QString text() const;

  Q_SIGNALS:
    // The user chose to ignore every column of outcomes().
    void ignoreRequested();
    // The user chose to keep them as features; the bar has already hidden itself.
    void keepRequested();

  private:
    void showOutcomes();

    std::vector<data::LikelyOutcome> mOutcomes;
    std::string mTarget;
    QLabel *mText;
    QPushButton *mIgnore;
    QPushButton *mKeep;
};

} // namespace gpumem::ui
