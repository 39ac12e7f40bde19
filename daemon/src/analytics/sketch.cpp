#include "analytics/sketch.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace aev::analytics {

namespace {

constexpr double kGamma = (1 + LatencySketch::kRelativeAccuracy) / (1 - LatencySketch::kRelativeAccuracy);
const double kLogGamma = std::log(kGamma);
constexpr unsigned char kVersion = 1;
// Total counts stay far from overflow: no rollup ever holds 2^62 events.
constexpr std::uint64_t kMaxTotal = std::uint64_t{1} << 62;

void appendVarint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

// A canonical LEB128 varint (no padding bytes), at most 64 bits.
bool readVarint(std::string_view bytes, std::size_t& at, std::uint64_t& v) {
  // Most varints of a sketch (index steps, small counts) are one byte.
  if (at < bytes.size() && !(static_cast<unsigned char>(bytes[at]) & 0x80)) {
    v = static_cast<unsigned char>(bytes[at++]);
    return true;
  }
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at >= bytes.size()) return false;
    const auto b = static_cast<unsigned char>(bytes[at++]);
    if (shift == 63 && b > 1) return false;
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return b != 0 || shift == 0;
  }
  return false;
}

std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
std::int64_t unzigzag(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

}  // namespace

int LatencySketch::indexOf(double magnitude) {
  magnitude = std::clamp(magnitude, kMinMagnitude, kMaxMagnitude);
  return static_cast<int>(std::ceil(std::log(magnitude) / kLogGamma));
}

double LatencySketch::valueOf(int index) { return 2 * std::pow(kGamma, index) / (kGamma + 1); }

int LatencySketch::minIndex() { return indexOf(kMinMagnitude); }
int LatencySketch::maxIndex() { return indexOf(kMaxMagnitude); }

void LatencySketch::Store::add(int index, std::uint64_t n) {
  if (counts.empty()) {
    offset = index;
    counts.assign(1, n);
    return;
  }
  if (index < offset) {
    counts.insert(counts.begin(), static_cast<std::size_t>(offset - index), 0);
    offset = index;
  } else if (index >= offset + static_cast<int>(counts.size())) {
    counts.resize(static_cast<std::size_t>(index - offset + 1), 0);
  }
  counts[static_cast<std::size_t>(index - offset)] += n;
}

void LatencySketch::Store::merge(const Store& other) {
  if (other.counts.empty()) return;
  if (counts.empty()) {
    *this = other;
    return;
  }
  const int lo = std::min(offset, other.offset);
  const int hi =
      std::max(offset + static_cast<int>(counts.size()), other.offset + static_cast<int>(other.counts.size()));
  if (lo < offset) counts.insert(counts.begin(), static_cast<std::size_t>(offset - lo), 0);
  offset = lo;
  counts.resize(static_cast<std::size_t>(hi - lo), 0);
  for (std::size_t i = 0; i < other.counts.size(); ++i)
    counts[static_cast<std::size_t>(other.offset - offset) + i] += other.counts[i];
}

bool LatencySketch::Store::subtract(const Store& other) {
  bool exact = true;
  for (std::size_t i = 0; i < other.counts.size(); ++i) {
    if (!other.counts[i]) continue;
    const int index = other.offset + static_cast<int>(i);
    if (index < offset || index >= offset + static_cast<int>(counts.size())) {
      exact = false;
      continue;
    }
    auto& c = counts[static_cast<std::size_t>(index - offset)];
    if (c < other.counts[i]) exact = false;
    c -= std::min(c, other.counts[i]);
  }
  trim();
  return exact;
}

void LatencySketch::Store::trim() {
  std::size_t first = 0;
  while (first < counts.size() && counts[first] == 0) ++first;
  if (first == counts.size()) {
    counts.clear();
    offset = 0;
    return;
  }
  std::size_t last = counts.size();
  while (counts[last - 1] == 0) --last;
  counts.erase(counts.begin() + static_cast<std::ptrdiff_t>(last), counts.end());
  counts.erase(counts.begin(), counts.begin() + static_cast<std::ptrdiff_t>(first));
  offset += static_cast<int>(first);
}

void LatencySketch::add(double value, std::uint64_t n) {
  if (n == 0 || std::isnan(value)) return;
  const double magnitude = std::fabs(value);
  if (magnitude < kMinMagnitude)
    zero_ += n;
  else if (value > 0)
    positive_.add(indexOf(magnitude), n);
  else
    negative_.add(indexOf(magnitude), n);
  count_ += n;
}

void LatencySketch::merge(const LatencySketch& other) {
  positive_.merge(other.positive_);
  negative_.merge(other.negative_);
  zero_ += other.zero_;
  count_ += other.count_;
}

bool LatencySketch::subtract(const LatencySketch& other) {
  bool exact = positive_.subtract(other.positive_);
  exact = negative_.subtract(other.negative_) && exact;
  if (zero_ < other.zero_) exact = false;
  zero_ -= std::min(zero_, other.zero_);
  count_ = zero_;
  for (auto c : positive_.counts) count_ += c;
  for (auto c : negative_.counts) count_ += c;
  return exact;
}

double LatencySketch::quantile(double p) const {
  if (count_ == 0) return 0;
  auto rank = static_cast<std::uint64_t>(std::ceil(p / 100.0 * static_cast<double>(count_)));
  rank = std::clamp<std::uint64_t>(rank, 1, count_);
  std::uint64_t seen = 0;
  // Most negative first: the negative side's highest magnitude.
  for (std::size_t i = negative_.counts.size(); i-- > 0;) {
    seen += negative_.counts[i];
    if (seen >= rank) return -valueOf(negative_.offset + static_cast<int>(i));
  }
  seen += zero_;
  if (seen >= rank) return 0;
  for (std::size_t i = 0; i < positive_.counts.size(); ++i) {
    seen += positive_.counts[i];
    if (seen >= rank) return valueOf(positive_.offset + static_cast<int>(i));
  }
  return valueOf(positive_.offset + static_cast<int>(positive_.counts.size()) - 1);  // not reached
}

void LatencySketch::appendStore(std::string& out, const Store& s) {
  std::uint64_t buckets = 0;
  for (auto c : s.counts) buckets += c ? 1 : 0;
  appendVarint(out, buckets);
  std::int64_t previous = 0;
  bool first = true;
  for (std::size_t i = 0; i < s.counts.size(); ++i) {
    if (!s.counts[i]) continue;
    const std::int64_t index = s.offset + static_cast<std::int64_t>(i);
    appendVarint(out, first ? zigzag(index) : static_cast<std::uint64_t>(index - previous));
    appendVarint(out, s.counts[i]);
    previous = index;
    first = false;
  }
}

std::string LatencySketch::serialize() const {
  std::string out(1, static_cast<char>(kVersion));
  appendVarint(out, zero_);
  appendStore(out, positive_);
  appendStore(out, negative_);
  return out;
}

bool LatencySketch::readStore(std::string_view bytes, std::size_t& at, Store& s, std::uint64_t& total) {
  // The index bounds once a store, not per bucket: each is a logarithm (a third of a
  // PostgreSQL percentile's CPU when read per bucket; bench/NOTEBOOK.md, 2026-11-28 15:05).
  const std::int64_t lo = minIndex(), hi = maxIndex();
  std::uint64_t buckets = 0;
  if (!readVarint(bytes, at, buckets)) return false;
  if (buckets > static_cast<std::uint64_t>(hi - lo + 1)) return false;
  // The indices ascend, so the dense counts are built by appending (a gap's zeros, then the
  // count): no Store::add, no front inserts.
  std::int64_t index = 0;
  std::vector<std::uint64_t> counts;
  counts.reserve(static_cast<std::size_t>(buckets));
  for (std::uint64_t b = 0; b < buckets; ++b) {
    std::uint64_t step = 0, count = 0;
    if (!readVarint(bytes, at, step) || !readVarint(bytes, at, count)) return false;
    if (b == 0) {
      index = unzigzag(step);
    } else {
      if (step == 0 || step > static_cast<std::uint64_t>(hi - lo)) return false;
      index += static_cast<std::int64_t>(step);
    }
    if (index < lo || index > hi || count == 0 || count > kMaxTotal - total) return false;
    total += count;
    if (b == 0) s.offset = static_cast<int>(index);
    if (const auto position = static_cast<std::size_t>(index - s.offset); position > counts.size())
      counts.resize(position, 0);
    counts.push_back(count);
  }
  s.counts = std::move(counts);
  return true;
}

std::optional<LatencySketch> LatencySketch::deserialize(std::string_view bytes) {
  if (bytes.empty() || static_cast<unsigned char>(bytes[0]) != kVersion) return std::nullopt;
  std::size_t at = 1;
  LatencySketch s;
  if (!readVarint(bytes, at, s.zero_) || s.zero_ > kMaxTotal) return std::nullopt;
  std::uint64_t total = s.zero_;
  if (!readStore(bytes, at, s.positive_, total) || !readStore(bytes, at, s.negative_, total)) return std::nullopt;
  if (at != bytes.size()) return std::nullopt;
  s.count_ = total;
  return s;
}

}  // namespace aev::analytics
