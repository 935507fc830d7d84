// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/pdfreport/OffscreenGui.h"

#include "io/InputError.h"

#include <QGuiApplication>

#include <cstdlib>

namespace gpumem::pdfreport {

void ensureGuiApplication()
{
    if (QCoreApplication::instance()) {
        if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
            throw io::InputError("PDF reports need Qt's GUI application, and this program runs a console one");
        return;
    }
    // QGuiApplication keeps references to argc and argv for its whole life.
    static int argc = 3;
    static char name[] = "gpumem";
    static char option[] = "-platform";
    static char platform[] = "offscreen";
    static char *argv[] = {name, option, platform, nullptr};
    // Kept, never destroyed: tearing Qt down while static objects are destroyed at exit
    // is not safe, and the process ends soon after a report anyway.
    // Qt's notes about the session (no XDG_RUNTIME_DIR and the like) mean nothing to a
    // user of the command line, whose stderr carries one line per problem.
    qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &, const QString &) {
        if (type == QtFatalMsg)
            std::abort();
    });
    static QGuiApplication *application = new QGuiApplication(argc, argv);
    (void)application;
}

} // namespace gpumem::pdfreport
