// OutputFile.h: a file llcheck writes never goes through a link, never appears half-written, and
// a write error is an error. Each case below is one that issue 31 found written through or
// ignored.
#include "llcheck/core/OutputFile.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace llcheck {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    auto made = makePrivateFolder((fs::temp_directory_path() / "llcheck-outputfile-").string());
    EXPECT_TRUE(made.ok());
    path = made.ok() ? fs::path(*made) : fs::temp_directory_path();
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string contents(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(OutputFile, writesWholeFilesAndLeavesNoTemporaryName) {
  TempDir d;
  fs::path out = d.path / "result.json";
  ASSERT_TRUE(writeFileAtomically(out.string(), "one\n").ok());
  ASSERT_TRUE(writeFileAtomically(out.string(), "two\n").ok());
  EXPECT_EQ(contents(out), "two\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()), 1);
}

TEST(OutputFile, anAbandonedWriteLeavesTheOldFile) {
  TempDir d;
  fs::path out = d.path / "ck.json";
  ASSERT_TRUE(writeFileAtomically(out.string(), "old").ok());
  {
    auto f = OutputFile::create(out.string());
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(f->write("new, but never committed").ok());
  }
  EXPECT_EQ(contents(out), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()), 1);
}

TEST(OutputFile, refusesASymbolicLinkAndLeavesItsTarget) {
  TempDir d;
  fs::path target = d.path / "precious", link = d.path / "out";
  ASSERT_TRUE(writeFileAtomically(target.string(), "precious").ok());
  fs::create_symlink(target, link);
  auto w = writeFileAtomically(link.string(), "overwritten");
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message.find("symbolic link"), std::string::npos);
  EXPECT_EQ(contents(target), "precious");
}

TEST(OutputFile, aDeviceIsWrittenDirectlyAndItsErrorsReported) {
  if (access("/dev/full", W_OK) != 0)
    GTEST_SKIP() << "no /dev/full";
  auto w = writeFileAtomically("/dev/full", "x");
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().str().find("/dev/full"), std::string::npos);
  EXPECT_TRUE(writeFileAtomically("/dev/null", "x").ok());
}

TEST(FileLock, isExclusiveAndRefusesAHardLink) {
  TempDir d;
  auto first = FileLock::acquire(AT_FDCWD, (d.path / "run.lock").string(), "holder one");
  ASSERT_TRUE(first.ok());
  FileLock::Busy busy;
  auto second = FileLock::acquire(AT_FDCWD, (d.path / "run.lock").string(), "two", &busy);
  ASSERT_FALSE(second.ok());
  EXPECT_TRUE(busy.held);
  EXPECT_EQ(busy.holder, "holder one");
  // A lock with a second name could put the holder's line into a file elsewhere.
  fs::path outside = d.path / "outside";
  ASSERT_TRUE(writeFileAtomically(outside.string(), "keep").ok());
  fs::create_hard_link(outside, d.path / "linked.lock");
  busy = {};
  auto linked = FileLock::acquire(AT_FDCWD, (d.path / "linked.lock").string(), "x", &busy);
  ASSERT_FALSE(linked.ok());
  EXPECT_FALSE(busy.held);
  EXPECT_EQ(contents(outside), "keep");
}

} // namespace
} // namespace llcheck
