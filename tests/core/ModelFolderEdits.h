// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What an attacker does to a saved model folder in the trust tests: copy it,
// edit model.json, and record an edited file's new size and digest so that the
// digest no longer protects it and the other checks must.
#include "TestSupport.h"
#include "io/Sha256.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace gpumem::tests {

inline void copyFolder(const QString &from, const QString &to)
{
    QDir().mkpath(to);
    for (const QString &name : QDir(from).entryList(QDir::Files))
        QVERIFY(QFile::copy(from + '/' + name, to + '/' + name));
}

inline QJsonObject readModelJson(const QString &folder)
{
    return QJsonDocument::fromJson(fileBytes(folder + "/model.json")).object();
}

inline void writeModelJson(const QString &folder, const QJsonObject &metadata)
{
    QVERIFY(writeFile(folder + "/model.json", QJsonDocument(metadata).toJson()));
}

// Records the current size and digest of file in the folder's model.json.
inline void rerecord(const QString &folder, const QString &file)
{
    const QByteArray bytes = fileBytes(folder + '/' + file);
    QJsonObject metadata = readModelJson(folder);
    QJsonObject files = metadata.value("files").toObject();
    files.insert(file, QJsonObject{{"bytes", bytes.size()},
                                   {"sha256", QString::fromStdString(gpumem::io::sha256Hex(std::string(
                                                  bytes.constData(), static_cast<std::size_t>(bytes.size()))))}});
    metadata.insert("files", files);
    writeModelJson(folder, metadata);
}

} // namespace gpumem::tests
