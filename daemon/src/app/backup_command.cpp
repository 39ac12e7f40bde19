#include "app/backup_command.h"

#include <iomanip>
#include <sstream>

#include "app/runtime.h"
#include "backup/store_backup.h"
#include "common/clock.h"
#include "store/migrations.h"

namespace aev::app {

namespace {

constexpr int kBackupExitOk = 0;
constexpr int kBackupExitUsage = 64;
constexpr int kBackupExitIoError = 74;
constexpr int kBackupExitConfig = 78;

backup::StoreLocation locationOf(const Poco::Util::AbstractConfiguration& cfg) {
  return {databaseOptionsFrom(cfg, 1), auditKeyPath(cfg), &cfg};
}

// The options that name this store, as the operator gave them.
std::string storeArguments(const Poco::Util::AbstractConfiguration& cfg) {
  std::string args;
  if (const auto file = cfg.getString("config.file", ""); !file.empty()) args += " --config " + file;
  args += " --data-dir " + cfg.getString("data.dir");
  if (const auto url = cfg.getString("database.url", ""); !url.empty()) args += " --database-url '<database.url>'";
  return args;
}

std::string megabytes(std::uint64_t bytes) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / (1024.0 * 1024.0) << " MiB";
  return s.str();
}

}  // namespace

std::string restoreInPlaceHint(const Poco::Util::AbstractConfiguration& cfg) {
  return "agent-eventsd" + storeArguments(cfg) + " restore --in-place";
}

int runBackupCommand(const Poco::Util::AbstractConfiguration& cfg, const std::vector<std::string>& args,
                     std::ostream& out) {
  if (args.size() != 1) {
    out << "usage: agent-eventsd [--config FILE | --data-dir DIR | --database-url URL] backup DIR\n";
    return kBackupExitUsage;
  }
  try {
    const auto m = backup::takeBackup(locationOf(cfg), args[0], out);
    std::uint64_t bytes = 0;
    for (const auto& f : m.files) bytes += f.bytes;
    out << "backup of the " << m.store << " store (schema version " << m.schemaVersion << ", events up to id "
        << m.highestEventId << ") written to " << args[0] << " in " << std::fixed << std::setprecision(2)
        << static_cast<double>(m.durationMicros) / 1e6 << " s: " << megabytes(bytes) << " in " << m.files.size()
        << " files\n";
    for (const auto& f : m.files) out << "  " << f.name << "  " << f.bytes << " bytes  sha256 " << f.sha256 << "\n";
    out << "restore it into an empty " << (m.store == "sqlite" ? "data dir" : "database")
        << " with: agent-eventsd --config FILE restore " << args[0] << "\n";
    return kBackupExitOk;
  } catch (const store::SchemaTooNew& e) {
    out << "backup refused: " << e.what() << "\n";
    return kBackupExitConfig;
  } catch (const std::exception& e) {
    out << "backup failed: " << e.what() << "\n";
    return kBackupExitIoError;
  }
}

int runRestoreCommand(const Poco::Util::AbstractConfiguration& cfg, const std::vector<std::string>& args, bool inPlace,
                      std::ostream& out) {
  if (inPlace ? !args.empty() : args.size() != 1) {
    out << "usage: agent-eventsd [--config FILE | --data-dir DIR | --database-url URL] restore BACKUP_DIR\n"
           "       agent-eventsd [--config FILE | --data-dir DIR | --database-url URL] restore --in-place\n";
    return kBackupExitUsage;
  }
  try {
    const auto r =
        inPlace ? backup::restoreInPlace(locationOf(cfg), out) : backup::restoreBackup(locationOf(cfg), args[0], out);
    out << "restored: schema version " << r.schemaVersion << ", the store is live; start the daemon on it\n";
    return kBackupExitOk;
  } catch (const store::SchemaTooNew& e) {
    out << "restore refused: " << e.what() << "\n";
    return kBackupExitConfig;
  } catch (const std::exception& e) {
    out << "restore failed: " << e.what() << "\n";
    return kBackupExitConfig;
  }
}

}  // namespace aev::app
