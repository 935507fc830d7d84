// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pages/PredictPage.h"

#include "calibration/Calibration.h"
#include "data/Dataset.h"
#include "models/RegressorRegistry.h"
#include "prediction/FilePrediction.h"
#include "prediction/JobPrediction.h"
#include "prediction/PredictionPreview.h"
#include "ui/app/BackgroundTask.h"
#include "ui/app/WorkbenchState.h"
#include "ui/models/TableModel.h"
#include "ui/pages/TrainingPage.h"
#include "ui/widgets/CapacityTable.h"
#include "ui/widgets/CoverageBox.h"
#include "ui/widgets/PaneSplitter.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/RunModelBox.h"
#include "ui/widgets/TableCopy.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpumem::ui {

namespace {

// Every text column may be a feature of the model, so none may become an identifier.
QString sequenceText(const data::SequenceColumn &sequences, std::size_t row)
{
    QStringList layers;
    for (std::size_t layer = sequences.layerBegin(row); layer < sequences.layerEnd(row); ++layer) {
        QStringList fields{QStringLiteral("'%1'").arg(qtText(sequences.layerTypes()[sequences.layerType(layer)]))};
        for (int field = 0; field < sequences.fieldsPerLayer(); ++field)
            fields << QString::number(sequences.field(layer, field), 'g', 15);
        layers << QStringLiteral("(%1)").arg(fields.join(QStringLiteral(", ")));
    }
    return QStringLiteral("[%1]").arg(layers.join(QStringLiteral(", ")));
}

} // namespace

PredictPage::PredictPage(WorkbenchState *state, TrainingPage *training, QWidget *parent)
    : QWidget(parent)
    , mState(state)
    , mTraining(training)
    , mModelInfo(new QLabel(tr("No model loaded. Load a model folder, or train one on the Training page."), this))
    , mFormHost(new QWidget(this))
    , mPredictionLabel(new QLabel(this))
    , mExtrapolationWarning(new QLabel(this))
    , mCoverage(new CoverageBox(QStringLiteral("coverageBox"), this))
    , mCapacities(new CapacityTable(this))
    , mStatus(new QLabel(this))
    , mPredictFile(new QPushButton(tr("Predict a CSV file…"), this))
    , mPreviewModel(new TableModel(this))
    , mPreview(new QTableView(this))
    , mPrediction(std::nan(""))
    , mUpperBound(std::nan(""))
{
    setObjectName(QStringLiteral("predictPage"));
    mModelInfo->setObjectName(QStringLiteral("modelInfo"));
    mModelInfo->setWordWrap(true);
    auto *load = new QPushButton(tr("Load model folder…"), this);
    load->setObjectName(QStringLiteral("loadModel"));
    load->setToolTip(tr("Open a folder written by gpumem train or the Training page's Save model"));
    connect(load, &QPushButton::clicked, this, [this] {
        const QString directory = QFileDialog::getExistingDirectory(this, tr("Load model folder"));
        if (!directory.isEmpty())
            loadModel(directory);
    });
    auto *useTrained = new QPushButton(tr("Use the trained model"), this);
    useTrained->setObjectName(QStringLiteral("useTrainedModel"));
    useTrained->setToolTip(tr("Predict with the model the Training page trained last"));
    connect(useTrained, &QPushButton::clicked, this, [this] {
        if (mTraining->trainedModel())
            setModel({mTraining->trainedModel(), mTraining->trainedCalibration()}, tr("trained in this session"));
    });
    connect(mTraining, &TrainingPage::trainingFinished, this, [this, useTrained](bool succeeded) {
        useTrained->setEnabled(mTraining->trainedModel() != nullptr);
        if (succeeded && !hasModel())
            setModel({mTraining->trainedModel(), mTraining->trainedCalibration()}, tr("trained in this session"));
    });
    useTrained->setEnabled(false);
    // A reopened project's runs have no model in memory, only their folders: this list reads them.
    mRunModels = new RunModelBox(mState, this);
    connect(mRunModels, &RunModelBox::runChosen, this, [this](std::size_t run) {
        try {
            setModel(mRunModels->savedModel(run), qtText(mState->runs()[run].name));
        } catch (const std::exception &error) {
            mStatus->setText(QString::fromStdString(error.what()));
        }
    });

    mPredictionLabel->setObjectName(QStringLiteral("predictionLabel"));
    QFont big = mPredictionLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.8);
    big.setBold(true);
    mPredictionLabel->setFont(big);
    mPredictionLabel->setToolTip(tr("The predicted peak GPU memory of the job described on the left"));
    mPredictionLabel->setWordWrap(true);
    mExtrapolationWarning->setObjectName(QStringLiteral("extrapolationWarning"));
    mExtrapolationWarning->setWordWrap(true);
    mExtrapolationWarning->setStyleSheet(
        QStringLiteral("QLabel { background: #fff3cd; color: #6b4e00; border: 1px solid #e0c060; padding: 4px; }"));
    mExtrapolationWarning->setToolTip(tr("The model saw no job like this in training (its folder keeps each "
                                         "feature's training range): treat the prediction with care"));
    mExtrapolationWarning->hide();
    mCoverage->setToolTip(tr("The share of jobs like this one whose real peak stays below the request (a model "
                             "trained with --coverage only)"));
    connect(mCoverage, &QDoubleSpinBox::valueChanged, this, &PredictPage::predictOne);
    mStatus->setObjectName(QStringLiteral("predictStatus"));
    mStatus->setWordWrap(true);
    mPredictFile->setObjectName(QStringLiteral("predictFile"));
    mPredictFile->setToolTip(tr("Predict every row of a CSV file and save prediction, actual and error columns, "
                                "as gpumem predict does"));
    mPredictFile->setEnabled(false);
    connect(mPredictFile, &QPushButton::clicked, this, &PredictPage::chooseFile);
    mPreview->setObjectName(QStringLiteral("predictionPreview"));
    mPreview->setModel(mPreviewModel);
    mPreview->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    mPreview->setWordWrap(false); // numbers must not break across lines
    mPreview->setToolTip(tr("The saved predictions"));
    installTableCopy(mPreview);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(load);
    buttons->addWidget(useTrained);
    buttons->addWidget(mRunModels);
    buttons->addWidget(mPredictFile);
    buttons->addStretch(1);

    auto *scroll = new QScrollArea(this);
    scroll->setWidget(mFormHost);
    scroll->setWidgetResizable(true);
    auto *jobBox = new QGroupBox(tr("One job — the prediction updates as you edit"), this);
    auto *jobLayout = new QVBoxLayout(jobBox);
    jobLayout->addWidget(scroll, 1);
    jobLayout->addWidget(mPredictionLabel);
    jobLayout->addWidget(mExtrapolationWarning);
    auto *coverageRow = new QHBoxLayout;
    coverageRow->addWidget(new QLabel(tr("Coverage:"), jobBox));
    coverageRow->addWidget(mCoverage);
    coverageRow->addStretch(1);
    jobLayout->addLayout(coverageRow);
    jobLayout->addWidget(mCapacities);
    jobBox->setMinimumWidth(440);

    auto *splitter = paneSplitter(jobBox, 2, mPreview, 3, this);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(mModelInfo);
    layout->addWidget(splitter, 1);
    layout->addWidget(mStatus);
    connect(&mWatcher, &QFutureWatcher<FileOutcome>::finished, this, &PredictPage::finishFile);
    // Another file: the line about the last prediction or error spoke of the previous one.
    connect(mState, &WorkbenchState::tableChanged, this, [this] {
        if (!isPredictingFile())
            mStatus->clear();
    });
    installWheelOnlyWhenFocused(this);
}

PredictPage::~PredictPage()
{
    mWatcher.waitForFinished();
}

bool PredictPage::loadModel(const QString &directory)
{
    try {
        setModel(prediction::loadSavedModel(coreText(directory)), QFileInfo(directory).fileName());
        return true;
    } catch (const std::exception &error) {
        mStatus->setText(QString::fromStdString(error.what()));
        return false;
    }
}

void PredictPage::setModel(prediction::SavedModel saved, const QString &description)
{
    if (isPredictingFile() || !saved.model)
        return;
    mSaved = std::move(saved);
    const auto &encoding = mSaved.model->schema().encoding;
    QStringList columns;
    for (const auto &name : encoding.numericColumns)
        columns << qtText(name).toHtmlEscaped();
    for (const auto &categorical : encoding.categoricals)
        columns << qtText(categorical.column).toHtmlEscaped();
    if (!encoding.sequenceColumn.empty())
        columns << qtText(encoding.sequenceColumn).toHtmlEscaped();
    mModelInfo->setText(tr("<b>%1</b> (%2) predicts <b>%3</b> from %4.")
                            .arg(qtText(models::regressorTitle(mSaved.model->name())), description.toHtmlEscaped(),
                                 qtText(mSaved.model->schema().target).toHtmlEscaped(),
                                 columns.join(QStringLiteral(", "))) +
                        (mSaved.calibration ? tr(" Calibrated upper bound: %1 score, stored coverage %2.")
                                                  .arg(qtText(calibration::scoreName(mSaved.calibration->score())))
                                                  .arg(mSaved.calibration->coverage())
                                            : tr(" No calibrated upper bound (train with --coverage for one).")));
    mCoverage->setEnabled(mSaved.calibration.has_value());
    if (mSaved.calibration) {
        const QSignalBlocker quiet(mCoverage);
        mCoverage->setValue(mSaved.calibration->coverage());
    }
    mCapacities->setVisible(mSaved.calibration.has_value());
    mPredictFile->setEnabled(true);
    buildForm();
    predictOne();
}

void PredictPage::buildForm()
{
    delete mFormHost->layout();
    mInputs.clear();
    // A copy: deleting a child changes the parent's list.
    const QObjectList children = mFormHost->children();
    qDeleteAll(children);
    auto *outer = new QVBoxLayout(mFormHost);
    mForm = new QFormLayout;
    outer->addLayout(mForm);
    outer->addStretch(1);
    const auto &encoding = mSaved.model->schema().encoding;
    const auto table = mState->table();
    const auto firstPresentRow =
        [&table](const std::string &name) -> std::optional<std::pair<std::size_t, std::size_t>> {
        if (!table)
            return std::nullopt;
        const auto column = table->columnIndex(name);
        if (!column)
            return std::nullopt;
        for (std::size_t row = 0; row < table->rowCount(); ++row)
            if (!table->column(*column).isBad(row))
                return std::make_pair(*column, row);
        return std::nullopt;
    };
    for (const auto &name : encoding.numericColumns) {
        auto *box = new QDoubleSpinBox(mFormHost);
        box->setRange(-1e15, 1e15);
        box->setDecimals(3);
        box->setObjectName(QStringLiteral("input_%1").arg(qtText(name)));
        box->setToolTip(tr("Numeric input %1, as in the training data").arg(qtText(name)));
        if (const auto cell = firstPresentRow(name)) {
            const auto &numbers = table->column(cell->first).numbers;
            // Whole-number columns (batch size, layer counts) are edited as whole numbers.
            if (std::all_of(numbers.begin(), numbers.end(),
                            [](double value) { return std::isnan(value) || value == std::floor(value); }))
                box->setDecimals(0);
            box->setValue(numbers[cell->second]);
        }
        connect(box, &QDoubleSpinBox::valueChanged, this, &PredictPage::predictOne);
        mForm->addRow(qtText(name), box);
        mInputs[name] = box;
    }
    for (const auto &categorical : encoding.categoricals) {
        auto *box = new QComboBox(mFormHost);
        for (const auto &category : categorical.categories)
            box->addItem(qtText(category));
        box->setObjectName(QStringLiteral("input_%1").arg(qtText(categorical.column)));
        box->setToolTip(tr("Category of %1 seen in training").arg(qtText(categorical.column)));
        connect(box, &QComboBox::currentIndexChanged, this, &PredictPage::predictOne);
        mForm->addRow(qtText(categorical.column), box);
        mInputs[categorical.column] = box;
    }
    if (!encoding.sequenceColumn.empty()) {
        auto *edit = new QPlainTextEdit(mFormHost);
        edit->setObjectName(QStringLiteral("input_%1").arg(qtText(encoding.sequenceColumn)));
        edit->setToolTip(tr("The layer list, one tuple per layer: [('linear', 1173, 2753031), ('ReLU', 1173, 0), …]"));
        edit->setPlaceholderText(QStringLiteral("[('linear', 512, 401920), ('ReLU', 512, 0), ('linear', 10, 5130)]"));
        if (const auto cell = firstPresentRow(encoding.sequenceColumn);
            cell && table->column(cell->first).type == data::ColumnType::Sequence)
            edit->setPlainText(sequenceText(table->column(cell->first).sequences, cell->second));
        edit->setMinimumHeight(100);
        edit->setMaximumHeight(220);
        connect(edit, &QPlainTextEdit::textChanged, this, &PredictPage::predictOne);
        mForm->addRow(qtText(encoding.sequenceColumn), edit);
        mInputs[encoding.sequenceColumn] = edit;
    }
    installWheelOnlyWhenFocused(this);
}

bool PredictPage::setInput(const QString &column, const QString &text)
{
    const auto it = mInputs.find(coreText(column));
    if (it == mInputs.end())
        return false;
    if (auto *box = qobject_cast<QDoubleSpinBox *>(it->second))
        box->setValue(text.toDouble());
    else if (auto *combo = qobject_cast<QComboBox *>(it->second))
        combo->setCurrentText(text);
    else if (auto *edit = qobject_cast<QPlainTextEdit *>(it->second))
        edit->setPlainText(text);
    return true;
}

QString PredictPage::predictionText() const
{
    return mPredictionLabel->text();
}

void PredictPage::predictOne()
{
    if (!hasModel() || isPredictingFile())
        return;
    prediction::JobValues values;
    for (const auto &[name, editor] : mInputs) {
        if (auto *box = qobject_cast<QDoubleSpinBox *>(editor))
            values[name] = box->value();
        else if (auto *combo = qobject_cast<QComboBox *>(editor))
            values[name] = coreText(combo->currentText());
        else if (auto *edit = qobject_cast<QPlainTextEdit *>(editor))
            values[name] = coreText(edit->toPlainText().simplified());
    }
    try {
        const prediction::Predictions predictions = prediction::predictJob(
            mSaved, values, mSaved.calibration ? std::optional<double>(mCoverage->value()) : std::nullopt);
        mPrediction = predictions.predicted[0];
        mUpperBound = predictions.upperBounds.size() > 0 ? predictions.upperBounds[0] : std::nan("");
        // Small jobs (a CPU probe's few MiB) keep their decimals; GPU-sized ones read as whole MiB.
        const int decimals = std::abs(mPrediction) < 10.0 ? 3 : std::abs(mPrediction) < 100.0 ? 1 : 0;
        QString shown =
            tr("predicted %L1 MiB  (%2 GiB)").arg(mPrediction, 0, 'f', decimals).arg(mPrediction / 1024.0, 0, 'g', 3);
        if (!std::isnan(mUpperBound))
            shown += tr(" · request %L1 MiB for %2%")
                         .arg(mUpperBound, 0, 'f', decimals)
                         .arg(100.0 * mCoverage->value(), 0, 'g', 3);
        mPredictionLabel->setText(shown);
        mPredictionLabel->setStyleSheet(QString());
        const std::string outside = prediction::describeExtrapolation(predictions, 0);
        mExtrapolationWarning->setText(
            tr("Outside the training data: %1. The prediction extrapolates.").arg(QString::fromStdString(outside)));
        mExtrapolationWarning->setVisible(!outside.empty());
        mCapacities->showRequest(mUpperBound);
    } catch (const std::exception &error) {
        mPrediction = std::nan("");
        mUpperBound = std::nan("");
        mPredictionLabel->setText(QString::fromStdString(error.what()));
        mExtrapolationWarning->hide();
        mPredictionLabel->setStyleSheet(QStringLiteral("color: #a01010; font-size: small; font-weight: normal;"));
    }
}

void PredictPage::setCoverage(double coverage)
{
    mCoverage->setValue(coverage);
}

QString PredictPage::checkInput(const QString &inputPath) const
{
    if (!hasModel())
        return tr("Load a model first.");
    try {
        prediction::checkPredictable(mSaved, coreText(inputPath));
        return {};
    } catch (const std::exception &error) {
        return QString::fromStdString(error.what());
    }
}

void PredictPage::chooseFile()
{
    const QString input =
        QFileDialog::getOpenFileName(this, tr("Jobs to predict"), {}, tr("CSV files (*.csv *.csv.gz);;All files (*)"));
    if (input.isEmpty())
        return;
    // A file the model cannot read is said so now, not after the user chose where to save.
    const QString problem = checkInput(input);
    if (!problem.isEmpty()) {
        mStatus->setText(problem);
        return;
    }
    const QString output = QFileDialog::getSaveFileName(
        this, tr("Save predictions"), QFileInfo(input).completeBaseName() + QStringLiteral("_predictions.csv"),
        tr("CSV files (*.csv)"));
    if (!output.isEmpty())
        predictFile(input, output);
}

void PredictPage::predictFile(const QString &inputPath, const QString &outputPath)
{
    if (!hasModel() || isPredictingFile())
        return;
    mOutputPath = outputPath;
    mStatus->setText(tr("Predicting %1 …").arg(QFileInfo(inputPath).fileName()));
    mPredictFile->setEnabled(false);
    const prediction::SavedModel saved = mSaved;
    const std::optional<double> coverage =
        mSaved.calibration ? std::optional<double>(mCoverage->value()) : std::nullopt;
    const data::BadCellPolicy policy = mState->badCellPolicy();
    const std::string input = coreText(inputPath);
    const std::string output = coreText(outputPath);
    mWatcher.setFuture(runInBackground<FileOutcome>([saved, coverage, policy, input, output](FileOutcome &outcome) {
        // The same pipeline as `gpumem predict`, so the saved file has the same rows and columns.
        const prediction::FilePredictions predicted =
            prediction::predictFile(saved, {input, 0, policy, coverage, output});
        try {
            outcome.preview = std::make_shared<const data::Table>(
                prediction::predictionPreview(predicted.table, predicted.predictions));
        } catch (const std::exception &) {
            // The preview is a courtesy; the file itself is written.
        }
        for (const auto &warning : predicted.predictions.warnings)
            outcome.warnings += QString::fromStdString(warning) + QLatin1Char(' ');
        if (predicted.extrapolating > 0)
            outcome.warnings += QObject::tr("%n job(s) lie outside the training data (see the column "
                                            "'extrapolated').",
                                            nullptr, static_cast<int>(predicted.extrapolating));
    }));
}

bool PredictPage::isPredictingFile() const
{
    return mWatcher.isRunning();
}

QString PredictPage::statusText() const
{
    return mStatus->text();
}

void PredictPage::finishFile()
{
    const FileOutcome outcome = mWatcher.result();
    mPredictFile->setEnabled(hasModel());
    if (!outcome.error.isEmpty()) {
        mStatus->setText(outcome.error);
        Q_EMIT predictionFinished(false);
        return;
    }
    if (outcome.preview) {
        mPreviewModel->setTable(outcome.preview);
        mPreview->resizeColumnsToContents();
    }
    mStatus->setText(tr("Saved %1. %2").arg(mOutputPath, outcome.warnings));
    Q_EMIT predictionFinished(true);
}

} // namespace gpumem::ui
