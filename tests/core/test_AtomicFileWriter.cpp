// SPDX-License-Identifier: GPL-3.0-or-later
#include "FileSystemHazards.h"
#include "RaisedInputError.h"
#include "io/AtomicDirectoryWriter.h"
#include "io/AtomicFileWriter.h"
#include "io/InputError.h"
#include "io/TemporaryPaths.h"
#include "io/TemporarySiblings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using gpumem::io::AtomicDirectoryWriter;
using gpumem::io::AtomicFileWriter;

namespace {

QByteArray contentOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

QStringList entriesOf(const QString &folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

mode_t modeOf(const QString &path)
{
    struct stat info = {};
    return ::stat(path.toLocal8Bit().constData(), &info) == 0 ? info.st_mode & 07777 : 0;
}

std::string messageOf(const std::function<void()> &action)
{
    try {
        action();
    } catch (const gpumem::io::InputError &error) {
        return error.what();
    }
    return "<no error>";
}

void writeModelFolder(const QString &folder, const QByteArray &name)
{
    QDir().mkpath(folder);
    QFile file(folder + "/model.json");
    file.open(QIODevice::WriteOnly);
    file.write(R"({"format": "gpumem-model", "format_version": 1, "model": ")" + name + "\"}");
}

bool writeModelFolderAt(const QString &folder)
{
    writeModelFolder(folder, "someone else's");
    return QFile::exists(folder + "/model.json");
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
        const auto error = gpumem::tests::raisedInputError([&] { AtomicFileWriter writer(path); });
        QCOMPARE(error.file(), path);
        QVERIFY2(error.message().find("cannot write") == 0, error.what());
    }

    void keepsTheModeOfAnExistingFile()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("shared.csv"));
        gpumem::io::writeFileAtomically(path.toStdString(), "old");
        QCOMPARE(::chmod(path.toLocal8Bit().constData(), 0640), 0);
        gpumem::io::writeFileAtomically(path.toStdString(), "new");
        QCOMPARE(modeOf(path), mode_t(0640));
        QCOMPARE(contentOf(path), QByteArray("new"));
    }

    void givesANewFileTheUmaskMode()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("new.csv"));
        const mode_t previous = ::umask(022);
        gpumem::io::writeFileAtomically(path.toStdString(), "x");
        ::umask(previous);
        QCOMPARE(modeOf(path), mode_t(0644));
    }

    void writesTheTargetOfASymlinkAndKeepsTheLink()
    {
        QTemporaryDir folder;
        QVERIFY(QDir().mkpath(folder.filePath("real")));
        const QString target = folder.filePath(QStringLiteral("real/report.json"));
        gpumem::io::writeFileAtomically(target.toStdString(), "old");
        QCOMPARE(::symlink("real/report.json", folder.filePath("link.json").toLocal8Bit().constData()), 0);
        gpumem::io::writeFileAtomically(folder.filePath("link.json").toStdString(), "new");
        QVERIFY(QFileInfo(folder.filePath("link.json")).isSymLink());
        QCOMPARE(contentOf(target), QByteArray("new"));
        QCOMPARE(entriesOf(folder.filePath("real")), QStringList{"report.json"});
    }

    void createsTheTargetOfADanglingSymlink()
    {
        QTemporaryDir folder;
        QCOMPARE(::symlink("later.csv", folder.filePath("link.csv").toLocal8Bit().constData()), 0);
        gpumem::io::writeFileAtomically(folder.filePath("link.csv").toStdString(), "made");
        QVERIFY(QFileInfo(folder.filePath("link.csv")).isSymLink());
        QCOMPARE(contentOf(folder.filePath("later.csv")), QByteArray("made"));
    }

    void writesThroughADeviceAndLeavesItADevice()
    {
        if (::access("/dev/null", W_OK) != 0)
            QSKIP("/dev/null is not writable here");
        // The bug: as root, the rename replaced /dev/null with a regular file.
        gpumem::io::writeFileAtomically("/dev/null", "discarded");
        struct stat info = {};
        QCOMPARE(::stat("/dev/null", &info), 0);
        QVERIFY(S_ISCHR(info.st_mode));
        QCOMPARE(QDir("/dev").entryList({"null.tmp-*"}, QDir::AllEntries | QDir::System), QStringList());
    }

    void writesThroughADescriptorNamedByProcAtItsPosition()
    {
        // A report to /dev/stdout redirected to a file must join that file, not replace it.
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("stdout.txt"));
        const int descriptor = ::open(path.toLocal8Bit().constData(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        QVERIFY(descriptor >= 0);
        QCOMPARE(::write(descriptor, "table\n", 6), ssize_t(6));
        struct stat before = {};
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &before), 0);
        gpumem::io::writeFileAtomically("/dev/fd/" + std::to_string(descriptor), "report\n");
        QCOMPARE(::write(descriptor, "end\n", 4), ssize_t(4));
        ::close(descriptor);
        struct stat after = {};
        QCOMPARE(::stat(path.toLocal8Bit().constData(), &after), 0);
        QCOMPARE(after.st_ino, before.st_ino);
        QCOMPARE(contentOf(path), QByteArray("table\nreport\nend\n"));
        QCOMPARE(entriesOf(folder.path()), QStringList{"stdout.txt"});
    }

    void refusesAFolderWhereAFileBelongs()
    {
        QTemporaryDir folder;
        const std::string message =
            messageOf([&] { gpumem::io::writeFileAtomically(folder.path().toStdString(), "x"); });
        QVERIFY2(message.find("is a folder") != std::string::npos, message.c_str());
        QVERIFY(QFileInfo(folder.path()).isDir());
    }

    void aFullDiskKeepsTheOldFileAndLeavesNoTemporaryFile()
    {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("report.json"));
        gpumem::io::writeFileAtomically(path.toStdString(), "old content");
        std::string message;
        {
            gpumem::tests::FileSizeLimit limit(1000);
            message = messageOf([&] { gpumem::io::writeFileAtomically(path.toStdString(), std::string(200000, 'x')); });
        }
        QVERIFY2(message.find("cannot write (disk full?): File too large") != std::string::npos, message.c_str());
        QVERIFY2(message.find('\n') == std::string::npos, message.c_str());
        QCOMPARE(contentOf(path), QByteArray("old content"));
        QCOMPARE(entriesOf(folder.path()), QStringList{"report.json"});
    }

    void folderWriterRefusesAFolderThatIsNotAModelFolder()
    {
        QTemporaryDir folder;
        const QString project = folder.filePath("project");
        QVERIFY(QDir().mkpath(project));
        gpumem::io::writeFileAtomically((project + "/jobs.csv").toStdString(), "a,b\n1,2\n");
        const std::string message = messageOf([&] { AtomicDirectoryWriter writer(project.toStdString()); });
        QVERIFY2(message.find("is not a gpumem model folder") != std::string::npos, message.c_str());
        QCOMPARE(entriesOf(folder.path()), QStringList{"project"});
        QCOMPARE(contentOf(project + "/jobs.csv"), QByteArray("a,b\n1,2\n"));
    }

    void folderWriterChecksTheDestinationAgainOnCommit()
    {
        QTemporaryDir folder;
        const QString destination = folder.filePath("model");
        AtomicDirectoryWriter writer(destination.toStdString());
        std::ofstream(writer.filePath("model.json")) << "{}";
        // While the model trained, the user put something else at the destination.
        QVERIFY(QDir().mkpath(destination));
        gpumem::io::writeFileAtomically((destination + "/thesis.tex").toStdString(), "chapter 1");
        const std::string message = messageOf([&] { writer.commit(); });
        QVERIFY2(message.find("is not a gpumem model folder") != std::string::npos, message.c_str());
        QCOMPARE(entriesOf(folder.path()), QStringList{"model"});
        QCOMPARE(entriesOf(destination), QStringList{"thesis.tex"});
    }

    void folderWriterReplacesAModelFolder()
    {
        QTemporaryDir folder;
        const QString destination = folder.filePath("model");
        writeModelFolder(destination, "old");
        {
            AtomicDirectoryWriter writer(destination.toStdString());
            std::ofstream(writer.filePath("model.json")) << "new";
            writer.commit();
        }
        QCOMPARE(contentOf(destination + "/model.json"), QByteArray("new"));
        QCOMPARE(entriesOf(folder.path()), QStringList{"model"});
    }

    void signalDuringASaveLeavesNoTemporaryFiles()
    {
        QTemporaryDir folder;
        const QString report = folder.filePath("report.json");
        gpumem::io::writeFileAtomically(report.toStdString(), "old report");
        const QString model = folder.filePath("model");
        writeModelFolder(model, "old");
        const QByteArray oldModel = contentOf(model + "/model.json");

        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            gpumem::io::removeTemporaryPathsOnSignals();
            AtomicFileWriter file(report.toStdString());
            file.stream() << "half a report" << std::flush;
            AtomicDirectoryWriter writer(model.toStdString());
            std::ofstream(writer.filePath("model.json")) << "half a model";
            // Written without filePath(), as a library given only the folder does.
            std::ofstream(writer.path() + "/booster.json") << "half a booster";
            ::raise(SIGTERM);
            ::_exit(3); // not reached: the handler re-raises with the default action
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFSIGNALED(status), "the child must end by the signal");
        QCOMPARE(WTERMSIG(status), SIGTERM);
        QCOMPARE(entriesOf(folder.path()), (QStringList{"model", "report.json"}));
        QCOMPARE(contentOf(report), QByteArray("old report"));
        QCOMPARE(entriesOf(model), QStringList{"model.json"});
        QCOMPARE(contentOf(model + "/model.json"), oldModel);
    }

    void anIgnoredSignalStaysIgnored()
    {
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            std::signal(SIGHUP, SIG_IGN); // as under nohup
            gpumem::io::removeTemporaryPathsOnSignals();
            ::raise(SIGHUP);
            ::_exit(0);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
    }

    void cleanupPutsAModelFolderMovedAsideBack()
    {
        QTemporaryDir folder;
        const QString aside = folder.filePath("model.old-1");
        writeModelFolder(aside, "old");
        {
            // A signal between moving the old folder aside and renaming the new one into place.
            gpumem::io::TemporaryPath movedAside(aside.toStdString(), gpumem::io::TemporaryPath::Kind::MovedAsideFolder,
                                                 folder.filePath("model").toStdString());
            QVERIFY(movedAside.remembered());
            gpumem::io::removeTemporaryPaths();
        }
        QCOMPARE(entriesOf(folder.path()), QStringList{"model"});
        QVERIFY(contentOf(folder.filePath("model/model.json")).contains("\"old\""));

        // After the new one took its place, the old one is removed instead.
        writeModelFolder(aside, "old");
        {
            gpumem::io::TemporaryPath movedAside(aside.toStdString(), gpumem::io::TemporaryPath::Kind::MovedAsideFolder,
                                                 folder.filePath("model").toStdString());
            gpumem::io::removeTemporaryPaths();
        }
        QCOMPARE(entriesOf(folder.path()), QStringList{"model"});
    }
    // Issue 24: a save killed by SIGKILL (no handler runs) left a temporary folder
    // of hundreds of MB each time; the next save of the same target removes it.
    void theNextSaveRemovesTemporariesOfAKilledSave()
    {
        QTemporaryDir folder;
        const QString report = folder.filePath("report.json");
        const QString model = folder.filePath("model");
        writeModelFolder(model, "old");
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            AtomicFileWriter file(report.toStdString());
            file.stream() << "half a report" << std::flush;
            AtomicDirectoryWriter writer(model.toStdString());
            std::ofstream(writer.filePath("model.json")) << "half a model";
            ::raise(SIGKILL);
            ::_exit(3);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status));
        QCOMPARE(entriesOf(folder.path()).size(), 3); // model and the two temporaries

        // Names that are not provably a dead save's temporary stay: this live
        // process's, one of another form, and a link.
        const std::string live = gpumem::io::temporarySiblingPath(model.toStdString(), ".tmp-");
        QVERIFY(QDir().mkpath(QString::fromStdString(live)));
        QVERIFY(writeModelFolderAt(folder.filePath("model.tmp-12345")));
        const QStringList killed =
            QDir(folder.path())
                .entryList({"*.tmp-*-" + QString::number(child) + "-*"}, QDir::AllEntries | QDir::Hidden);
        QCOMPARE(killed.size(), 2);
        const QString linkName = folder.filePath(killed.front() + "0");
        QVERIFY(QFile::link(report, linkName));

        gpumem::io::writeFileAtomically(report.toStdString(), "new report");
        {
            AtomicDirectoryWriter writer(model.toStdString());
            std::ofstream(writer.filePath("model.json")) << "new";
            writer.commit();
        }
        QStringList expected{"model", "model.tmp-12345", QFileInfo(QString::fromStdString(live)).fileName(),
                             QFileInfo(linkName).fileName(), "report.json"};
        expected.sort();
        QStringList remaining = entriesOf(folder.path());
        remaining.sort();
        QCOMPARE(remaining, expected);
        QCOMPARE(contentOf(report), QByteArray("new report"));
        QCOMPARE(contentOf(model + "/model.json"), QByteArray("new"));
    }

    // Issue 24: killed between moving the old model aside and moving the new one
    // in, a save leaves the user's only copy under the ".old-" name: it comes back.
    void aModelMovedAsideByAKilledSaveComesBack()
    {
        QTemporaryDir folder;
        const QString model = folder.filePath("model");
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            const std::string aside = gpumem::io::temporarySiblingPath(model.toStdString(), ".old-");
            writeModelFolder(QString::fromStdString(aside), "old");
            ::_exit(0);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QCOMPARE(entriesOf(folder.path()).size(), 1);
        QVERIFY(!entriesOf(folder.path()).contains("model"));
        gpumem::io::removeStaleTemporarySiblings(model.toStdString());
        QCOMPARE(entriesOf(folder.path()), QStringList{"model"});
        QVERIFY(contentOf(model + "/model.json").contains("\"old\""));
    }
};

QTEST_GUILESS_MAIN(TestAtomicFileWriter)
#include "test_AtomicFileWriter.moc"
