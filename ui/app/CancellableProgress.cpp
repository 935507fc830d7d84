// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/CancellableProgress.h"

#include "ui/app/ProgressBridge.h"

#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>

namespace gpumem::ui {

CancellableProgress::CancellableProgress(const QString &toolTip, QWidget *parent)
    : QWidget(parent)
    , mBar(new QProgressBar(this))
    , mCancel(new QPushButton(tr("Cancel"), this))
    , mBridge(new ProgressBridge(this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mBar);
    layout->addWidget(mCancel);
    mBar->setObjectName(QStringLiteral("operationProgress"));
    mBar->setMaximumWidth(160);
    mBar->setTextVisible(false);
    mBar->setToolTip(toolTip);
    mCancel->setObjectName(QStringLiteral("cancelOperation"));
    mCancel->setToolTip(tr("Stop; nothing on show changes (Esc)"));
    mCancel->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(mCancel, &QPushButton::clicked, this, &CancellableProgress::cancel);
    mBridge->showProgressOn(mBar);
    hide();
}

std::shared_ptr<runtime::OperationControl> CancellableProgress::start()
{
    // A fresh flag per operation: a cancelled one's flag must not stop the next.
    mControl = std::make_shared<runtime::OperationControl>();
    mBar->setValue(0);
    show();
    return mControl;
}

void CancellableProgress::finish()
{
    hide();
}

void CancellableProgress::cancel()
{
    if (mControl)
        mControl->cancel();
}

} // namespace gpumem::ui
