// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "evaluation/Experiment.h"

#include <QAbstractTableModel>

#include <memory>
#include <utility>

namespace gpumem::ui {

// What the Compare page's read-only tables share: one comparison's result, replaced
// whole, never edited. Read on the GUI thread only.
class ResultTableModel : public QAbstractTableModel
{
    Q_OBJECT

  public:
    using QAbstractTableModel::QAbstractTableModel;

  protected:
    // Shows result (nullptr clears the table); rebuild() recomputes, between the
    // model's reset signals, whatever the rows derive from it.
    template <typename Rebuild>
    void resetResult(std::shared_ptr<const evaluation::ExperimentResult> result, Rebuild rebuild)
    {
        beginResetModel();
        mResult = std::move(result);
        rebuild();
        endResetModel();
    }
    // The result on show, or nullptr.
    const evaluation::ExperimentResult *result() const { return mResult.get(); }

  private:
    std::shared_ptr<const evaluation::ExperimentResult> mResult;
};

} // namespace gpumem::ui
