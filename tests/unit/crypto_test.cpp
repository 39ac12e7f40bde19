// common/crypto.h: known vectors and format properties.
#include "common/crypto.h"

#include <gtest/gtest.h>

#include <set>

#include "common/encoding.h"

namespace aev::crypto {
namespace {

TEST(Crypto, Sha256KnownVectors) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string_view("a\0b", 3)), sha256Hex(std::string("a\0b", 3)));
  EXPECT_NE(sha256Hex(std::string_view("a\0b", 3)), sha256Hex("a"));
}

TEST(Crypto, HmacSha256Rfc4231) {
  // RFC 4231 test case 2.
  EXPECT_EQ(hexEncode(hmacSha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Test case 1: key = 20 × 0x0b.
  EXPECT_EQ(hexEncode(hmacSha256(std::string(20, '\x0b'), "Hi There")),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_EQ(hmacSha256("k", "d").size(), 32u);
}

TEST(Crypto, RandomBytesHasRequestedLengthAndVaries) {
  EXPECT_EQ(randomBytes(0).size(), 0u);
  EXPECT_EQ(randomBytes(32).size(), 32u);
  EXPECT_NE(randomBytes(32), randomBytes(32));
}

TEST(Crypto, Base62AlphabetAndLength) {
  for (std::size_t n : {1u, 8u, 43u, 64u}) {
    auto s = randomBase62(n);
    EXPECT_EQ(s.size(), n);
    for (char c : s) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) << c;
  }
  EXPECT_NE(randomBase62(43), randomBase62(43));
  // Over many characters every symbol shows up (62 symbols, 20000 draws).
  std::set<char> seen;
  for (char c : randomBase62(20000)) seen.insert(c);
  EXPECT_EQ(seen.size(), 62u);
}

TEST(Crypto, ConstantTimeEquals) {
  EXPECT_TRUE(constantTimeEquals("", ""));
  EXPECT_TRUE(constantTimeEquals("secret", "secret"));
  EXPECT_FALSE(constantTimeEquals("secret", "secreT"));
  EXPECT_FALSE(constantTimeEquals("secret", "secret2"));
  EXPECT_FALSE(constantTimeEquals("", "x"));
  EXPECT_TRUE(constantTimeEquals(std::string_view("a\0b", 3), std::string_view("a\0b", 3)));
  EXPECT_FALSE(constantTimeEquals(std::string_view("a\0b", 3), std::string_view("a\0c", 3)));
}

}  // namespace
}  // namespace aev::crypto
