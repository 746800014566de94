// Writing a report into its folder (Outputs.h, "Streaming and the output folder"): the folder's
// checks and lock, the files read and reported one at a time, and the temporary names renamed
// over the old files at the end.
#include "llcheck/reports/Outputs.h"

#include "Streaming.h"

#include "llcheck/core/OutputFile.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace llcheck::reports {

namespace fs = std::filesystem;
using detail::KernelStream;
using detail::ReportStream;

namespace {

const char* const kOutputNames[] = {"report.json", "report.md", "junit.xml", "report.html"};
constexpr int kOutputs = 4;
/// Every temporary and scratch name starts so and ends in ".tmp": what a later run may remove.
constexpr const char* kTempPrefix = ".llcheck-report.";

// ---- Ctrl-C while the files are renamed into place ---------------------------------------------
//
// The temporary names exist only while the four files are written and renamed (scratch files
// have no name at all). A signal that ends the process then removes them; the previous files,
// complete, stay. A run killed outright (SIGKILL) leaves them: the next run into the folder removes
// them once it holds the lock.

int gTempDir = -1;
char gTemps[kOutputs][128];
volatile std::sig_atomic_t gTempCount = 0;
const int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction gOldActions[3];

extern "C" void removeTempsAndDie(int sig) {
  for (int i = 0; i < gTempCount; ++i)
    if (gTemps[i][0])
      ::unlinkat(gTempDir, gTemps[i], 0);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

class TempCleanup {
public:
  explicit TempCleanup(int dirfd) {
    gTempDir = dirfd;
    gTempCount = 0;
    for (int i = 0; i < 3; ++i) {
      struct sigaction sa = {};
      sa.sa_handler = removeTempsAndDie;
      sigemptyset(&sa.sa_mask);
      ::sigaction(kSignals[i], nullptr, &gOldActions[i]);
      // A signal the caller ignores (nohup) stays ignored.
      installed_[i] =
          gOldActions[i].sa_handler != SIG_IGN && ::sigaction(kSignals[i], &sa, nullptr) == 0;
    }
  }
  ~TempCleanup() {
    for (int i = 0; i < 3; ++i)
      if (installed_[i])
        ::sigaction(kSignals[i], &gOldActions[i], nullptr);
    gTempCount = 0;
  }
  void add(const std::string& name) {
    std::snprintf(gTemps[gTempCount], sizeof gTemps[0], "%s", name.c_str());
    gTempCount = gTempCount + 1;
  }
  void clear() {
    for (auto& t : gTemps)
      t[0] = '\0';
  }

private:
  bool installed_[3] = {};
};

/// A file being written: fd writes through a 1 MiB buffer; the first error is kept.
class FileOut : public std::streambuf {
public:
  explicit FileOut(int fd) : fd_(fd) { buf_.reserve(kBuf); }
  void flushAll() {
    const char* p = buf_.data();
    std::size_t n = buf_.size();
    while (n > 0 && error_.empty()) {
      ssize_t w = ::write(fd_, p, n);
      if (w < 0 && errno == EINTR)
        continue;
      if (w < 0) {
        error_ = errnoText(errno);
        break;
      }
      p += w;
      n -= static_cast<std::size_t>(w);
    }
    buf_.clear();
  }
  [[nodiscard]] const std::string& error() const { return error_; }

protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      buf_ += traits_type::to_char_type(c);
      if (buf_.size() >= kBuf)
        flushAll();
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    buf_.append(s, static_cast<std::size_t>(n));
    if (buf_.size() >= kBuf)
      flushAll();
    return n;
  }

private:
  static constexpr std::size_t kBuf = std::size_t{1} << 20;
  int fd_;
  std::string buf_;
  std::string error_;
};

/// The output folder, opened once (every later name is looked up relative to it, so the folder
/// cannot be swapped for a link halfway) and locked while the report is written.
class OutputFolder {
public:
  static Result<std::unique_ptr<OutputFolder>> open(const std::string& dir);
  ~OutputFolder() {
    for (const std::string& t : temps_)
      ::unlinkat(fd_, t.c_str(), 0);
    if (lock_) {
      // Nobody holds it any more: the holder's line goes (the file stays: removing a lock file
      // another run may have just opened would let two runs hold "the" lock).
      if (::ftruncate(lock_->fd(), 0) != 0) {
        // Nothing to do: a stale line only names a holder that is gone.
      }
    }
    if (fd_ >= 0)
      ::close(fd_);
  }
  [[nodiscard]] int fd() const { return fd_; }
  /// Writes the four files under temporary names, then renames each over its final name.
  Result<bool> commit(ReportStream& report);

private:
  /// An Error when `name` in the folder exists and is a symbolic link or not a regular file.
  Result<bool> checkName(const char* name) const;
  std::string where(const std::string& name) const {
    return (fs::path(dir_) / name).generic_string();
  }
  std::string dir_;
  int fd_ = -1;
  std::optional<FileLock> lock_;
  std::vector<std::string> temps_;
};

Result<bool> OutputFolder::checkName(const char* name) const {
  struct stat st;
  if (::fstatat(fd_, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return true; // absent
  if (S_ISLNK(st.st_mode))
    return makeError("is a symbolic link: llcheck report does not write through links (remove "
                     "it, or choose another output folder)",
                     where(name));
  if (!S_ISREG(st.st_mode))
    return makeError(
        "exists and is not a regular file (remove it, or choose another output folder)",
        where(name));
  return true;
}

Result<std::unique_ptr<OutputFolder>> OutputFolder::open(const std::string& dirIn) {
  // "out/" names the folder "out"; a trailing slash would make the kernel follow a link there.
  std::string dir = dirIn;
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  if (dir.empty())
    return makeError("the output folder has no name");
  auto self = std::make_unique<OutputFolder>();
  self->dir_ = dir;
  const std::string link = "is a symbolic link: llcheck report writes only into a real folder "
                           "(give the folder it points to)";
  struct stat st;
  if (::lstat(dir.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      return makeError(link, dir);
    if (!S_ISDIR(st.st_mode))
      return makeError("exists and is not a folder", dir);
  } else if (errno == ENOENT) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
      return makeError("cannot create the output folder: " + ec.message(), dir);
  } else {
    return makeError("cannot use the output folder: " + errnoText(errno), dir);
  }
  self->fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (self->fd_ < 0)
    return makeError(errno == ELOOP     ? link
                     : errno == ENOTDIR ? std::string("exists and is not a folder")
                                        : "cannot open the output folder: " + errnoText(errno),
                     dir);

  // The lock (OutputFile.h, FileLock): refuses a link, symbolic or hard, so the holder's line
  // never lands in a file outside the folder.
  FileLock::Busy busy;
  auto lock = FileLock::acquire(self->fd_, kReportLockName, lockHolderLine(), &busy);
  if (!lock.ok()) {
    if (!busy.held) // the file cannot serve as a lock
      return makeError(lock.error().message, self->where(kReportLockName));
    return makeError(
        "another llcheck report is writing into this folder (" +
            (busy.holder.empty() ? std::string("its lock file does not say which") : busy.holder) +
            "; lock " + kReportLockName + "): wait for it, or choose another output folder",
        dir);
  }
  self->lock_ = std::move(*lock);

  // Refuse before any work, rather than after: a link or a folder where an output goes.
  for (const char* name : kOutputNames)
    if (auto ok = self->checkName(name); !ok.ok())
      return ok.error();

  // Temporary names a killed run left (nobody else writes here: we hold the lock).
  if (int dup = ::dup(self->fd_); dup >= 0) {
    if (DIR* d = ::fdopendir(dup)) {
      std::vector<std::string> stale;
      while (dirent* e = ::readdir(d)) {
        std::string n = e->d_name;
        if (n.rfind(kTempPrefix, 0) == 0 && n.size() > 4 && n.compare(n.size() - 4, 4, ".tmp") == 0)
          stale.push_back(n);
      }
      ::closedir(d);
      for (const std::string& n : stale)
        ::unlinkat(self->fd_, n.c_str(), 0);
    } else {
      ::close(dup);
    }
  }
  return self;
}

Result<bool> OutputFolder::commit(ReportStream& report) {
  TempCleanup cleanup(fd_);
  using Writer = void (ReportStream::*)(std::ostream&);
  const Writer writers[kOutputs] = {&ReportStream::writeJson, &ReportStream::writeMarkdown,
                                    &ReportStream::writeJunit, &ReportStream::writeHtml};
  for (int i = 0; i < kOutputs; ++i) {
    std::string temp =
        std::string(kTempPrefix) + std::to_string(::getpid()) + "." + kOutputNames[i] + ".tmp";
    int fd =
        ::openat(fd_, temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
      return makeError("cannot create a temporary file: " + errnoText(errno), where(temp));
    temps_.push_back(temp);
    cleanup.add(temp);
    FileOut buf(fd);
    std::ostream os(&buf);
    (report.*writers[i])(os);
    buf.flushAll();
    std::string error = !buf.error().empty() ? buf.error() : report.error();
    if (error.empty() && ::fsync(fd) != 0)
      error = errnoText(errno);
    ::close(fd);
    if (!error.empty())
      return makeError("cannot write the file: " + error, where(kOutputNames[i]));
  }
  for (int i = 0; i < kOutputs; ++i) {
    // Checked again: renameat would replace a link that appeared meanwhile (never write through
    // it), but a link there is refused all the same.
    if (auto ok = checkName(kOutputNames[i]); !ok.ok())
      return ok.error();
    if (::renameat(fd_, temps_[static_cast<std::size_t>(i)].c_str(), fd_, kOutputNames[i]) != 0)
      return makeError("cannot put the file in place: " + errnoText(errno), where(kOutputNames[i]));
  }
  temps_.clear();
  cleanup.clear();
  ::fsync(fd_);
  return true;
}

} // namespace

Result<ReportTotals> writeReport(const Report& r, const std::string& dir) {
  auto folder = OutputFolder::open(dir);
  if (!folder.ok())
    return folder.error();
  ReportStream s((*folder)->fd());
  detail::streamReport(s, r, (*folder)->fd());
  if (auto ok = (*folder)->commit(s); !ok.ok())
    return ok.error();
  return s.totals();
}

Result<ReportTotals> writeReport(const std::vector<std::string>& files,
                                 const ReportOptions& options, const std::string& dir) {
  auto start = std::chrono::steady_clock::now();
  auto folder = OutputFolder::open(dir);
  if (!folder.ok())
    return folder.error();
  const int dirfd = (*folder)->fd();
  ReportStream s(dirfd);
  s.summary.arch = options.arch.value_or("");
  s.summary.z3 = options.z3;
  s.summary.triton = options.triton;
  if (options.oracle) {
    s.summary.oracleSource = options.oracle->source;
    s.summary.oracleGpu = options.oracle->gpu;
    s.summary.oracleDate = options.oracle->date;
  }

  // Workers take the files in order; each reads one, reports it (its ops streamed to scratch as
  // they are made), then waits for its turn to append it: at most `threads` kernels are in
  // memory. The first file in order that is bad input is the error reported (every file before
  // it was taken, and so read, before it).
  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(files.size())));
  std::mutex mutex;
  std::condition_variable turn;
  std::size_t nextFile = 0, nextAppend = 0;
  bool stop = false;
  std::optional<std::pair<std::size_t, Error>> badInput;
  std::exception_ptr failed;
  auto work = [&] {
    try {
      for (;;) {
        std::size_t i;
        {
          std::lock_guard<std::mutex> lock(mutex);
          if (stop || nextFile >= files.size())
            return;
          i = nextFile++;
        }
        KernelStream ks(i, dirfd);
        KernelReport k;
        {
          auto module = readModule(files[i], options.triton);
          {
            std::lock_guard<std::mutex> lock(mutex);
            if (!module.ok()) {
              if (!badInput || i < badInput->first)
                badInput.emplace(i, module.error());
              stop = true;
              turn.notify_all();
              return;
            }
            if (stop)
              return;
          }
          k = reportModule(*module, options,
                           [&ks](const KernelReport& kernel, OpEntry&& op) { ks.op(kernel, op); });
        } // the module is freed before the wait
        std::unique_lock<std::mutex> lock(mutex);
        turn.wait(lock, [&] { return stop || nextAppend == i; });
        if (stop)
          return;
        s.add(k, ks);
        ++nextAppend;
        if (options.progress)
          options.progress(nextAppend, files.size());
        turn.notify_all();
      }
    } catch (...) {
      // An exception is a bug in llcheck (LayoutError): rethrown on the calling thread, so that
      // the command line reports it as an internal error instead of terminating.
      std::lock_guard<std::mutex> lock(mutex);
      if (!failed)
        failed = std::current_exception();
      stop = true;
      turn.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (std::thread& t : pool)
    t.join();
  if (failed)
    std::rethrow_exception(failed);
  if (badInput)
    return badInput->second;
  s.summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (auto ok = (*folder)->commit(s); !ok.ok())
    return ok.error();
  return s.totals();
}

} // namespace llcheck::reports
