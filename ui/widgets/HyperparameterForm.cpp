// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/HyperparameterForm.h"

#include "ui/widgets/QtText.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

#include <climits>
#include <cmath>

namespace gpumem::ui {

namespace {

QString valueText(const models::HyperparameterValue &value)
{
    if (const auto *integer = std::get_if<std::int64_t>(&value))
        return QString::number(*integer);
    if (const auto *real = std::get_if<double>(&value))
        return QString::number(*real, 'g', 6);
    if (const auto *flag = std::get_if<bool>(&value))
        return *flag ? QStringLiteral("true") : QStringLiteral("false");
    return QString::fromStdString(std::get<std::string>(value));
}

// Enough decimals to reach the smallest allowed non-zero value (1e-6 → 6).
int decimalsFor(const models::HyperparameterSpec &spec)
{
    double smallest = std::abs(std::get<double>(spec.defaultValue));
    if (spec.minimum > 0.0)
        smallest = std::min(smallest > 0.0 ? smallest : spec.minimum, spec.minimum);
    if (smallest <= 0.0)
        return 3;
    return std::clamp(static_cast<int>(std::ceil(-std::log10(smallest))) + 2, 3, 8);
}

} // namespace

QString hyperparameterToolTip(const models::HyperparameterSpec &spec)
{
    QString tip = QStringLiteral("<p><b>%1</b> — %2</p>").arg(qtText(spec.name), qtText(spec.help).toHtmlEscaped());
    QString detail = QString::fromStdString(models::hyperparameterTypeName(spec.type));
    if (spec.type == models::HyperparameterType::Integer || spec.type == models::HyperparameterType::Real)
        detail +=
            QObject::tr(", %1 to %2").arg(QString::number(spec.minimum, 'g', 8), QString::number(spec.maximum, 'g', 8));
    if (!spec.unit.empty())
        detail += QStringLiteral(" %1").arg(qtText(spec.unit));
    detail += QObject::tr("; default %1").arg(valueText(spec.defaultValue));
    return tip + QStringLiteral("<p><i>%1</i></p>").arg(detail.toHtmlEscaped());
}

HyperparameterForm::HyperparameterForm(const models::Hyperparameters &initial, QWidget *parent)
    : QWidget(parent)
    , mHyperparameters(initial)
{
    auto *layout = new QFormLayout(this);
    layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    // Values set programmatically (setValues) are not the user's edits.
    const auto edited = [this] {
        if (!mUpdating)
            Q_EMIT valuesChanged();
    };
    // Every editor's change signal is an edit of its value.
    const auto watch = [this, edited](auto *box, auto changed) {
        connect(box, changed, this, edited);
        return box;
    };
    for (const auto &spec : mHyperparameters.specs()) {
        const QString unitSuffix = spec.unit.empty() ? QString() : QStringLiteral(" ") + qtText(spec.unit);
        QWidget *editor = nullptr;
        switch (spec.type) {
        case models::HyperparameterType::Integer: {
            auto *box = new QSpinBox(this);
            box->setRange(static_cast<int>(std::max<double>(spec.minimum, INT_MIN)),
                          static_cast<int>(std::min<double>(spec.maximum, INT_MAX)));
            box->setSuffix(unitSuffix);
            editor = watch(box, &QSpinBox::valueChanged);
            break;
        }
        case models::HyperparameterType::Real: {
            auto *box = new QDoubleSpinBox(this);
            box->setDecimals(decimalsFor(spec));
            box->setRange(spec.minimum, spec.maximum);
            box->setSingleStep(std::max(std::pow(10.0, -box->decimals() + 1), (spec.maximum - spec.minimum) / 1000.0));
            box->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
            box->setSuffix(unitSuffix);
            editor = watch(box, &QDoubleSpinBox::valueChanged);
            break;
        }
        case models::HyperparameterType::Boolean: editor = watch(new QCheckBox(this), &QCheckBox::toggled); break;
        case models::HyperparameterType::Choice: {
            auto *box = new QComboBox(this);
            for (const auto &choice : spec.choices)
                box->addItem(qtText(choice));
            editor = watch(box, &QComboBox::currentIndexChanged);
            break;
        }
        }
        editor->setObjectName(QStringLiteral("hp_%1").arg(qtText(spec.name)));
        const QString tip = hyperparameterToolTip(spec);
        editor->setToolTip(tip);
        editor->setWhatsThis(tip);
        auto *label = new QLabel(qtText(spec.name), this);
        label->setToolTip(tip);
        label->setBuddy(editor);
        layout->addRow(label, editor);
        mEditors[spec.name] = editor;
    }
    setValues(mHyperparameters);
    installWheelOnlyWhenFocused(this);
}

void HyperparameterForm::setValues(const models::Hyperparameters &hyperparameters)
{
    mUpdating = true;
    mHyperparameters = hyperparameters;
    for (const auto &spec : mHyperparameters.specs()) {
        QWidget *editor = mEditors.at(spec.name);
        switch (spec.type) {
        case models::HyperparameterType::Integer:
            static_cast<QSpinBox *>(editor)->setValue(static_cast<int>(mHyperparameters.integer(spec.name)));
            break;
        case models::HyperparameterType::Real:
            static_cast<QDoubleSpinBox *>(editor)->setValue(mHyperparameters.real(spec.name));
            break;
        case models::HyperparameterType::Boolean:
            static_cast<QCheckBox *>(editor)->setChecked(mHyperparameters.boolean(spec.name));
            break;
        case models::HyperparameterType::Choice:
            static_cast<QComboBox *>(editor)->setCurrentText(qtText(mHyperparameters.choice(spec.name)));
            break;
        }
    }
    mUpdating = false;
}

models::Hyperparameters HyperparameterForm::values() const
{
    models::Hyperparameters result = mHyperparameters;
    for (const auto &spec : result.specs()) {
        const QWidget *editor = mEditors.at(spec.name);
        switch (spec.type) {
        case models::HyperparameterType::Integer:
            result.set(spec.name, static_cast<std::int64_t>(static_cast<const QSpinBox *>(editor)->value()));
            break;
        case models::HyperparameterType::Real:
            result.set(spec.name, static_cast<const QDoubleSpinBox *>(editor)->value());
            break;
        case models::HyperparameterType::Boolean:
            result.set(spec.name, static_cast<const QCheckBox *>(editor)->isChecked());
            break;
        case models::HyperparameterType::Choice:
            result.set(spec.name, coreText(static_cast<const QComboBox *>(editor)->currentText()));
            break;
        }
    }
    return result;
}

QWidget *HyperparameterForm::editor(const std::string &name) const
{
    const auto it = mEditors.find(name);
    return it == mEditors.end() ? nullptr : it->second;
}

} // namespace gpumem::ui
