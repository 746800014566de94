// Writing a file through a private temporary name, and taking a lock (OutputFile.h).
#include "llcheck/core/OutputFile.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <vector>

namespace llcheck {
namespace {

/// The folder part of `path` ("." for a bare name) and the name in it.
std::pair<std::string, std::string> splitPath(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos)
    return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

/// Sixteen hexadecimal characters nobody can guess: the temporary name must not be plantable.
std::string randomSuffix() {
  static thread_local std::mt19937_64 rng{std::random_device{}() ^
                                          (static_cast<uint64_t>(::getpid()) << 32)};
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(rng()));
  return buf;
}

} // namespace

std::string errnoText(int e) {
  return std::strerror(e);
}

Result<OutputFile> OutputFile::create(const std::string& path) {
  if (path.empty())
    return makeError("the output file has no name");
  auto [dir, name] = splitPath(path);
  if (name.empty() || name == "." || name == "..")
    return makeError("is a folder, expected a file name", path);
  OutputFile f;
  f.path_ = path;
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      return makeError("is a symbolic link: llcheck does not write through links (remove it, or "
                       "give the file it points to)",
                       path);
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      // O_NONBLOCK: a FIFO nobody reads must not hang the open (ENXIO then, reported).
      f.fd_ = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
      if (f.fd_ < 0)
        return makeError("cannot open for writing: " + errnoText(errno), path);
      int flags = ::fcntl(f.fd_, F_GETFL);
      if (flags >= 0)
        ::fcntl(f.fd_, F_SETFL, flags & ~O_NONBLOCK);
      return f;
    }
    if (!S_ISREG(st.st_mode))
      return makeError(S_ISDIR(st.st_mode) ? "is a folder, expected a file"
                                           : "exists and is not a regular file",
                       path);
  } else if (errno != ENOENT) {
    return makeError("cannot use the output file: " + errnoText(errno), path);
  }
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::string temp = (dir == "/" ? "" : dir) + "/." + name + "." + randomSuffix() + ".tmp";
    f.fd_ = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (f.fd_ >= 0) {
      f.temp_ = temp;
      return f;
    }
    if (errno != EEXIST)
      return makeError("cannot create a temporary file beside it: " + errnoText(errno), path);
  }
  return makeError("cannot create a temporary file beside it: every name tried exists", path);
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)), temp_(std::move(other.temp_)), fd_(other.fd_) {
  other.fd_ = -1;
  other.temp_.clear();
}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    abandon();
    path_ = std::move(other.path_);
    temp_ = std::move(other.temp_);
    fd_ = other.fd_;
    other.fd_ = -1;
    other.temp_.clear();
  }
  return *this;
}

OutputFile::~OutputFile() {
  abandon();
}

void OutputFile::abandon() {
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
  if (!temp_.empty())
    ::unlink(temp_.c_str());
  temp_.clear();
}

Result<bool> OutputFile::write(std::string_view data) {
  if (fd_ < 0)
    return makeError("cannot write: the file is closed", path_);
  while (!data.empty()) {
    ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int e = n < 0 ? errno : EIO;
      abandon();
      return makeError("cannot write the file: " + errnoText(e), path_);
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

Result<bool> OutputFile::commit() {
  if (fd_ < 0)
    return makeError("cannot write: the file is closed", path_);
  if (temp_.empty()) {
    int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0)
      return makeError("cannot write the file: " + errnoText(errno), path_);
    return true;
  }
  if (::fsync(fd_) != 0 || ::close(fd_) != 0) {
    int e = errno;
    fd_ = -1;
    abandon();
    return makeError("cannot write the file: " + errnoText(e), path_);
  }
  fd_ = -1;
  // A link planted at the destination meanwhile is replaced by the rename, never written through.
  if (::rename(temp_.c_str(), path_.c_str()) != 0) {
    int e = errno;
    abandon();
    return makeError("cannot put the file in place: " + errnoText(e), path_);
  }
  temp_.clear();
  return true;
}

Result<bool> writeFileAtomically(const std::string& path, std::string_view content) {
  auto f = OutputFile::create(path);
  if (!f.ok())
    return f.error();
  if (auto w = f->write(content); !w.ok())
    return w.error();
  return f->commit();
}

Result<std::string> makePrivateFolder(const std::string& prefix) {
  std::vector<char> name(prefix.begin(), prefix.end());
  for (int i = 0; i < 6; ++i)
    name.push_back('X');
  name.push_back('\0');
  if (::mkdtemp(name.data()) == nullptr)
    return makeError("cannot create a private folder: " + errnoText(errno), prefix + "XXXXXX");
  return std::string(name.data());
}

std::string lockHolderLine() {
  char host[256] = "?";
  ::gethostname(host, sizeof host - 1);
  host[sizeof host - 1] = '\0';
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char when[32];
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return "pid " + std::to_string(::getpid()) + " on host " + host + ", started " + when;
}

namespace {

/// Printable ASCII of a lock file's first line (it names the holder), at most 200 characters.
std::string holderText(int fd) {
  char buf[512];
  ssize_t n = ::pread(fd, buf, sizeof buf, 0);
  std::string out;
  for (ssize_t i = 0; i < n && buf[i] != '\n' && out.size() < 200; ++i)
    out += (buf[i] >= 0x20 && buf[i] < 0x7f) ? buf[i] : '?';
  return out;
}

} // namespace

Result<FileLock> FileLock::acquire(int dirfd, const std::string& name,
                                   const std::string& holderLine, Busy* busy) {
  FileLock lock;
  lock.fd_ =
      ::openat(dirfd, name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
  if (lock.fd_ < 0)
    return makeError(errno == ELOOP
                         ? std::string("is a symbolic link: llcheck does not write through links "
                                       "(remove it)")
                         : "cannot create the lock file: " + errnoText(errno),
                     name);
  struct stat st;
  if (::fstat(lock.fd_, &st) != 0 || !S_ISREG(st.st_mode))
    return makeError("exists and is not a regular file (remove it)", name);
  if (st.st_nlink != 1)
    return makeError("has " + std::to_string(st.st_nlink) +
                         " names (a hard link): llcheck does not write through links (remove it)",
                     name);
  if (::flock(lock.fd_, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    if (e != EWOULDBLOCK)
      return makeError("cannot lock: " + errnoText(e), name);
    // The holder writes its line just after it takes the lock: give it a moment.
    std::string holder = holderText(lock.fd_);
    for (int i = 0; i < 50 && holder.empty(); ++i) {
      ::usleep(10000);
      holder = holderText(lock.fd_);
    }
    if (busy)
      *busy = Busy{true, holder};
    return makeError(
        "is held by another llcheck (" +
            (holder.empty() ? std::string("its lock file does not say which") : holder) + ")",
        name);
  }
  std::string line = holderLine + "\n";
  // Written over the old content, then cut to length: a reader never sees a half-empty file. A
  // failure leaves the lock held without the holder's name; a second run just cannot say who.
  if (::pwrite(lock.fd_, line.data(), line.size(), 0) == static_cast<ssize_t>(line.size()))
    (void)!::ftruncate(lock.fd_, static_cast<off_t>(line.size()));
  return lock;
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) {
  other.fd_ = -1;
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0)
    ::close(fd_);
}

} // namespace llcheck
