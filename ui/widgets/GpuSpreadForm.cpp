// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/widgets/GpuSpreadForm.h"

#include "ui/widgets/ApplicableControl.h"
#include "ui/widgets/NamedWidget.h"
#include "ui/widgets/QtText.h"
#include "ui/widgets/WheelOnlyWhenFocused.h"

#include <QComboBox>
#include <QFormLayout>
#include <QSpinBox>

namespace gpumem::ui {

GpuSpreadForm::GpuSpreadForm(QWidget *parent)
    : QWidget(parent)
{
    mGpus = namedWidget<QSpinBox>(QStringLiteral("gpusBox"),
                                  tr("GPUs the job is spread over; the estimate is then one GPU's, at the batch "
                                     "size each GPU takes"),
                                  this);
    mGpus->setRange(1, static_cast<int>(estimate::largestGpuCount));
    mRemembered.bind(mGpus, QStringLiteral("yourModel/languageModel/gpus"), 1);
    mSharding = namedWidget<QComboBox>(
        QStringLiteral("shardingBox"),
        tr("How the data-parallel GPUs share the model: DDP keeps a replica on each; DeepSpeed's ZeRO partitions "
           "the optimizer state (1), the gradients too (2) and the parameters too (3); FSDP2 shards all three"),
        this);
    const std::vector<std::pair<const char *, const char *>> schemes = {
        {"ddp", QT_TR_NOOP("DDP")},      {"zero1", QT_TR_NOOP("ZeRO-1")}, {"zero2", QT_TR_NOOP("ZeRO-2")},
        {"zero3", QT_TR_NOOP("ZeRO-3")}, {"fsdp", QT_TR_NOOP("FSDP")},
    };
    for (const auto &[key, label] : schemes)
        mSharding->addItem(tr(label), QLatin1String(key));
    mRemembered.bind(mSharding, QStringLiteral("yourModel/languageModel/sharding"), QStringLiteral("fsdp"));
    mTensorParallel = namedWidget<QSpinBox>(
        QStringLiteral("tensorParallelBox"),
        tr("GPUs among them that split every layer's heads and MLP columns (Megatron); the Llama family only"), this);
    mTensorParallel->setRange(1, 1024);
    mRemembered.bind(mTensorParallel, QStringLiteral("yourModel/languageModel/tensorParallel"), 1);
    mRemembered.restore();

    connect(mGpus, &QSpinBox::valueChanged, this, &GpuSpreadForm::updateApplicable);
    connect(mTensorParallel, &QSpinBox::valueChanged, this, &GpuSpreadForm::updateApplicable);

    auto *layout = new QFormLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setRowWrapPolicy(QFormLayout::WrapLongRows);
    layout->addRow(tr("GPUs:"), mGpus);
    layout->addRow(tr("Sharding:"), mSharding);
    layout->addRow(tr("Tensor parallel:"), mTensorParallel);
    updateApplicable();
    installWheelOnlyWhenFocused(this);
}

void GpuSpreadForm::updateApplicable()
{
    setApplicable(mSharding, mGpus->value() > mTensorParallel->value(),
                  tr("A scheme shares the model among data-parallel GPUs: give more GPUs than the tensor-parallel "
                     "ones"));
    setApplicable(mTensorParallel, mGpus->value() > 1, tr("Tensor parallelism splits layers over several GPUs"));
}

void GpuSpreadForm::applyTo(estimate::EstimateConfiguration &model) const
{
    model.gpus = mGpus->value();
    model.tensorParallel = model.gpus > 1 ? mTensorParallel->value() : 1;
    model.sharding = model.gpus > model.tensorParallel ? coreText(mSharding->currentData().toString()) : "none";
}

void GpuSpreadForm::remember() const
{
    mRemembered.remember();
}

} // namespace gpumem::ui
