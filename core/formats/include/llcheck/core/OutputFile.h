// The one way llcheck writes a file it was asked to write (a checkpoint, oracle results, a
// JUnit file, the group times, a fuzz regression case) and the one lock it takes on a file.
//
// A file is written under a private temporary name beside it (created with O_EXCL | O_NOFOLLOW,
// so nothing planted under that name is written through), every write is checked, the data is
// synced, and only then is it renamed into place: a reader sees the old file or the whole new
// one, never a cut one, and a link planted at the destination is replaced, never written
// through. A destination that is a symbolic link is refused outright (what it points to is
// someone else's file). One that exists and is a character device or a FIFO (/dev/null, a pipe
// a caller reads) is written directly, since it cannot be renamed over; every other kind of
// file (a folder, a block device, a socket) is refused. Errors name the path.
//
// A lock (FileLock) is a regular file opened with O_CREAT | O_NOFOLLOW | O_NONBLOCK, never
// truncated by the open, refused when it is a link (symbolic or hard: a second name could make
// the holder's line land in a file outside the folder) or not a regular file, then flock'ed
// without waiting.
#pragma once

#include "llcheck/core/Error.h"

#include <string>
#include <string_view>

namespace llcheck {

/// A file being written: create() it, write() to it as often as needed, commit() it. A writer
/// destroyed before commit() removes its temporary file and leaves the destination untouched.
class OutputFile {
public:
  /// Starts writing `path` (nothing is visible there until commit()).
  [[nodiscard]] static Result<OutputFile> create(const std::string& path);

  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  /// Appends `data`; an Error names the path and the system's reason (ENOSPC: "No space left on
  /// device"). After an error the file is not committed.
  [[nodiscard]] Result<bool> write(std::string_view data);
  /// Syncs and renames the temporary file into place (or closes a device or FIFO).
  [[nodiscard]] Result<bool> commit();

  [[nodiscard]] const std::string& path() const { return path_; }

private:
  OutputFile() = default;
  void abandon();

  std::string path_;
  std::string temp_; ///< empty when writing a device or FIFO directly
  int fd_ = -1;
};

/// Writes the whole of `content` to `path` (create, write, commit).
[[nodiscard]] Result<bool> writeFileAtomically(const std::string& path, std::string_view content);

/// A private new folder (mkdtemp) named `prefix` followed by six random characters, e.g.
/// "/tmp/llcheck-oracle-XXXXXX"; mode 0700.
[[nodiscard]] Result<std::string> makePrivateFolder(const std::string& prefix);

/// An exclusive, non-blocking lock on a file (see the top of this header). The lock is held
/// until the object is destroyed.
class FileLock {
public:
  /// Why acquire() refused: the lock is held by another process (whose line the file holds),
  /// or the file could not be used as a lock (the Error says why).
  struct Busy {
    bool held = false;  ///< another process holds the lock
    std::string holder; ///< the holder's line, or "" when the file does not say
  };
  /// Locks `name` inside the folder open as `dirfd` (AT_FDCWD: `name` is a path). On success
  /// writes `holderLine` into the file (at offset 0, cut to its length). `busy` is set when
  /// another process holds the lock (the Error then says so too).
  [[nodiscard]] static Result<FileLock>
  acquire(int dirfd, const std::string& name, const std::string& holderLine, Busy* busy = nullptr);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

  [[nodiscard]] int fd() const { return fd_; }

private:
  FileLock() = default;
  int fd_ = -1;
};

/// "pid N on host H, started YYYY-MM-DDTHH:MM:SSZ": what a lock holder writes into its lock.
[[nodiscard]] std::string lockHolderLine();

/// The system's text for errno value `e` ("No space left on device").
[[nodiscard]] std::string errnoText(int e);

} // namespace llcheck
