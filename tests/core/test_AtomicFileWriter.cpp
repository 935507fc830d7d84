#include "io/AtomicFileWriter.h"
#include "io/InputError.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using gpumem::io::AtomicFileWriter;

namespace {

QByteArray contentOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

} // namespace

class TestAtomicFileWriter : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void commitReplacesTheFile()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("report.json"));
        gpumem::io::writeFileAtomically(path.toStdString(), "old");
        gpumem::io::writeFileAtomically(path.toStdString(), "new content");
        QCOMPARE(contentOf(path), QByteArray("new content"));
        QCOMPARE(QDir(folder.path()).entryList(QDir::Files), QStringList{QStringLiteral("report.json")});
    }

    void abandonedWriteLeavesTheOldFileAndNoLitter()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("model.json"));
        gpumem::io::writeFileAtomically(path.toStdString(), "complete");
        {
            AtomicFileWriter writer(path.toStdString());
            writer.stream() << "half writ";
            // An exception or a cancel ends the writer here without commit().
        }
        QCOMPARE(contentOf(path), QByteArray("complete"));
        QCOMPARE(QDir(folder.path()).entryList(QDir::Files), QStringList{QStringLiteral("model.json")});
    }

    void refusesAFolderThatDoesNotExist()
    {
        QTemporaryDir folder;
        const std::string path = folder.filePath(QStringLiteral("missing/out.csv")).toStdString();
        try {
            AtomicFileWriter writer(path);
            QFAIL("no error raised");
        } catch (const gpumem::io::InputError &error) {
            QCOMPARE(error.file(), path);
            QVERIFY2(error.message().find("cannot write") == 0, error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestAtomicFileWriter)
#include "test_AtomicFileWriter.moc"
