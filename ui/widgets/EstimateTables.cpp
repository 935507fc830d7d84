// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/EstimateTables.h"

#include "estimate/MemoryEstimator.h"
#include "estimate/MemoryUnits.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/ResultTable.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QObject>
#include <QStringList>
#include <QTableWidget>

#include <algorithm>
#include <array>

namespace gpumem::ui {

namespace {

enum EstimateColumn
{
    BatchColumn,
    AllocatedColumn,
    ReservedColumn,
    DeviceTotalColumn,
    FitsColumn,
    FirstCategoryColumn, // then one column per estimate::Category, in its order
    OverheadColumn = FirstCategoryColumn + static_cast<int>(estimate::kCategoryCount),
    EstimateColumnCount
};

int categoryColumn(estimate::Category category)
{
    return FirstCategoryColumn + static_cast<int>(category);
}

// The categories only some models or jobs hold (a convolution's cuDNN workspaces, a
// sharded job's gathered parameters and buffers): a column of zeros for the others.
constexpr std::array<estimate::Category, 3> kOccasionalCategories = {estimate::Category::CudnnWorkspaces,
                                                                     estimate::Category::GatheredParameters,
                                                                     estimate::Category::CommunicationBuffers};

const QColor fitsColour(30, 110, 40);
const QColor failsColour(160, 20, 20);

// MiB with one decimal, as gpumem estimate prints them.
QString mibText(double mib)
{
    return QString::number(mib, 'f', 1);
}

QString mibText(std::uint64_t bytes)
{
    return mibText(estimate::mibOf(bytes));
}

QTableWidgetItem *cell(const QString &text, bool number = true)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment((number ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    return item;
}

QTableWidgetItem *answerCell(const QString &text, bool fits, bool number)
{
    QTableWidgetItem *item = cell(text, number);
    item->setForeground(fits ? fitsColour : failsColour);
    return item;
}

} // namespace

void prepareEstimateTable(QTableWidget *table)
{
    prepareResultTable(table, {QObject::tr("batch"), QObject::tr("allocated"), QObject::tr("reserved"),
                               QObject::tr("device total"), QObject::tr("fits"), QObject::tr("parameters"),
                               QObject::tr("gradients"), QObject::tr("optimizer"), QObject::tr("activations"),
                               QObject::tr("cuDNN"), QObject::tr("gathered"), QObject::tr("comm buffers"),
                               QObject::tr("overhead")});
    table->horizontalHeaderItem(categoryColumn(estimate::Category::GatheredParameters))
        ->setToolTip(QObject::tr("parameters gathered from the other GPUs' shards (ZeRO-3, FSDP)"));
    table->horizontalHeaderItem(categoryColumn(estimate::Category::CommunicationBuffers))
        ->setToolTip(QObject::tr("buckets and buffers the gradients are reduced through"));
    table->horizontalHeaderItem(categoryColumn(estimate::Category::CudnnWorkspaces))
        ->setToolTip(QObject::tr("cuDNN's convolution workspaces live at the allocated peak: memory only a GPU "
                                 "allocates"));
    // Each column as wide as its header and numbers, scrolling on a narrow screen: stretched
    // columns would cut the headers there instead.
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void fillEstimateTable(QTableWidget *table, const estimate::EstimateResult &result)
{
    table->setRowCount(static_cast<int>(result.estimates.size()));
    for (const estimate::Category occasional : kOccasionalCategories) {
        const auto index = static_cast<std::size_t>(occasional);
        table->setColumnHidden(
            categoryColumn(occasional),
            std::all_of(result.estimates.begin(), result.estimates.end(),
                        [index](const estimate::BatchEstimate &estimate) { return estimate.bytesAtPeak[index] == 0; }));
    }
    for (int row = 0; row < table->rowCount(); ++row) {
        const estimate::BatchEstimate &estimate = result.estimates[static_cast<std::size_t>(row)];
        const bool fits = estimate.fitsOn(result.profile);
        table->setItem(row, BatchColumn, cell(QString::number(estimate.batchSize)));
        table->setItem(row, AllocatedColumn, cell(mibText(estimate.peakAllocatedBytes)));
        table->setItem(row, ReservedColumn, cell(mibText(estimate.peakReservedBytes)));
        table->setItem(row, DeviceTotalColumn, cell(mibText(estimate.deviceTotalMib())));
        table->setItem(row, FitsColumn, answerCell(fits ? QObject::tr("yes") : QObject::tr("no"), fits, false));
        for (std::size_t category = 0; category < estimate::kCategoryCount; ++category)
            table->setItem(row, FirstCategoryColumn + static_cast<int>(category),
                           cell(mibText(estimate.bytesAtPeak[category])));
        table->setItem(row, OverheadColumn, cell(mibText(estimate.allocatorOverheadBytes())));
        table->item(row, BatchColumn)
            ->setToolTip(estimate.measuredDirectly ? QObject::tr("traced at this batch on the CPU")
                                                   : QObject::tr("extrapolated from the small traces"));
    }
}

void prepareProfileTable(QTableWidget *table)
{
    prepareResultTable(table, {QObject::tr("GPU"), QObject::tr("total"), QObject::tr("fits"), QObject::tr("spare"),
                               QObject::tr("largest\nbatch")});
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
}

void fillProfileTable(QTableWidget *table, const estimate::EstimateResult &result,
                      const std::vector<estimate::GpuProfile> &profiles, std::int64_t batch)
{
    table->setRowCount(0);
    const auto found =
        std::find_if(result.estimates.begin(), result.estimates.end(),
                     [batch](const estimate::BatchEstimate &estimate) { return estimate.batchSize == batch; });
    if (found == result.estimates.end())
        return;
    table->setRowCount(static_cast<int>(profiles.size()));
    for (int row = 0; row < table->rowCount(); ++row) {
        const estimate::GpuProfile &profile = profiles[static_cast<std::size_t>(row)];
        // The replay does not depend on the GPU: only the profile's context and workspace change.
        estimate::BatchEstimate onProfile = *found;
        onProfile.useProfile(profile);
        const bool fits = onProfile.fitsOn(profile);
        const double spare = profile.capacityMib - onProfile.deviceTotalMib();
        auto *name = cell(qtText(profile.name), false);
        name->setToolTip(QObject::tr("%L1 MiB; context %2 MiB, workspace %3 MiB. %4")
                             .arg(profile.capacityMib, 0, 'f', 0)
                             .arg(mibText(profile.contextMib), mibText(profile.workspaceMib), qtText(profile.source)));
        if (profile.name == result.profile.name) {
            QFont bold = name->font();
            bold.setBold(true);
            name->setFont(bold);
        }
        table->setItem(row, 0, name);
        table->setItem(row, 1, cell(mibText(onProfile.deviceTotalMib())));
        table->setItem(row, 2, answerCell(fits ? QObject::tr("yes") : QObject::tr("no"), fits, false));
        table->setItem(row, 3, answerCell(QStringLiteral("%L1").arg(spare, 0, 'f', 0), fits, true));
        // Searched in the same run; a result without extrapolating traces has none.
        QString largest = QStringLiteral("—");
        for (const auto &[profileName, largestBatch] : result.maxBatchByProfile)
            if (profileName == profile.name)
                largest = QStringLiteral("%L1").arg(largestBatch);
        table->setItem(row, 4, cell(largest));
    }
}

QString estimateSummary(const QString &modelPath, const estimate::EstimateResult &result)
{
    QStringList traced;
    for (const std::int64_t batch : result.tracedBatches)
        traced << QString::number(batch);
    QString summary = QObject::tr("<b>%1</b>: %L2 parameters (%3 MiB)")
                          .arg(QFileInfo(modelPath).fileName().toHtmlEscaped())
                          .arg(result.model.parameterCount)
                          .arg(mibText(result.model.parameterBytes));
    // LoRA trains its adapters alone: the count peft's print_trainable_parameters gives.
    if (result.model.trainableParameterCount >= 0 &&
        result.model.trainableParameterCount != result.model.parameterCount)
        summary += QObject::tr(", %L1 trained").arg(result.model.trainableParameterCount);
    summary += QObject::tr(" · on <b>%1</b> (%L2 MiB; context %3 MiB, workspace %4 MiB)")
                   .arg(qtText(result.profile.name).toHtmlEscaped())
                   .arg(result.profile.capacityMib, 0, 'f', 0)
                   .arg(mibText(result.profile.contextMib), mibText(result.profile.workspaceMib));
    if (result.maxBatch)
        summary += QStringLiteral("<br>") + QObject::tr("Largest batch that fits: <b>%1</b>").arg(*result.maxBatch);
    summary +=
        QStringLiteral("<br>") + QObject::tr("Traced on %1 at batch %2%3, replayed through the CUDA "
                                             "caching-allocator model. Memory in MiB.")
                                     .arg(qtText(result.model.tracedOn), traced.join(QStringLiteral(", ")),
                                          result.extrapolated ? QObject::tr(", extrapolated in the batch") : QString());
    for (const auto &note : result.notes)
        summary += QStringLiteral("<br>") + QObject::tr("Note: %1").arg(qtText(note).toHtmlEscaped());
    return summary;
}

} // namespace gpumem::ui
