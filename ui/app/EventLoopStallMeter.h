// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace gpumem::ui {

// Measures how long the event loop of the thread it lives on could not run: a
// heartbeat timer beats every few milliseconds, and the longest gap between two
// beats beyond that interval is the longest stall. The benchmarks and the tests
// that promise a responsive window share it.
class EventLoopStallMeter : public QObject
{
  public:
    explicit EventLoopStallMeter(int intervalMilliseconds = 5, QObject *parent = nullptr);

    // Starts beating and forgets the stalls measured before.
    void start();
    void stop();
    // The longest stall since start(), in milliseconds.
    double longestStallMilliseconds() const;

  private:
    void beat();

    QTimer mHeartbeat;
    QElapsedTimer mClock;
    qint64 mLastBeat = 0;     // nanoseconds on mClock
    qint64 mLongestStall = 0; // nanoseconds
};

} // namespace gpumem::ui
