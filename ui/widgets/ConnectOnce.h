// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QVariant>

#include <utility>

namespace gpumem::ui {

// Connects signal of sender to slot, run in receiver's context, the first time it is called
// with receiver and flag, and does nothing after: a function that styles or fits a widget
// may be applied to it again and again and still react to each signal once. The property
// named flag on receiver marks it as connected.
template <typename Sender, typename Signal, typename Slot>
void connectOnce(const char *flag, Sender *sender, Signal signal, QObject *receiver, Slot slot)
{
    if (receiver->property(flag).toBool())
        return;
    receiver->setProperty(flag, true);
    QObject::connect(sender, signal, receiver, std::move(slot));
}

} // namespace gpumem::ui
