#pragma once
// A minimal, bounds-checked protocol-buffers wire-format reader: enough to decode the OTLP
// request without libprotobuf. Input is untrusted network data, so every read is checked
// against the end of its message and malformed input throws IngestError Malformed:
// truncated varints or payloads, lengths past the end, invalid wire types, field number 0,
// and nesting deeper than kMaxNesting (a stack-overflow guard for recursive messages such
// as AnyValue).
#include <cstdint>
#include <string>
#include <string_view>

namespace aev::otlp {

enum class WireType : std::uint8_t {
  Varint = 0,
  Fixed64 = 1,
  LengthDelimited = 2,
  StartGroup = 3,  // deprecated groups: never used by OTLP, skipped as unknown fields
  EndGroup = 4,
  Fixed32 = 5,
};

// One field as read. Only the member that matches `type` is meaningful.
struct WireField {
  std::uint32_t number = 0;
  WireType type = WireType::Varint;
  std::uint64_t scalar = 0;  // Varint, Fixed64 and Fixed32 values (fixed ones little-endian decoded)
  std::string_view bytes;    // LengthDelimited payload, a view into the reader's input

  bool is(std::uint32_t fieldNumber, WireType wireType) const { return number == fieldNumber && type == wireType; }
};

class ProtobufReader {
 public:
  // Nesting levels a message may have below the outermost one. OTLP needs about eight
  // for a span attribute; the rest is room for nested AnyValue arrays and maps.
  static constexpr int kMaxNesting = 64;

  explicit ProtobufReader(std::string_view message, int nesting = 0) : data_(message), nesting_(nesting) {}

  // Reads the next field into `field`; false at the clean end of the message. Groups are
  // skipped here, so callers only ever see Varint, Fixed64, LengthDelimited and Fixed32.
  // Callers skip fields they do not know (or of an unexpected wire type) by ignoring
  // them: the reader has already moved past their value.
  bool next(WireField& field);

  // A reader for a LengthDelimited field holding a sub-message, one level deeper.
  ProtobufReader nested(const WireField& field) const;

 private:
  std::uint64_t varint();
  std::uint64_t fixed(int width);
  std::string_view take(std::uint64_t length);
  void skipGroup(std::uint32_t number);
  void readTag(std::uint32_t& number, WireType& type);

  std::string_view data_;
  std::size_t pos_ = 0;
  int nesting_;
};

// A LengthDelimited field read as a protobuf `string`: must be UTF-8, else Malformed.
std::string utf8Field(const WireField& field, const char* what);

}  // namespace aev::otlp
