// otlp/protobuf_reader.h: the bounds-checked wire-format reader, on hand-written bytes.
#include <gtest/gtest.h>

#include <vector>

#include "otlp/ingest_error.h"
#include "otlp/protobuf_reader.h"

namespace aev::otlp {
namespace {

std::string bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

std::vector<WireField> readAll(std::string_view message) {
  ProtobufReader reader(message);
  std::vector<WireField> fields;
  WireField f;
  while (reader.next(f)) fields.push_back(f);
  return fields;
}

// The message of the IngestError that reading `message` throws ("" when none is thrown).
std::string malformedWhy(std::string_view message) {
  try {
    readAll(message);
  } catch (const IngestError& e) {
    EXPECT_EQ(e.failure(), IngestFailure::Malformed);
    EXPECT_EQ(e.httpStatus(), 400);
    return e.what();
  }
  return "";
}

TEST(OtlpProtobufReader, ReadsEachWireType) {
  // field 1 varint 150 (the protobuf documentation's example: 08 96 01), field 2 fixed64,
  // field 3 length-delimited "hi", field 4 fixed32, field 5 varint 2^64-1 (ten bytes).
  const std::string message = bytes({0x08, 0x96, 0x01,                                      //
                                     0x11, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,  //
                                     0x1a, 0x02, 'h',  'i',                                 //
                                     0x25, 0x78, 0x56, 0x34, 0x12,                          //
                                     0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01});
  const auto fields = readAll(message);
  ASSERT_EQ(fields.size(), 5u);
  EXPECT_TRUE(fields[0].is(1, WireType::Varint));
  EXPECT_EQ(fields[0].scalar, 150u);
  EXPECT_TRUE(fields[1].is(2, WireType::Fixed64));
  EXPECT_EQ(fields[1].scalar, 0x0807060504030201ULL);  // little-endian
  EXPECT_TRUE(fields[2].is(3, WireType::LengthDelimited));
  EXPECT_EQ(fields[2].bytes, "hi");
  EXPECT_TRUE(fields[3].is(4, WireType::Fixed32));
  EXPECT_EQ(fields[3].scalar, 0x12345678u);
  EXPECT_TRUE(fields[4].is(5, WireType::Varint));
  EXPECT_EQ(fields[4].scalar, ~0ULL);
}

TEST(OtlpProtobufReader, EmptyMessageHasNoFields) { EXPECT_TRUE(readAll("").empty()); }

TEST(OtlpProtobufReader, LargeFieldNumbers) {
  // Field 536870911 (the largest), varint 0: tag = (2^29-1) << 3 = 0xfffffff8.
  const auto fields = readAll(bytes({0xf8, 0xff, 0xff, 0xff, 0x0f, 0x00}));
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].number, 536870911u);
}

TEST(OtlpProtobufReader, SkipsGroupsIncludingNestedOnes) {
  // field 7 start-group (0x3b) { field 1 varint 1; field 8 start-group (0x43) { field 2 "x" }
  // end 8 (0x44) } end 7 (0x3c), then field 2 varint 5.
  const auto fields = readAll(bytes({0x3b, 0x08, 0x01, 0x43, 0x12, 0x01, 'x', 0x44, 0x3c, 0x10, 0x05}));
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_TRUE(fields[0].is(2, WireType::Varint));
  EXPECT_EQ(fields[0].scalar, 5u);
}

TEST(OtlpProtobufReader, RejectsTruncatedInput) {
  EXPECT_NE(malformedWhy(bytes({0x08})).find("truncated"), std::string::npos);              // tag, no value
  EXPECT_NE(malformedWhy(bytes({0x08, 0x96})).find("truncated"), std::string::npos);        // varint cut short
  EXPECT_NE(malformedWhy(bytes({0x11, 0x01, 0x02})).find("truncated"), std::string::npos);  // fixed64 cut short
  EXPECT_NE(malformedWhy(bytes({0x25, 0x01})).find("truncated"), std::string::npos);        // fixed32 cut short
  EXPECT_NE(malformedWhy(bytes({0x1a, 0x05, 'a', 'b'})).find("runs past"), std::string::npos);
  EXPECT_NE(malformedWhy(bytes({0x3b, 0x08, 0x01})).find("never closed"), std::string::npos);
}

TEST(OtlpProtobufReader, RejectsAbsurdLengths) {
  // A length of 2^63: far beyond the three bytes that follow.
  const std::string why =
      malformedWhy(bytes({0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 'a', 'b', 'c'}));
  EXPECT_NE(why.find("9223372036854775808"), std::string::npos) << why;
  EXPECT_NE(why.find("3 bytes left"), std::string::npos) << why;
}

TEST(OtlpProtobufReader, RejectsOverlongVarints) {
  // Eleven continuation bytes, and a tenth byte carrying bits past the 64th.
  EXPECT_NE(
      malformedWhy(bytes({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})).find("64 bits"),
      std::string::npos);
  EXPECT_NE(malformedWhy(bytes({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02})).find("64 bits"),
            std::string::npos);
}

TEST(OtlpProtobufReader, RejectsInvalidWireTypesAndFieldZero) {
  EXPECT_NE(malformedWhy(bytes({0x0e, 0x00})).find("field 1 has the invalid wire type 6"), std::string::npos);
  EXPECT_NE(malformedWhy(bytes({0x17, 0x00})).find("field 2 has the invalid wire type 7"), std::string::npos);
  EXPECT_NE(malformedWhy(bytes({0x00, 0x00})).find("field number 0"), std::string::npos);
  // A tag beyond 32 bits.
  EXPECT_NE(malformedWhy(bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x01})).find("tag is out of range"), std::string::npos);
}

TEST(OtlpProtobufReader, RejectsUnbalancedGroups) {
  EXPECT_NE(malformedWhy(bytes({0x3c})).find("never opened"), std::string::npos);             // end without start
  EXPECT_NE(malformedWhy(bytes({0x3b, 0x44})).find("closed as group 8"), std::string::npos);  // start 7, end 8
}

TEST(OtlpProtobufReader, NestedReadersStopAtTheLimit) {
  // A sub-message that contains nothing still counts as a level.
  WireField f;
  f.number = 1;
  f.type = WireType::LengthDelimited;
  ProtobufReader reader("", 0);
  for (int i = 0; i < ProtobufReader::kMaxNesting; ++i) reader = reader.nested(f);
  try {
    reader.nested(f);
    FAIL() << "expected the nesting limit";
  } catch (const IngestError& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper than 64"), std::string::npos) << e.what();
  }
}

TEST(OtlpProtobufReader, DeeplyNestedGroupsHitTheSameLimit) {
  std::string bomb;
  for (int i = 0; i < 1000; ++i) bomb.push_back(0x0b);  // start-group field 1, never closed
  EXPECT_NE(malformedWhy(bomb).find("nested deeper than 64"), std::string::npos);
}

TEST(OtlpProtobufReader, Utf8FieldsAreChecked) {
  WireField f;
  f.type = WireType::LengthDelimited;
  f.bytes = "h\xC3\xA9llo";
  EXPECT_EQ(utf8Field(f, "KeyValue.key"), "h\xC3\xA9llo");
  f.bytes = "\xC3";  // a lead byte without its continuation
  try {
    utf8Field(f, "KeyValue.key");
    FAIL() << "expected invalid UTF-8 to be refused";
  } catch (const IngestError& e) {
    EXPECT_NE(std::string(e.what()).find("KeyValue.key is not valid UTF-8"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace aev::otlp
