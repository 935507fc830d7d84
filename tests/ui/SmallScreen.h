// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Runs a UI test on the offscreen platform with one screen of a given size, whatever the
// environment says: the smallest screen the workbench is made for is 1024×768.

#include <QApplication>
#include <QByteArray>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace gpumem::tests {

template <typename Test> int runOnScreen(int argc, char **argv, int width, int height)
{
    QTemporaryDir folder;
    QFile screens(folder.filePath(QStringLiteral("screens.json")));
    if (!screens.open(QIODevice::WriteOnly))
        return 1;
    screens.write(QStringLiteral("{\"screens\": [{\"name\": \"small\", \"x\": 0, \"y\": 0, \"width\": %1, \"height\": "
                                 "%2, \"logicalDpi\": 96, \"logicalBaseDpi\": 96, \"dpr\": 1}]}")
                      .arg(width)
                      .arg(height)
                      .toUtf8());
    screens.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + screens.fileName().toUtf8());
    QApplication application(argc, argv);
    Test test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace gpumem::tests
