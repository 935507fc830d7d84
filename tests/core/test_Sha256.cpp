// SPDX-License-Identifier: GPL-3.0-or-later
#include "DataTables.h"
#include "io/Sha256.h"

#include <QTest>

#include <string>

using gpumem::io::Sha256, gpumem::io::sha256Hex;

class TestSha256 : public QObject
{
    Q_OBJECT

  private Q_SLOTS:
    void matchesTheStandardVectors_data()
    {
        addColumns<QByteArray, QString>("message", "digest");
        // FIPS 180-4 examples (NIST's SHA256.pdf and SHA256LongMessage): one block, two blocks, none.
        addRow("empty", QByteArray(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        addRow("abc", QByteArray("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        addRow("448 bits", QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        addRow("a million a", QByteArray(1000000, 'a'),
               "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }

    void matchesTheStandardVectors()
    {
        QFETCH(QByteArray, message);
        QFETCH(QString, digest);
        QCOMPARE(QString::fromStdString(sha256Hex(std::string(message.constData(), message.size()))), digest);
    }

    void piecesGiveTheSameDigestAsOneBuffer()
    {
        std::string message;
        for (int i = 0; i < 1000; ++i)
            message.push_back(static_cast<char>(i * 7 + 3));
        // Pieces of 1, 63, 64 and 65 bytes cross the 64-byte block boundary every way.
        for (const std::size_t piece : {1u, 63u, 64u, 65u}) {
            Sha256 digest;
            for (std::size_t offset = 0; offset < message.size(); offset += piece)
                digest.update(message.substr(offset, piece));
            QCOMPARE(digest.hexDigest(), sha256Hex(message));
        }
    }
};

QTEST_GUILESS_MAIN(TestSha256)
#include "test_Sha256.moc"
