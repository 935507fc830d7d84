// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFuture>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <utility>

namespace gpumem::ui {

// Runs work(outcome) on Qt's thread pool and returns the future of the outcome.
// Nothing escapes the worker thread: an exception work throws becomes
// outcome.error, its one-line message (io::InputError names file:line:column).
template <typename Outcome, typename Work> QFuture<Outcome> runInBackground(Work work)
{
    return QtConcurrent::run([work = std::move(work)]() mutable {
        Outcome outcome;
        try {
            work(outcome);
        } catch (const std::exception &error) {
            outcome.error = QString::fromStdString(error.what());
        }
        return outcome;
    });
}

} // namespace gpumem::ui
