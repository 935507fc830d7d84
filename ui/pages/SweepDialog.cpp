// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/SweepDialog.h"

#include "io/InputError.h"
#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/QtText.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gpumem::ui {

SweepDialog::SweepDialog(const models::Hyperparameters &hyperparameters, QWidget *parent)
    : QDialog(parent)
    , mHyperparameters(hyperparameters)
{
    setObjectName(QStringLiteral("sweepDialog"));
    setWindowTitle(tr("Sweep hyperparameters"));
    mParameters = namedWidget<QTableWidget>(
        QStringLiteral("sweepParameters"),
        tr("Each row: a hyperparameter and the values to try, e.g. 0.001, 0.003, 0.01"), 0, 2, this);
    mParameters->setHorizontalHeaderLabels({tr("Hyperparameter"), tr("Values (comma-separated)")});
    // The names are chosen in a list as wide as the longest name, so the column follows it.
    mParameters->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    mParameters->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    mParameters->verticalHeader()->hide();
    auto *add = new QPushButton(tr("Add hyperparameter"), this);
    auto *remove = new QPushButton(tr("Remove"), this);
    connect(add, &QPushButton::clicked, this, [this] { addParameter(QStringLiteral("learning_rate"), {}); });
    connect(remove, &QPushButton::clicked, this, [this] {
        mParameters->removeRow(mParameters->currentRow() >= 0 ? mParameters->currentRow()
                                                              : mParameters->rowCount() - 1);
        updateSummary();
    });

    mGrid = new QRadioButton(tr("Grid: every combination"), this);
    mGrid->setObjectName(QStringLiteral("sweepGrid"));
    mRandom = new QRadioButton(tr("Random combinations:"), this);
    mRandom->setObjectName(QStringLiteral("sweepRandom"));
    mGrid->setChecked(true);
    mTrials = new QSpinBox(this);
    mTrials->setObjectName(QStringLiteral("sweepTrials"));
    mTrials->setRange(1, static_cast<int>(runs::maxSweepTrials));
    mTrials->setValue(8);
    mTrials->setSuffix(tr(" trials"));
    mSeed = namedWidget<QSpinBox>(
        QStringLiteral("sweepSeed"),
        tr("The same seed draws the same combinations (and trains each run with the same seed)"), this);
    mSeed->setRange(0, 1 << 30);
    mSeed->setValue(42);
    mSeed->setPrefix(tr("seed "));
    mValidation =
        namedWidget<QDoubleSpinBox>(QStringLiteral("sweepValidation"),
                                    tr("Share of the rows held out of every fit to score the run on (validation RMSE), "
                                       "as gpumem train --test-fraction"),
                                    this);
    mValidation->setRange(0.05, 0.5);
    mValidation->setSingleStep(0.05);
    mValidation->setValue(0.2);
    mSummary = new QLabel(this);
    mSummary->setObjectName(QStringLiteral("sweepSummary"));
    mSummary->setWordWrap(true);

    auto *rowButtons = new QHBoxLayout;
    rowButtons->addWidget(add);
    rowButtons->addWidget(remove);
    rowButtons->addStretch(1);
    auto *randomRow = new QHBoxLayout;
    randomRow->addWidget(mRandom);
    randomRow->addWidget(mTrials);
    randomRow->addWidget(mSeed);
    randomRow->addStretch(1);
    auto *form = new QFormLayout;
    form->addRow(tr("Held out for validation:"), mValidation);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Start sweep"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mParameters, 1);
    layout->addLayout(rowButtons);
    layout->addWidget(mGrid);
    layout->addLayout(randomRow);
    layout->addLayout(form);
    layout->addWidget(mSummary);
    layout->addWidget(buttons);
    resize(640, 420);

    for (auto *radio : {mGrid, mRandom})
        connect(radio, &QRadioButton::toggled, this, &SweepDialog::updateSummary);
    connect(mTrials, &QSpinBox::valueChanged, this, &SweepDialog::updateSummary);
    connect(mParameters, &QTableWidget::cellChanged, this, &SweepDialog::updateSummary);
    updateSummary();
}

void SweepDialog::addParameter(const QString &name, const QString &values)
{
    const int row = mParameters->rowCount();
    mParameters->insertRow(row);
    auto *names = new QComboBox(mParameters);
    names->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (const auto &spec : mHyperparameters.specs()) {
        names->addItem(QString::fromStdString(spec.name));
        names->setItemData(names->count() - 1, QString::fromStdString(spec.help), Qt::ToolTipRole);
    }
    names->setCurrentText(name);
    mParameters->setCellWidget(row, 0, names);
    const QString initial =
        values.isEmpty() && mHyperparameters.contains(coreText(name))
            ? QString::fromStdString(mHyperparameters.text(coreText(name))).section(QLatin1Char('='), 1)
            : values;
    mParameters->setItem(row, 1, new QTableWidgetItem(initial));
    connect(names, &QComboBox::currentTextChanged, this, &SweepDialog::updateSummary);
    updateSummary();
}

void SweepDialog::setRandom(bool random, int trials, int seed)
{
    (random ? mRandom : mGrid)->setChecked(true);
    mTrials->setValue(trials);
    mSeed->setValue(seed);
}

void SweepDialog::setValidationFraction(double fraction)
{
    mValidation->setValue(fraction);
}

double SweepDialog::validationFraction() const
{
    return mValidation->value();
}

runs::SweepPlan SweepDialog::plan() const
{
    runs::SweepPlan plan;
    for (int row = 0; row < mParameters->rowCount(); ++row) {
        const auto *names = qobject_cast<QComboBox *>(mParameters->cellWidget(row, 0));
        const QTableWidgetItem *values = mParameters->item(row, 1);
        QString text = values ? values->text() : QString();
        text.remove(QLatin1Char(' '));
        runs::SweepParameter parameter =
            runs::parseSweepParameter(coreText(names ? names->currentText() : QString()) + "=" + coreText(text));
        // Each value must be one the hyperparameter takes: checked now, not after an hour of other trials.
        models::Hyperparameters check = mHyperparameters;
        for (const auto &value : parameter.values)
            check.setFromText(parameter.name, value);
        plan.parameters.push_back(std::move(parameter));
    }
    plan.mode = mRandom->isChecked() ? runs::SweepMode::Random : runs::SweepMode::Grid;
    plan.randomTrials = static_cast<std::size_t>(mTrials->value());
    plan.seed = static_cast<std::uint64_t>(mSeed->value());
    runs::expandSweep(plan); // throws when unusable
    return plan;
}

void SweepDialog::updateSummary()
{
    mTrials->setEnabled(mRandom->isChecked());
    mSeed->setEnabled(mRandom->isChecked());
    QString text;
    bool usable = false;
    try {
        const auto trials = runs::expandSweep(plan());
        text = tr("%n run(s) will train, one after the other, in the background.", nullptr,
                  static_cast<int>(trials.size()));
        usable = true;
    } catch (const std::exception &error) {
        text = QString::fromStdString(error.what());
    }
    mSummary->setText(text);
    if (auto *buttons = findChild<QDialogButtonBox *>())
        buttons->button(QDialogButtonBox::Ok)->setEnabled(usable);
}

} // namespace gpumem::ui
