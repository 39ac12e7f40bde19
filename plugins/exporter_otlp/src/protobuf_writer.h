// A minimal protocol-buffers wire-format writer: enough to encode the few OTLP messages
// this exporter sends without a protobuf library. Messages are built bottom-up: encode
// a child into its own string, then add it as a length-delimited field.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace otlp::pb {

enum WireType : std::uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

class Writer {
 public:
  void varintField(std::uint32_t field, std::uint64_t v) {
    tag(field, kVarint);
    varint(v);
  }
  // int64 and enum values: negative numbers take ten bytes (two's complement), as protobuf does.
  void int64Field(std::uint32_t field, std::int64_t v) { varintField(field, static_cast<std::uint64_t>(v)); }
  void boolField(std::uint32_t field, bool v) { varintField(field, v ? 1 : 0); }
  void fixed64Field(std::uint32_t field, std::uint64_t v) {
    tag(field, kFixed64);
    rawFixed64(v);
  }
  void doubleField(std::uint32_t field, double v) {
    tag(field, kFixed64);
    rawDouble(v);
  }
  // Untagged values, for the body of a packed repeated fixed64 / double field.
  void rawFixed64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void rawDouble(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    rawFixed64(bits);
  }
  void bytesField(std::uint32_t field, std::string_view bytes) {
    tag(field, kLengthDelimited);
    varint(bytes.size());
    out_.append(bytes.data(), bytes.size());
  }
  // Proto3: a string field equal to its default ("") is not written.
  void stringFieldIfSet(std::uint32_t field, std::string_view s) {
    if (!s.empty()) bytesField(field, s);
  }
  void messageField(std::uint32_t field, const Writer& child) { bytesField(field, child.out_); }

  const std::string& bytes() const { return out_; }
  std::string take() { return std::move(out_); }

 private:
  void tag(std::uint32_t field, WireType type) { varint((static_cast<std::uint64_t>(field) << 3) | type); }
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  std::string out_;
};

}  // namespace otlp::pb
