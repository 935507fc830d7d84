// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "estimate/EstimateConfiguration.h"
#include "ui/app/RememberedFields.h"

#include <QWidget>

class QComboBox;
class QSpinBox;

namespace gpumem::ui {

// The Your model page's controls for a job spread over several GPUs, as `gpumem
// estimate --gpus N --sharding S --tensor-parallel T` takes them: the estimate is then
// one GPU's. The scheme applies only when GPUs are left beyond the tensor-parallel ones.
// Remembered between sessions.
class GpuSpreadForm : public QWidget
{
    Q_OBJECT

  public:
    explicit GpuSpreadForm(QWidget *parent = nullptr);

    // Sets model's GPUs, scheme and tensor-parallel degree from the controls.
    void applyTo(estimate::EstimateConfiguration &model) const;
    void remember() const;

  private:
    void updateApplicable();

    QSpinBox *mGpus;
    QComboBox *mSharding;
    QSpinBox *mTensorParallel;
    RememberedFields mRemembered;
};

} // namespace gpumem::ui
