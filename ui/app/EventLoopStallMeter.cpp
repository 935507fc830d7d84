// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/EventLoopStallMeter.h"

#include <algorithm>

namespace gpumem::ui {

EventLoopStallMeter::EventLoopStallMeter(int intervalMilliseconds, QObject *parent)
    : QObject(parent)
{
    // A precise timer: a coarse one may beat up to 5% late, which would read as stalls.
    mHeartbeat.setTimerType(Qt::PreciseTimer);
    mHeartbeat.setInterval(intervalMilliseconds);
    connect(&mHeartbeat, &QTimer::timeout, this, &EventLoopStallMeter::beat);
}

void EventLoopStallMeter::start()
{
    mLongestStall = 0;
    mClock.start();
    mLastBeat = 0; // the measurement starts as a beat
    mHeartbeat.start();
}

void EventLoopStallMeter::stop()
{
    // The time since the last beat counts too: a stall still running when the
    // measurement ends is a stall all the same.
    beat();
    mHeartbeat.stop();
}

double EventLoopStallMeter::longestStallMilliseconds() const
{
    return static_cast<double>(mLongestStall) / 1e6;
}

void EventLoopStallMeter::beat()
{
    if (!mHeartbeat.isActive())
        return;
    const qint64 now = mClock.nsecsElapsed();
    const qint64 interval = static_cast<qint64>(mHeartbeat.interval()) * 1'000'000;
    mLongestStall = std::max(mLongestStall, now - mLastBeat - interval);
    mLastBeat = now;
}

} // namespace gpumem::ui
