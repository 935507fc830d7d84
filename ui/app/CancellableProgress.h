// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runtime/OperationControl.h"

#include <QWidget>

#include <memory>

class QProgressBar;
class QPushButton;

namespace gpumem::ui {

class ProgressBridge;

// A progress bar with a Cancel button for one background operation at a time (Esc
// cancels too while it shows). start() shows it and hands out the operation's
// progress observer and a fresh cancel flag; finish() hides it again.
class CancellableProgress : public QWidget
{
    Q_OBJECT

  public:
    explicit CancellableProgress(const QString &toolTip, QWidget *parent = nullptr);

    // Shows the bar at zero and returns the new operation's cancel flag; the
    // operation reports to observer(), from any thread.
    std::shared_ptr<runtime::OperationControl> start();
    // Hides the bar; the operation has ended.
    void finish();
    ProgressBridge *observer() const { return mBridge; }
    // Asks the running operation to stop, as the Cancel button does.
    void cancel();

  private:
    QProgressBar *mBar;
    QPushButton *mCancel;
    ProgressBridge *mBridge;
    std::shared_ptr<runtime::OperationControl> mControl;
};

} // namespace gpumem::ui
