// common/encoding.h: RFC 4648 vectors both ways, and every malformed input refused
// rather than decoded to something.
#include "common/encoding.h"

#include <gtest/gtest.h>

#include <string>

namespace aev {
namespace {

using Bytes = std::optional<std::string>;

TEST(Encoding, HexBothWays) {
  const std::string bytes("\x00\x01\x7f\x80\xfe\xff", 6);
  EXPECT_EQ(hexEncode(bytes), "00017f80feff");
  EXPECT_EQ(hexEncode(""), "");
  EXPECT_EQ(hexDecode("00017f80feff"), Bytes(bytes));
  EXPECT_EQ(hexDecode("00017F80FEFF"), Bytes(bytes));  // either case
  EXPECT_EQ(hexDecode(""), Bytes(""));
  EXPECT_EQ(std::string(kLowerHexDigits), "0123456789abcdef");
}

TEST(Encoding, HexRefusesWhatIsNotHex) {
  for (const char* text : {"0", "abc", "0g", "g0", "00 11", " 0011", "0011 ", "0x11", "00-1"})
    EXPECT_EQ(hexDecode(text), std::nullopt) << text;
  EXPECT_EQ(hexDecode(std::string_view("00\0", 4)), std::nullopt);
}

TEST(Encoding, Base64Rfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(base64Encode(plain), encoded);
    EXPECT_EQ(base64Decode(encoded), Bytes(plain)) << encoded;
    EXPECT_EQ(base64DecodeAnyAlphabet(encoded), Bytes(plain)) << encoded;
  }
  const std::string bytes("\xfb\xff\xfe", 3);
  EXPECT_EQ(base64Encode(bytes), "+//+");
  EXPECT_EQ(base64UrlEncode(bytes), "-__-");
  EXPECT_EQ(base64UrlEncode("f"), "Zg");  // unpadded
  EXPECT_EQ(base64UrlEncode("foobar"), "Zm9vYmFy");
}

TEST(Encoding, Base64RefusesBadPaddingAndStrangers) {
  for (const char* text : {
           "Zg",         // padding missing
           "Zg=",        // padding short
           "Zg===",      // padding too long
           "Zm9v=",      // padding where none belongs
           "Z===",       // one character carries no whole byte
           "Zh==",       // unused bits set: not the canonical encoding of any byte
           "Zg==Zg==",   // data after the padding
           "=Zg=",       // padding first
           "Zm9v YmFy",  // whitespace, unless the caller asks to skip it
           "-__-",       // the URL-safe alphabet
           "Zm9v\n",     // a trailing newline
       })
    EXPECT_EQ(base64Decode(text), std::nullopt) << text;
  EXPECT_EQ(base64Decode(std::string_view("Zg==\0", 5)), std::nullopt);
  // Skipping what the caller names (a key file's line breaks).
  EXPECT_EQ(base64Decode("Zm9v\nYmFy\n", " \t\r\n"), Bytes("foobar"));
}

// OTLP/JSON bytes: either alphabet, padded or not, in one pass.
TEST(Encoding, Base64AnyAlphabetReadsBothAndRefusesTheRest) {
  const std::string bytes("\xfb\xff\xfe", 3);
  EXPECT_EQ(base64DecodeAnyAlphabet("+//+"), Bytes(bytes));
  EXPECT_EQ(base64DecodeAnyAlphabet("-__-"), Bytes(bytes));
  EXPECT_EQ(base64DecodeAnyAlphabet("Zg"), Bytes("f"));
  EXPECT_EQ(base64DecodeAnyAlphabet("Zm8"), Bytes("fo"));
  for (const char* text : {"Z", "Zm9vY", "Zm9v*", "Zm 9v", "Zg==Zg"})
    EXPECT_EQ(base64DecodeAnyAlphabet(text), std::nullopt) << text;
}

}  // namespace
}  // namespace aev
