// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// TorchScript models for the estimate tests, made at test time by
// tests/data/make_estimate_fixtures.py with Debian's python3-torch.

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <string>

// Skips the calling test function when the fixtures could not be made. A macro,
// since QSKIP returns only from the function it is written in.
#define GPUMEM_REQUIRE_ESTIMATE_FIXTURES(fixtures)                                                                     \
    do {                                                                                                               \
        if (!(fixtures).available())                                                                                   \
            QSKIP((fixtures).skipReason().c_str());                                                                    \
    } while (false)

namespace gpumem::tests {

// The fixture folder and the sizes Python counted; skipReason is set when
// python3-torch is missing, so that tests can QSKIP.
class EstimateFixtures
{
  public:
    EstimateFixtures()
    {
        if (!QFile::exists("/usr/bin/python3")) {
            mSkipReason = "/usr/bin/python3 is missing";
            return;
        }
        QProcess python;
        python.start("/usr/bin/python3",
                     {QStringLiteral(GPUMEM_TEST_DATA_DIR "/make_estimate_fixtures.py"), mFolder.path()});
        if (!python.waitForFinished(120000) || python.exitCode() != 0) {
            mSkipReason = "python3-torch could not make the fixtures: " +
                          QString::fromUtf8(python.readAllStandardError()).left(200).toStdString();
            return;
        }
        QFile sizes(mFolder.filePath("sizes.json"));
        if (!sizes.open(QIODevice::ReadOnly)) {
            mSkipReason = "the fixture script wrote no sizes.json";
            return;
        }
        mSizes = QJsonDocument::fromJson(sizes.readAll()).object();
    }

    bool available() const { return mSkipReason.empty(); }
    const std::string &skipReason() const { return mSkipReason; }
    std::string path(const char *name) const { return mFolder.filePath(QString::fromUtf8(name)).toStdString(); }
    std::string folder() const { return mFolder.path().toStdString(); }
    // Bytes Python counted for model ("mlp", "cnn"): key is parameter_bytes, buffer_bytes or parameter_count.
    qint64 size(const char *model, const char *key) const
    {
        return static_cast<qint64>(mSizes.value(model).toObject().value(key).toDouble());
    }

  private:
    QTemporaryDir mFolder;
    QJsonObject mSizes;
    std::string mSkipReason;
};

// The fixtures every test of one program shares, made when a test object first asks
// for them: python3 runs once per program, however many test classes hold them.
inline const EstimateFixtures &sharedEstimateFixtures()
{
    static const EstimateFixtures fixtures;
    return fixtures;
}

// The base of a test class whose tests use the fixtures: mFixtures is the program's shared set.
class UsesEstimateFixtures
{
  protected:
    const EstimateFixtures &mFixtures = sharedEstimateFixtures();
};

} // namespace gpumem::tests
