// Triton as a sweep's peer (TritonPeer.h): the Python helpers started, each batch of encodings
// shared among them, and their JSON answers read back.
#include "TritonPeer.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace llcheck::fuzz {

namespace {

/// An answer is a few KB (an abort's stderr at most a few hundred): a longer line is not one,
/// and reading it whole would let the helper take llcheck's memory.
constexpr std::size_t kMaxAnswerBytes = 16 << 20;

bool writeAll(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

} // namespace

Result<std::string> TritonPeer::readLine(Helper& h) {
  using Clock = std::chrono::steady_clock;
  auto quiet = Clock::now();
  for (;;) {
    if (std::size_t nl = h.pending.find('\n'); nl != std::string::npos) {
      std::string line = h.pending.substr(0, nl);
      h.pending.erase(0, nl + 1);
      return line;
    }
    if (h.pending.size() > kMaxAnswerBytes)
      return makeError("the Triton helper (" + python_ + ") answered a line longer than 16 MiB",
                       "--python");
    auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - quiet);
    auto left = std::chrono::seconds(timeoutSeconds_) - waited;
    if (left.count() <= 0) {
      ::kill(h.pid, SIGKILL);
      h.timedOut = true;
      return makeError("the Triton helper (" + python_ + ") sent nothing for " +
                           std::to_string(timeoutSeconds_) +
                           " s (killed; --triton-timeout sets the limit)",
                       "--python");
    }
    pollfd p{h.out, POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR)
      return makeError(std::string("poll: ") + std::strerror(errno), "--python");
    if (ready <= 0)
      continue;
    char chunk[1 << 16];
    ssize_t n = ::read(h.out, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (h.pending.empty())
        return makeError("the Triton helper (" + python_ + ") died", "--python");
      std::string line = std::move(h.pending); // a last line without its newline
      h.pending.clear();
      return line;
    }
    h.pending.append(chunk, static_cast<std::size_t>(n));
    quiet = Clock::now();
  }
}

Result<std::unique_ptr<TritonPeer>> TritonPeer::start(const std::string& python,
                                                      const std::string& helper,
                                                      TritonVersion version, int jobs,
                                                      int timeoutSeconds) {
  std::unique_ptr<TritonPeer> peer(new TritonPeer());
  peer->python_ = python;
  peer->timeoutSeconds_ = timeoutSeconds;
  // A helper that dies must show up as an Error from ask, not kill llcheck with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  std::string expect = tritonVersionName(version);
  for (int job = 0; job < jobs; ++job) {
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
      return makeError(std::string("pipe: ") + std::strerror(errno), "--python");
    pid_t pid = ::fork();
    if (pid < 0)
      return makeError(std::string("fork: ") + std::strerror(errno), "--python");
    if (pid == 0) {
      ::dup2(in[0], STDIN_FILENO);
      ::dup2(out[1], STDOUT_FILENO);
      const char* argv[] = {python.c_str(), helper.c_str(), "--expect", expect.c_str(), nullptr};
      ::execvp(python.c_str(), const_cast<char* const*>(argv));
      std::_Exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    Helper h;
    h.pid = pid;
    h.in = in[1];
    h.out = out[0];
    peer->helpers_.push_back(h);
    auto hello = peer->readLine(peer->helpers_.back());
    if (!hello.ok() && peer->helpers_.back().timedOut)
      return hello.error();
    if (!hello.ok())
      return makeError("cannot run '" + python + " " + helper + "' (give a Python with Triton " +
                           expect + " by --python or LLCHECK_PYTHON)",
                       "--python");
    nlohmann::json j = nlohmann::json::parse(*hello, nullptr, false);
    if (j.is_object() && j.contains("error") && j["error"].is_string())
      return makeError(j["error"].get<std::string>() + " (give a Python with Triton " + expect +
                           " by --python or LLCHECK_PYTHON)",
                       "--python");
    if (!j.is_object() || !j.contains("triton") || !j["triton"].is_string())
      return makeError("'" + helper + "' did not greet as triton_layouts.py does", "--python");
    peer->version_ = j["triton"].get<std::string>();
  }
  return peer;
}

TritonPeer::~TritonPeer() {
  for (Helper& h : helpers_) {
    if (h.in >= 0)
      ::close(h.in);
    if (h.out >= 0)
      ::close(h.out);
  }
  // A helper exits when its input closes; one that does not within 5 s is killed, so that a
  // hung helper cannot hang llcheck's exit.
  for (Helper& h : helpers_) {
    int status = 0;
    for (int tries = 0; tries < 500; ++tries) {
      pid_t w = ::waitpid(h.pid, &status, WNOHANG);
      if (w == h.pid || (w < 0 && errno != EINTR))
        break;
      if (tries == 499) {
        ::kill(h.pid, SIGKILL);
        while (::waitpid(h.pid, &status, 0) < 0 && errno == EINTR) {
        }
        break;
      }
      ::usleep(10000);
    }
  }
}

Result<std::vector<nlohmann::json>> TritonPeer::ask(const std::vector<nlohmann::json>& requests) {
  std::vector<nlohmann::json> answers;
  answers.reserve(requests.size());
  std::size_t n = helpers_.size();
  std::size_t share = (requests.size() + n - 1) / n;
  // Each helper reads its whole share before it answers, so writing every share first and then
  // reading them in turn cannot deadlock: a helper blocked writing waits only for its turn.
  for (std::size_t h = 0; h < n; ++h) {
    std::size_t begin = std::min(requests.size(), h * share);
    std::size_t end = std::min(requests.size(), begin + share);
    if (begin == end)
      break;
    std::string text;
    for (std::size_t i = begin; i < end; ++i)
      text += requests[i].dump() + "\n";
    text += "{\"flush\": true}\n";
    if (!writeAll(helpers_[h].in, text))
      return makeError("the Triton helper (" + python_ +
                           ") stopped reading: " + std::strerror(errno),
                       "--python");
  }
  for (std::size_t h = 0; h < n; ++h) {
    std::size_t begin = std::min(requests.size(), h * share);
    std::size_t end = std::min(requests.size(), begin + share);
    if (begin == end)
      break;
    for (std::size_t i = begin; i <= end; ++i) {
      auto line = readLine(helpers_[h]);
      if (!line.ok())
        return line.error();
      nlohmann::json j = nlohmann::json::parse(*line, nullptr, false);
      bool ok = i == end ? j.is_object() && j.contains("flushed")
                         : j.is_object() && j.contains("id") && j["id"] == requests[i]["id"];
      if (!ok)
        return makeError("the Triton helper (" + python_ +
                             ") answered out of turn: " + line->substr(0, 200),
                         "--python");
      if (i < end)
        answers.push_back(std::move(j));
    }
  }
  return answers;
}

} // namespace llcheck::fuzz
