// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/app/BuiltInDatasets.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMap>

namespace gpumem::ui {

namespace {

QStringList datasetDirectories()
{
    const QString overridden = qEnvironmentVariable("GPUMEM_DATASET_DIR");
    if (!overridden.isEmpty())
        return {overridden};
    return {QCoreApplication::applicationDirPath() + QStringLiteral("/../share/gpumem-workbench/datasets"),
            QStringLiteral(GPUMEM_SOURCE_DATASET_DIR)};
}

} // namespace

QStringList builtInDatasets()
{
    // Keyed by file name so that an installed copy hides the source tree's one.
    QMap<QString, QString> byName;
    for (const QString &directory : datasetDirectories())
        for (const QFileInfo &file :
             QDir(directory).entryInfoList({QStringLiteral("*.csv"), QStringLiteral("*.csv.gz")}, QDir::Files))
            if (!byName.contains(file.fileName()))
                byName.insert(file.fileName(), file.absoluteFilePath());
    return byName.values();
}

QString datasetName(const QString &path)
{
    QString name = QFileInfo(path).fileName();
    for (const QString &suffix : {QStringLiteral(".csv.gz"), QStringLiteral(".csv")})
        if (name.endsWith(suffix)) {
            name.chop(suffix.size());
            break;
        }
    return name;
}

QString builtInDataset(const QString &name)
{
    for (const QString &path : builtInDatasets())
        if (datasetName(path) == name)
            return path;
    return {};
}

} // namespace gpumem::ui
