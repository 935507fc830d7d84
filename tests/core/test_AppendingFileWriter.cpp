// SPDX-License-Identifier: GPL-3.0-or-later
// A file that grows a line at a time keeps what was there until its first line, then only ever
// gains whole lines.
#include "FileSystemHazards.h"
#include "RaisedInputError.h"
#include "TestSupport.h"
#include "io/AppendingFileWriter.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using gpumem::io::AppendingFileWriter;

namespace {

ino_t inodeOf(const QString &path)
{
    struct stat info = {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_ino : 0;
}

} // namespace

class TestAppendingFileWriter : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void theOldFileStaysUntilTheFirstLine()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("runs.jsonl");
        QVERIFY(writeFile(path, "runs of an earlier sweep\n"));
        {
            AppendingFileWriter writer(path.toStdString());
            QCOMPARE(fileBytes(path), QByteArray("runs of an earlier sweep\n"));
        } // stopped before its first line: the old file is all there is
        QCOMPARE(fileBytes(path), QByteArray("runs of an earlier sweep\n"));
        QCOMPARE(QDir(folder.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"runs.jsonl"});

        AppendingFileWriter writer(path.toStdString());
        writer.append("first\n");
        QCOMPARE(fileBytes(path), QByteArray("first\n"));
    }

    void laterLinesAreAppendedToTheSameFile()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("runs.jsonl");
        AppendingFileWriter writer(path.toStdString());
        writer.append("first\n");
        const ino_t first = inodeOf(path);
        QVERIFY(first != 0);
        for (int line = 2; line <= 100; ++line)
            writer.append("line " + std::to_string(line) + "\n");
        // Appended, not rewritten: a rename of a new copy would have given the file another inode.
        QCOMPARE(inodeOf(path), first);
        QCOMPARE(writer.size(), std::uint64_t(fileBytes(path).size()));
        QVERIFY(fileBytes(path).endsWith("line 99\nline 100\n"));
    }

    void aFailedLineIsCutBackToTheLastWholeLine()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath("runs.jsonl");
        AppendingFileWriter writer(path.toStdString());
        writer.append("first\n");

        // The write past the limit fails part-way, as on a full disk.
        const auto error = gpumem::tests::raisedInputError([&] {
            const gpumem::tests::FileSizeLimit fullDisk(64);
            writer.append(std::string(100, 'x') + "\n");
        });

        QVERIFY2(std::string(error.what()).find("runs.jsonl: cannot write (disk full?)") != std::string::npos,
                 error.what());
        QCOMPARE(fileBytes(path), QByteArray("first\n"));
        writer.append("second\n");
        QCOMPARE(fileBytes(path), QByteArray("first\nsecond\n"));
    }

    void aFolderIsRefusedBeforeTheWork()
    {
        QTemporaryDir folder;
        QVERIFY_THROWS_EXCEPTION(gpumem::io::InputError, AppendingFileWriter(folder.path().toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestAppendingFileWriter)
#include "test_AppendingFileWriter.moc"
