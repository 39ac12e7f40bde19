#include "backup/backup_manifest.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>
#include <sodium.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/clock.h"
#include "common/encoding.h"

namespace aev::backup {

std::string BackupManifest::toJson() const {
  Poco::JSON::Object o;
  o.set("format", format);
  o.set("daemonVersion", daemonVersion);
  o.set("store", store);
  o.set("schemaVersion", schemaVersion);
  o.set("takenAt", clock::toRfc3339(takenAt));
  o.set("takenAtMicros", takenAt);
  o.set("highestEventId", highestEventId);
  o.set("durationMs", durationMicros / 1000);
  Poco::JSON::Array::Ptr list = new Poco::JSON::Array;
  for (const auto& f : files) {
    Poco::JSON::Object::Ptr item = new Poco::JSON::Object;
    item->set("name", f.name);
    item->set("bytes", f.bytes);
    item->set("sha256", f.sha256);
    list->add(item);
  }
  o.set("files", list);
  std::ostringstream out;
  Poco::JSON::Stringifier::stringify(o, out, 2);
  return out.str() + "\n";
}

BackupManifest BackupManifest::fromJson(const std::string& text) {
  try {
    auto o = Poco::JSON::Parser().parse(text).extract<Poco::JSON::Object::Ptr>();
    BackupManifest m;
    m.format = o->getValue<int>("format");
    if (m.format != 1) throw std::runtime_error("format " + std::to_string(m.format) + " is not one this build reads");
    m.daemonVersion = o->getValue<std::string>("daemonVersion");
    m.store = o->getValue<std::string>("store");
    if (m.store != "sqlite" && m.store != "postgresql") throw std::runtime_error("unknown store '" + m.store + "'");
    m.schemaVersion = o->getValue<int>("schemaVersion");
    m.takenAt = o->getValue<std::int64_t>("takenAtMicros");
    m.highestEventId = o->getValue<std::int64_t>("highestEventId");
    m.durationMicros = o->getValue<std::int64_t>("durationMs") * 1000;
    auto files = o->getArray("files");
    for (std::size_t i = 0; files && i < files->size(); ++i) {
      auto f = files->getObject(i);
      m.files.push_back(
          {f->getValue<std::string>("name"), f->getValue<std::uint64_t>("bytes"), f->getValue<std::string>("sha256")});
    }
    return m;
  } catch (const Poco::Exception& e) {
    throw std::runtime_error("backup.json is not a backup manifest: " + e.displayText());
  }
}

BackupFile describeFile(const std::string& dir, const std::string& name) {
  const auto path = std::filesystem::path(dir) / name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  std::vector<char> block(1 << 20);
  std::uint64_t total = 0;
  while (in) {
    in.read(block.data(), static_cast<std::streamsize>(block.size()));
    const auto n = in.gcount();
    if (n <= 0) break;
    crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char*>(block.data()),
                              static_cast<unsigned long long>(n));
    total += static_cast<std::uint64_t>(n);
  }
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&state, digest);
  return {name, total, hexEncode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest))};
}

}  // namespace aev::backup
