#include "store/sqlite_wal_coalescer.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>

namespace aev::store {
namespace {

// Enough for the 18-31 pages a single-publish commit writes at 16-64 connections; bigger
// commits (batches) are written in pieces of this size, each still one system call for ~31
// frames. Allocated on a connection's first WAL write, so only connections that write hold
// one (at most the pool size × 128 KiB).
constexpr std::size_t kBufferCapacity = 128 * 1024;
// The WAL file starts with a 32-byte header; each frame is a 24-byte header, then a page.
constexpr sqlite3_int64 kWalHeaderBytes = 32;
constexpr int kFrameHeaderBytes = 24;

std::atomic<unsigned long long> requestedWrites{0};
std::atomic<unsigned long long> issuedWrites{0};
std::atomic<bool> everyCommitSyncs{false};

sqlite3_vfs* realVfs = nullptr;  // the default VFS we wrap, set once by install

// A WAL file as this VFS opens it: our state, then (at realOffset) the real VFS's file.
struct WalFile {
  sqlite3_file base;  // first, so SQLite's sqlite3_file* is a WalFile*
  sqlite3_file* real;
  char* buffer;
  std::size_t length;
  sqlite3_int64 start;         // file offset of buffer[0]
  sqlite3_int64 lastWriteEnd;  // where SQLite's previous write to this file ended (-1: none)
  sqlite3_int64 unsynced;      // lowest offset written since the last good sync (-1: none)
  bool commitPagePending;      // a commit frame's header was the previous write
};

constexpr int realOffset() { return static_cast<int>((sizeof(WalFile) + 15) / 16 * 16); }

WalFile* asWal(sqlite3_file* file) { return reinterpret_cast<WalFile*>(file); }

// A write that reaches the real file (counted for the tests).
int writeThrough(WalFile* w, const void* data, int amount, sqlite3_int64 offset) {
  issuedWrites.fetch_add(1, std::memory_order_relaxed);
  return w->real->pMethods->xWrite(w->real, data, amount, offset);
}

int flush(WalFile* w) {
  if (w->length == 0) return SQLITE_OK;
  const auto bytes = static_cast<int>(w->length);
  w->length = 0;  // on failure too: SQLite fails the commit and writes its frames again
  return writeThrough(w, w->buffer, bytes, w->start);
}

// The buffer, allocated on the connection's first WAL write; false when memory is short.
bool hasBuffer(WalFile* w) {
  if (w->buffer == nullptr) w->buffer = static_cast<char*>(sqlite3_malloc64(kBufferCapacity));
  return w->buffer != nullptr;
}

// A frame header whose "size of the database after commit" (bytes 4-7) is not zero ends a
// transaction: the write of its page makes the commit readable by other connections.
bool isCommitFrameHeader(const void* data, int amount, sqlite3_int64 offset) {
  if (amount != kFrameHeaderBytes || offset < kWalHeaderBytes) return false;
  const auto* bytes = static_cast<const unsigned char*>(data);
  return (bytes[4] | bytes[5] | bytes[6] | bytes[7]) != 0;
}

int walWrite(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) {
  WalFile* w = asWal(file);
  requestedWrites.fetch_add(1, std::memory_order_relaxed);
  const auto size = static_cast<std::size_t>(amount);
  const bool followsLastWrite = offset == w->lastWriteEnd;
  w->lastWriteEnd = offset + amount;
  if (w->unsynced < 0 || offset < w->unsynced) w->unsynced = offset;
  const bool extendsBuffer = offset == w->start + static_cast<sqlite3_int64>(w->length);
  if (w->length > 0 && (!extendsBuffer || w->length + size > kBufferCapacity)) {
    if (const int rc = flush(w); rc != SQLITE_OK) return rc;
  }
  // Larger than any page (nothing to gain by copying it), or no memory for the buffer.
  if (size > kBufferCapacity || !hasBuffer(w)) return writeThrough(w, data, amount, offset);
  if (w->length == 0) w->start = offset;
  std::memcpy(w->buffer + w->length, data, size);
  w->length += size;
  if (w->commitPagePending) {  // this was the commit frame's page
    w->commitPagePending = false;
    return flush(w);
  }
  if (isCommitFrameHeader(data, amount, offset)) {
    w->commitPagePending = true;
    // A commit header that does not follow the previous write is not being appended with
    // its page: SQLite rewrites frame headers in place (new checksums, after a transaction
    // overwrote one of its own frames) and writes nothing after the last one. Its page may
    // never come, so the header goes to the file now.
    if (!followsLastWrite) return flush(w);
  }
  return SQLITE_OK;
}

int walClose(sqlite3_file* file) {
  WalFile* w = asWal(file);
  const int flushed = flush(w);
  const int closed = w->real->pMethods->xClose(w->real);
  sqlite3_free(w->buffer);
  w->buffer = nullptr;
  return flushed != SQLITE_OK ? flushed : closed;
}

// Every operation but a write first puts the buffered writes in the file, so the real file
// sees SQLite's writes in SQLite's order before anything that could observe them; then
// `call` runs on the real file.
template <class Call>
int afterFlush(sqlite3_file* file, Call call) {
  WalFile* w = asWal(file);
  if (const int rc = flush(w); rc != SQLITE_OK) return rc;
  return call(w->real);
}

int walRead(sqlite3_file* file, void* out, int amount, sqlite3_int64 offset) {
  return afterFlush(file, [&](sqlite3_file* real) { return real->pMethods->xRead(real, out, amount, offset); });
}
int walTruncate(sqlite3_file* file, sqlite3_int64 size) {
  return afterFlush(file, [&](sqlite3_file* real) { return real->pMethods->xTruncate(real, size); });
}
// After a failed sync, when every commit syncs: the frames written since the last good
// sync are the failed transaction's. They are in the page cache, so a restart of the
// process would find a valid commit there and recover it, though SQLite reported the
// commit as failed (and we answered an error). Zeroing the first of their headers (the
// WAL header, if the log was restarted in that transaction) ends recovery before them.
// The next transaction writes over them anyway; this covers a crash before it.
void forgetUnsyncedFrames(WalFile* w) {
  if (w->unsynced < 0 || !everyCommitSyncs.load(std::memory_order_relaxed)) return;
  static const char zeros[kWalHeaderBytes] = {};
  const int bytes = w->unsynced == 0 ? static_cast<int>(kWalHeaderBytes) : kFrameHeaderBytes;
  writeThrough(w, zeros, bytes, w->unsynced);  // best effort: the sync's error stands
  w->unsynced = -1;
}

int walSync(sqlite3_file* file, int flags) {
  WalFile* w = asWal(file);
  int rc = flush(w);
  if (rc == SQLITE_OK) rc = w->real->pMethods->xSync(w->real, flags);
  if (rc == SQLITE_OK) {
    w->unsynced = -1;
  } else {
    forgetUnsyncedFrames(w);
  }
  return rc;
}
int walFileSize(sqlite3_file* file, sqlite3_int64* size) {
  return afterFlush(file, [&](sqlite3_file* real) { return real->pMethods->xFileSize(real, size); });
}
int walFileControl(sqlite3_file* file, int op, void* arg) {
  return afterFlush(file, [&](sqlite3_file* real) { return real->pMethods->xFileControl(real, op, arg); });
}

// Locks, sector size and device characteristics: the real file's, nothing buffered matters.
sqlite3_file* realOf(sqlite3_file* file) { return asWal(file)->real; }
int walLock(sqlite3_file* file, int level) { return realOf(file)->pMethods->xLock(realOf(file), level); }
int walUnlock(sqlite3_file* file, int level) { return realOf(file)->pMethods->xUnlock(realOf(file), level); }
int walCheckReservedLock(sqlite3_file* file, int* out) {
  return realOf(file)->pMethods->xCheckReservedLock(realOf(file), out);
}
int walSectorSize(sqlite3_file* file) { return realOf(file)->pMethods->xSectorSize(realOf(file)); }
int walDeviceCharacteristics(sqlite3_file* file) {
  return realOf(file)->pMethods->xDeviceCharacteristics(realOf(file));
}

// Version 1: SQLite never maps shared memory or pages of a WAL file (those belong to the
// database file), so the version-2 and -3 methods are not offered.
const sqlite3_io_methods walMethods = {
    1,
    walClose,
    walRead,
    walWrite,
    walTruncate,
    walSync,
    walFileSize,
    walLock,
    walUnlock,
    walCheckReservedLock,
    walFileControl,
    walSectorSize,
    walDeviceCharacteristics,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

int coalescingOpen(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* outFlags) {
  // Not a WAL: the real VFS's own file, in our (larger) slot, and we are out of the way.
  if ((flags & SQLITE_OPEN_WAL) == 0) return realVfs->xOpen(realVfs, name, file, flags, outFlags);
  WalFile* w = asWal(file);
  w->base.pMethods = nullptr;
  w->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + realOffset());
  w->buffer = nullptr;
  w->length = 0;
  w->start = 0;
  w->lastWriteEnd = -1;
  w->unsynced = -1;
  w->commitPagePending = false;
  const int rc = realVfs->xOpen(realVfs, name, w->real, flags, outFlags);
  if (rc != SQLITE_OK) {
    // SQLite closes a failed open only through our pMethods, which stay null: close the real
    // file here if its VFS left it needing that.
    if (w->real->pMethods != nullptr) w->real->pMethods->xClose(w->real);
    return rc;
  }
  w->base.pMethods = &walMethods;
  return SQLITE_OK;
}

// The VFS-level calls go to the real VFS with its own pointer: the unix VFS reads its
// pAppData (the locking style) from the pointer it is given.
int coalescingDelete(sqlite3_vfs*, const char* name, int syncDir) { return realVfs->xDelete(realVfs, name, syncDir); }
int coalescingAccess(sqlite3_vfs*, const char* name, int flags, int* out) {
  return realVfs->xAccess(realVfs, name, flags, out);
}
int coalescingFullPathname(sqlite3_vfs*, const char* name, int size, char* out) {
  return realVfs->xFullPathname(realVfs, name, size, out);
}
void* coalescingDlOpen(sqlite3_vfs*, const char* name) { return realVfs->xDlOpen(realVfs, name); }
void coalescingDlError(sqlite3_vfs*, int size, char* out) { realVfs->xDlError(realVfs, size, out); }
void (*coalescingDlSym(sqlite3_vfs*, void* handle, const char* symbol))(void) {
  return realVfs->xDlSym(realVfs, handle, symbol);
}
void coalescingDlClose(sqlite3_vfs*, void* handle) { realVfs->xDlClose(realVfs, handle); }
int coalescingRandomness(sqlite3_vfs*, int size, char* out) { return realVfs->xRandomness(realVfs, size, out); }
int coalescingSleep(sqlite3_vfs*, int micros) { return realVfs->xSleep(realVfs, micros); }
int coalescingCurrentTime(sqlite3_vfs*, double* out) { return realVfs->xCurrentTime(realVfs, out); }
int coalescingGetLastError(sqlite3_vfs*, int size, char* out) { return realVfs->xGetLastError(realVfs, size, out); }
int coalescingCurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) { return realVfs->xCurrentTimeInt64(realVfs, out); }
int coalescingSetSystemCall(sqlite3_vfs*, const char* name, sqlite3_syscall_ptr call) {
  return realVfs->xSetSystemCall(realVfs, name, call);
}
sqlite3_syscall_ptr coalescingGetSystemCall(sqlite3_vfs*, const char* name) {
  return realVfs->xGetSystemCall(realVfs, name);
}
const char* coalescingNextSystemCall(sqlite3_vfs*, const char* name) { return realVfs->xNextSystemCall(realVfs, name); }

sqlite3_vfs coalescingVfs;

void install() {
  if (const int rc = sqlite3_initialize(); rc != SQLITE_OK)
    throw std::runtime_error("sqlite3_initialize failed: " + std::string(sqlite3_errstr(rc)));
  realVfs = sqlite3_vfs_find(nullptr);
  if (realVfs == nullptr) throw std::runtime_error("SQLite has no default VFS");
  // SQLite sees what the wrapped VFS offers: its version, and a null method wherever that
  // VFS has none.
  coalescingVfs = sqlite3_vfs{};
  coalescingVfs.iVersion = std::min(realVfs->iVersion, 3);
  coalescingVfs.szOsFile = realOffset() + realVfs->szOsFile;
  coalescingVfs.mxPathname = realVfs->mxPathname;
  coalescingVfs.zName = walWriteCoalescerName();
  coalescingVfs.xOpen = coalescingOpen;
  coalescingVfs.xDelete = coalescingDelete;
  coalescingVfs.xAccess = coalescingAccess;
  coalescingVfs.xFullPathname = coalescingFullPathname;
  coalescingVfs.xDlOpen = realVfs->xDlOpen ? coalescingDlOpen : nullptr;
  coalescingVfs.xDlError = realVfs->xDlError ? coalescingDlError : nullptr;
  coalescingVfs.xDlSym = realVfs->xDlSym ? coalescingDlSym : nullptr;
  coalescingVfs.xDlClose = realVfs->xDlClose ? coalescingDlClose : nullptr;
  coalescingVfs.xRandomness = coalescingRandomness;
  coalescingVfs.xSleep = coalescingSleep;
  coalescingVfs.xCurrentTime = coalescingCurrentTime;
  coalescingVfs.xGetLastError = realVfs->xGetLastError ? coalescingGetLastError : nullptr;
  if (realVfs->iVersion >= 2 && realVfs->xCurrentTimeInt64)
    coalescingVfs.xCurrentTimeInt64 = coalescingCurrentTimeInt64;
  if (realVfs->iVersion >= 3) {
    coalescingVfs.xSetSystemCall = realVfs->xSetSystemCall ? coalescingSetSystemCall : nullptr;
    coalescingVfs.xGetSystemCall = realVfs->xGetSystemCall ? coalescingGetSystemCall : nullptr;
    coalescingVfs.xNextSystemCall = realVfs->xNextSystemCall ? coalescingNextSystemCall : nullptr;
  }
  if (const int rc = sqlite3_vfs_register(&coalescingVfs, 1); rc != SQLITE_OK)
    throw std::runtime_error("registering the WAL-coalescing VFS failed: " + std::string(sqlite3_errstr(rc)));
}

}  // namespace

void installWalWriteCoalescer() {
  static std::once_flag once;
  std::call_once(once, install);
}

void setEveryCommitSyncsWal(bool value) { everyCommitSyncs.store(value, std::memory_order_relaxed); }

const char* walWriteCoalescerName() { return "aev-wal-coalescing"; }

WalWriteCounts walWriteCounts() {
  return {requestedWrites.load(std::memory_order_relaxed), issuedWrites.load(std::memory_order_relaxed)};
}

}  // namespace aev::store
