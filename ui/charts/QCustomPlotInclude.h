// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// qcustomplot.h uses Qt's `signals` and `foreach` keywords, which QT_NO_KEYWORDS
// (needed beside Torch headers) turns off; they are mapped for this header only.
// Include this instead of <qcustomplot.h>, and only from .cpp files.
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef signals
#undef slots
#undef emit
#undef foreach
