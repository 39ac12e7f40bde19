#pragma once

// A SQLite VFS that coalesces the writes of a commit to the write-ahead log.
//
// SQLite writes each WAL frame with two pwrite calls, its 24-byte header and then its page,
// so a commit of 18 pages makes 36 system calls (about 70 µs of CPU on the 2-vCPU VM the
// benchmarks run on, against 14 µs for one write of the same bytes). This VFS wraps the
// default one: files opened as a WAL keep contiguous writes in a buffer and hand them to
// the real file in one write, when
//   * the commit frame's page has been written (frame header with a non-zero "database
//     size after commit"), so other connections, which read committed frames from the
//     file, always find them there, whatever `synchronous` is, and a crash of the process
//     after the commit loses nothing the default VFS would have kept;
//   * a commit frame's header is rewritten in place (SQLite recomputes the checksums of a
//     transaction that overwrote one of its own frames, and writes nothing after the last
//     header): at once, with no page to wait for;
//   * before any other operation on the file (read, sync, truncate, size, close, file
//     control): the real file then sees exactly the sequence of writes SQLite made;
//   * when a write is not contiguous with the buffer, or the buffer is full.
// Every other file (database, journals) is the default VFS's own, untouched. A failed
// flush is reported by the call that caused it (the commit frame's write, or the sync), so
// SQLite fails the commit as it would have on the write itself.
namespace aev::store {

// Registers the coalescing VFS as SQLite's default, once per process; later calls do
// nothing. Call before the first connection is opened.
void installWalWriteCoalescer();

// Whether every commit syncs the WAL (synchronous=FULL or EXTRA; false until set). Then,
// when a sync fails, the frames written since the last good sync belong to the commit that
// failed, and the VFS makes them unrecoverable (it zeroes the first one's header), so a
// commit SQLite reported as failed cannot come back when the process restarts before the
// next commit overwrites them. With NORMAL or OFF those frames may hold commits already
// reported done, and are left alone.
void setEveryCommitSyncsWal(bool value);

// The name it is registered under ("aev-wal-coalescing").
const char* walWriteCoalescerName();

// Process-wide counts, for the tests: writes SQLite made to WAL files, and writes that
// reached the underlying file.
struct WalWriteCounts {
  unsigned long long requested = 0;
  unsigned long long issued = 0;
};
WalWriteCounts walWriteCounts();

}  // namespace aev::store
