// http/storable_text.h: the 400 for client text no store can hold (a NUL, ill-formed
// UTF-8), checked before any handler runs.
#include "http/storable_text.h"

#include <gtest/gtest.h>

#include <string>

namespace aev {
namespace {

TEST(StorableText, RefusesNulAndIllFormedUtf8With400) {
  EXPECT_TRUE(http::isStorableText("caf\xC3\xA9"));
  EXPECT_TRUE(http::isStorableText(""));
  EXPECT_FALSE(http::isStorableText(std::string("a\0b", 3)));
  EXPECT_FALSE(http::isStorableText("\xFF"));
  EXPECT_FALSE(http::isStorableText("\xED\xA0\x80"));
  const auto nul = http::unstorableText(std::string("\0", 1), "The path segment {id}");
  EXPECT_EQ(nul.status(), 400);
  EXPECT_NE(nul.detail().find("NUL"), std::string::npos);
  const auto bad = http::unstorableText("\xFF", "The query parameter limit");
  EXPECT_EQ(bad.status(), 400);
  EXPECT_NE(bad.detail().find("UTF-8"), std::string::npos);
}

}  // namespace
}  // namespace aev
