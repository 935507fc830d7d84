// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QVariant>

#include <functional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

namespace gpumem::ui {

// The form fields a page keeps between sessions in QSettings. Each field's key and
// default stand once, where the field is bound; restore() shows the stored values
// (the defaults where none is stored) in the order bound, remember() stores them all.
class RememberedFields
{
  public:
    void bind(QLineEdit *edit, const QString &key, const QString &fallback);
    void bind(QSpinBox *box, const QString &key, int fallback);
    void bind(QDoubleSpinBox *box, const QString &key, double fallback);
    void bind(QCheckBox *box, const QString &key, bool fallback);
    // A combo box keeps its current item's data; a stored value no item holds leaves
    // the current item selected.
    void bind(QComboBox *combo, const QString &key, const QVariant &fallback);

    void restore() const;
    void remember() const;

  private:
    struct Field
    {
        QString key;
        QVariant fallback;
        std::function<QVariant()> value;
        std::function<void(const QVariant &)> show;
    };

    std::vector<Field> mFields;
};

} // namespace gpumem::ui
