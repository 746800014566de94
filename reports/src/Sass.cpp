// Reading a kernel's SASS for the report (see Sass.h).
#include "llcheck/reports/Sass.h"

#include "llcheck/core/Spec.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <sstream>

namespace llcheck::reports {
namespace {

/// A cuobjdump listing of a large cubin is a few MB; past this it is not a kernel's SASS.
constexpr std::size_t kMaxSassBytes = std::size_t{256} << 20;

/// The opcode's first component: "LDS" of "LDS.U.128".
std::string_view baseOf(std::string_view opcode) {
  return opcode.substr(0, opcode.find('.'));
}

bool isBranch(std::string_view base) {
  return base == "BRA" || base == "BRX" || base == "JMP" || base == "JMX" || base == "CALL" ||
         base == "RET" || base == "BSSY" || base == "BSYNC" || base == "BREAK";
}

struct Instruction {
  uint64_t address = 0;
  std::string predicate; ///< "@P0", "@!UP1", or ""
  std::string opcode;
};

void finish(SassFunction& f, const std::vector<Instruction>& code) {
  // The last unpredicated EXIT: what follows it (the `BRA` to itself ptxas pads with) never runs.
  std::size_t lastExit = code.size();
  for (std::size_t i = code.size(); i-- > 0;)
    if (baseOf(code[i].opcode) == "EXIT" && code[i].predicate.empty()) {
      lastExit = i;
      break;
    }
  bool afterExit = false;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const Instruction& ins = code[i];
    if (ins.predicate == "@!PT")
      continue; // never executed
    std::string_view base = baseOf(ins.opcode);
    if (isBranch(base) && i < lastExit && f.straightLine) {
      f.straightLine = false;
      std::ostringstream where;
      where << ins.opcode << " at 0x" << std::hex << ins.address;
      f.notStraightLine = where.str();
    }
    if (base == "EXIT" && !ins.predicate.empty() && ins.predicate != "@PT" && !afterExit) {
      afterExit = true;
      f.predicatedExit = ins.predicate + " EXIT";
      f.exitAddress = ins.address;
      continue;
    }
    if (base == "LDS") {
      ++f.lds;
      f.ldsAfterExit += afterExit;
    } else if (base == "LDSM") {
      ++f.ldsm;
      f.ldsmAfterExit += afterExit;
    }
  }
}

} // namespace

Result<std::vector<SassFunction>> parseSass(std::string_view text, const std::string& where) {
  static const std::regex function(R"(^\s*Function\s*:\s*(\S+))");
  // "/*0120*/   @!P0 EXIT ;": the address, an optional predicate, the opcode.
  static const std::regex instruction(
      R"(^\s*/\*([0-9a-fA-F]{4,})\*/\s*(@!?U?P(?:T|[0-9]+)\s+)?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*))");
  std::vector<SassFunction> functions;
  std::vector<Instruction> code;
  std::istringstream in{std::string(text)};
  std::string line;
  std::size_t lineNo = 0, instructions = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    std::smatch m;
    if (std::regex_search(line, m, function)) {
      if (!functions.empty())
        finish(functions.back(), code);
      code.clear();
      functions.push_back(SassFunction{});
      functions.back().name = m[1];
      continue;
    }
    if (!std::regex_search(line, m, instruction))
      continue;
    if (functions.empty())
      return makeError("line " + std::to_string(lineNo) +
                           ": an instruction before any `Function :` header (not a "
                           "`cuobjdump -sass` listing?)",
                       where);
    Instruction ins;
    ins.address = std::strtoull(m[1].str().c_str(), nullptr, 16);
    std::string pred = m[2];
    while (!pred.empty() && (pred.back() == ' ' || pred.back() == '\t'))
      pred.pop_back();
    ins.predicate = pred;
    ins.opcode = m[3];
    code.push_back(std::move(ins));
    ++instructions;
  }
  if (!functions.empty())
    finish(functions.back(), code);
  if (functions.empty() || instructions == 0)
    return makeError("no SASS function with instructions in it (expected `cuobjdump -sass` "
                     "output: `Function : NAME` and lines `/*0000*/ OPCODE ...;`)",
                     where);
  return functions;
}

Result<std::string> disassembleCubin(const std::string& cubin, const std::string& cuobjdump) {
  int out[2];
  if (pipe(out) != 0)
    return makeError(std::string("pipe: ") + std::strerror(errno), cubin);
  pid_t pid = fork();
  if (pid < 0) {
    close(out[0]);
    close(out[1]);
    return makeError(std::string("fork: ") + std::strerror(errno), cubin);
  }
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0)
      dup2(devnull, STDERR_FILENO);
    close(out[0]);
    close(out[1]);
    const char* argv[] = {cuobjdump.c_str(), "-sass", cubin.c_str(), nullptr};
    execv(cuobjdump.c_str(), const_cast<char* const*>(argv));
    _exit(127);
  }
  close(out[1]);
  std::string text;
  char chunk[1 << 16];
  bool tooBig = false;
  for (;;) {
    ssize_t n = read(out[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    if (text.size() + static_cast<std::size_t>(n) > kMaxSassBytes) {
      tooBig = true;
      break;
    }
    text.append(chunk, static_cast<std::size_t>(n));
  }
  close(out[0]);
  if (tooBig)
    kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (tooBig)
    return makeError("cuobjdump's listing is over " + std::to_string(kMaxSassBytes >> 20) +
                         " MiB: not one kernel's SASS",
                     cubin);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return makeError(cuobjdump + " -sass failed (" +
                         (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                            : std::string("killed by a signal")) +
                         "): not a cubin it can read?",
                     cubin);
  return text;
}

std::string findCuobjdump(const std::string& explicitPath) {
  auto executable = [](const std::string& p) { return !p.empty() && access(p.c_str(), X_OK) == 0; };
  if (!explicitPath.empty())
    return executable(explicitPath) ? explicitPath : "";
  if (const char* env = std::getenv("CUOBJDUMP"); env && executable(env))
    return env;
  if (const char* path = std::getenv("PATH")) {
    std::string_view rest = path;
    while (!rest.empty()) {
      std::size_t colon = rest.find(':');
      std::string dir(rest.substr(0, colon));
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
      if (!dir.empty() && executable(dir + "/cuobjdump"))
        return dir + "/cuobjdump";
    }
  }
  return executable("/usr/local/cuda/bin/cuobjdump") ? "/usr/local/cuda/bin/cuobjdump" : "";
}

std::optional<SassBeside> sassBeside(const std::string& ttgirPath, const std::string& cuobjdump) {
  std::filesystem::path p(ttgirPath);
  std::error_code ec;
  for (const char* ext : {".sass", ".cubin"}) {
    std::filesystem::path candidate = p;
    candidate.replace_extension(ext);
    if (!std::filesystem::is_regular_file(candidate, ec))
      continue;
    SassBeside s;
    s.path = candidate.string();
    bool sass = std::string_view(ext) == ".sass";
    if (!sass && cuobjdump.empty()) {
      s.error = "not read: no cuobjdump (set --cuobjdump or $CUOBJDUMP, or put the CUDA "
                "toolkit's on PATH)";
      return s;
    }
    Result<std::string> text = sass ? readInputFile(s.path) : disassembleCubin(s.path, cuobjdump);
    if (!text.ok()) {
      s.error = text.error().str();
      return s;
    }
    auto functions = parseSass(*text, s.path);
    if (!functions.ok())
      s.error = functions.error().str();
    else
      s.functions = std::move(*functions);
    return s;
  }
  return std::nullopt;
}

} // namespace llcheck::reports
