#include "otlp/protobuf_reader.h"

#include <vector>

#include "common/utf8.h"
#include "otlp/ingest_error.h"

namespace aev::otlp {

namespace {

[[noreturn]] void malformed(const std::string& why) {
  throw IngestError(IngestFailure::Malformed, "The protobuf request is malformed: " + why + ".");
}

std::string nestingLimitText() {
  return "messages are nested deeper than " + std::to_string(ProtobufReader::kMaxNesting) + " levels";
}

}  // namespace

std::uint64_t ProtobufReader::varint() {
  std::uint64_t value = 0;
  // Ten bytes carry 70 bits; the tenth may only hold the 64th bit.
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos_ >= data_.size()) malformed("a varint is truncated");
    const auto byte = static_cast<std::uint8_t>(data_[pos_++]);
    if (shift == 63 && byte > 1) malformed("a varint is longer than 64 bits");
    value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  malformed("a varint is longer than ten bytes");
}

std::uint64_t ProtobufReader::fixed(int width) {
  if (data_.size() - pos_ < static_cast<std::size_t>(width)) malformed("a fixed-width value is truncated");
  std::uint64_t value = 0;
  for (int i = 0; i < width; ++i)
    value |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(data_[pos_ + i])) << (8 * i);
  pos_ += static_cast<std::size_t>(width);
  return value;
}

std::string_view ProtobufReader::take(std::uint64_t length) {
  const std::size_t left = data_.size() - pos_;
  if (length > left) {
    malformed("a length of " + std::to_string(length) + " runs past the " + std::to_string(left) + " bytes left");
  }
  auto out = data_.substr(pos_, static_cast<std::size_t>(length));
  pos_ += static_cast<std::size_t>(length);
  return out;
}

void ProtobufReader::readTag(std::uint32_t& number, WireType& type) {
  const std::uint64_t tag = varint();
  if (tag > 0xffffffffULL) malformed("a field tag is out of range");
  number = static_cast<std::uint32_t>(tag >> 3);
  const auto wire = static_cast<std::uint32_t>(tag & 0x7);
  if (number == 0) malformed("field number 0 is not allowed");
  if (wire == 6 || wire == 7)
    malformed("field " + std::to_string(number) + " has the invalid wire type " + std::to_string(wire));
  type = static_cast<WireType>(wire);
}

void ProtobufReader::skipGroup(std::uint32_t number) {
  // Groups nest like messages, so they count against the same limit.
  std::vector<std::uint32_t> open{number};
  while (!open.empty()) {
    if (nesting_ + static_cast<int>(open.size()) > kMaxNesting) malformed(nestingLimitText());
    if (pos_ == data_.size()) malformed("group " + std::to_string(open.back()) + " is never closed");
    std::uint32_t n;
    WireType t;
    readTag(n, t);
    switch (t) {
      case WireType::Varint: varint(); break;
      case WireType::Fixed64: fixed(8); break;
      case WireType::Fixed32: fixed(4); break;
      case WireType::LengthDelimited: take(varint()); break;
      case WireType::StartGroup: open.push_back(n); break;
      case WireType::EndGroup:
        if (n != open.back())
          malformed("group " + std::to_string(open.back()) + " is closed as group " + std::to_string(n));
        open.pop_back();
        break;
    }
  }
}

bool ProtobufReader::next(WireField& field) {
  for (;;) {
    if (pos_ == data_.size()) return false;
    readTag(field.number, field.type);
    switch (field.type) {
      case WireType::Varint: field.scalar = varint(); return true;
      case WireType::Fixed64: field.scalar = fixed(8); return true;
      case WireType::Fixed32: field.scalar = fixed(4); return true;
      case WireType::LengthDelimited: field.bytes = take(varint()); return true;
      case WireType::StartGroup: skipGroup(field.number); continue;
      case WireType::EndGroup: malformed("group " + std::to_string(field.number) + " is closed but was never opened");
    }
  }
}

ProtobufReader ProtobufReader::nested(const WireField& field) const {
  if (nesting_ >= kMaxNesting) malformed(nestingLimitText());
  return ProtobufReader(field.bytes, nesting_ + 1);
}

std::string utf8Field(const WireField& field, const char* what) {
  if (!isValidUtf8(field.bytes)) malformed(std::string(what) + " is not valid UTF-8");
  // A NUL is valid UTF-8 but no PostgreSQL text column can hold it: refused on every store.
  if (field.bytes.find('\0') != std::string_view::npos) malformed(std::string(what) + " holds a NUL character");
  return std::string(field.bytes);
}

}  // namespace aev::otlp
