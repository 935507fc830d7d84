// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/RememberedFields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>

namespace gpumem::ui {

void RememberedFields::bind(QLineEdit *edit, const QString &key, const QString &fallback)
{
    mFields.push_back({key, fallback, [edit] { return QVariant(edit->text()); },
                       [edit](const QVariant &stored) { edit->setText(stored.toString()); }});
}

void RememberedFields::bind(QSpinBox *box, const QString &key, int fallback)
{
    mFields.push_back({key, fallback, [box] { return QVariant(box->value()); },
                       [box](const QVariant &stored) { box->setValue(stored.toInt()); }});
}

void RememberedFields::bind(QDoubleSpinBox *box, const QString &key, double fallback)
{
    mFields.push_back({key, fallback, [box] { return QVariant(box->value()); },
                       [box](const QVariant &stored) { box->setValue(stored.toDouble()); }});
}

void RememberedFields::bind(QCheckBox *box, const QString &key, bool fallback)
{
    mFields.push_back({key, fallback, [box] { return QVariant(box->isChecked()); },
                       [box](const QVariant &stored) { box->setChecked(stored.toBool()); }});
}

void RememberedFields::bind(QComboBox *combo, const QString &key, const QVariant &fallback)
{
    mFields.push_back({key, fallback, [combo] { return combo->currentData(); },
                       [combo](const QVariant &stored) {
                           const int index = combo->findData(stored);
                           if (index >= 0)
                               combo->setCurrentIndex(index);
                       }});
}

void RememberedFields::restore() const
{
    const QSettings settings;
    for (const Field &field : mFields)
        field.show(settings.value(field.key, field.fallback));
}

void RememberedFields::remember() const
{
    QSettings settings;
    for (const Field &field : mFields)
        settings.setValue(field.key, field.value());
}

} // namespace gpumem::ui
