// Reading a kernel's SASS for the report (see Sass.h).
#include "llcheck/reports/Sass.h"

#include "llcheck/core/Spec.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>
#include <unordered_map>

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

/// An instruction that reads or writes memory: global, shared and local memory, async copies,
/// atomics, TMA, matrix loads (not LDC: the kernel's parameters are read before anything).
bool isMemoryAccess(std::string_view base) {
  static constexpr std::string_view kinds[] = {
      "LDG",  "STG",   "LDS",   "STS", "LDSM", "STSM",   "LDGSTS",  "LDL",     "STL",  "LD",  "ST",
      "ATOM", "ATOMS", "ATOMG", "RED", "REDG", "UBLKCP", "UTMALDG", "UTMASTG", "SUST", "SULD"};
  return std::find(std::begin(kinds), std::end(kinds), base) != std::end(kinds);
}

struct Instruction {
  uint64_t address = 0;
  std::string predicate; ///< "@P0", "@!UP1", or ""
  std::string opcode;
  /// A branch's absolute target ("BRA 0x380"), when it has one.
  std::optional<uint64_t> target;
  /// What follows the opcode, up to the ';' ("[R9+0x800], desc[UR16][R90.64], P2").
  std::string operands;
};

/// The length of the predicate register name `s` starts with ("P0", "!UP1", "PT", "!PT"), or 0
/// where it starts with none.
std::size_t predicateName(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '!')
    ++i;
  if (i < s.size() && s[i] == 'U')
    ++i;
  if (i >= s.size() || s[i] != 'P')
    return 0;
  std::size_t j = i + 1;
  if (j < s.size() && s[j] == 'T')
    return j + 1;
  while (j < s.size() && s[j] >= '0' && s[j] <= '9')
    ++j;
  return j > i + 1 ? j : 0;
}

/// A predicate that can be true or false per thread: not none, not @PT, not @!PT.
bool isRealPredicate(const std::string& predicate) {
  return !predicate.empty() && predicate != "@PT" && predicate != "@!PT";
}

/// A predicated EXIT that only some warps or lanes may take. Where the kernel returns early
/// (`returnsEarly`: a cf.cond_br to tt.return, on program ids and arguments), a predicated EXIT
/// before the first memory access is that return: every warp of the CTA takes it or none does
/// (fla's rotary: `@P0 EXIT` past the last row, then `@P0 STG`, `@!P0 EXIT`, `STG`).
bool isWarpExit(const SassFunction& f, const Instruction& ins) {
  return baseOf(ins.opcode) == "EXIT" && isRealPredicate(ins.predicate) &&
         !(f.returnsEarly && ins.address < f.firstMemoryAccess);
}

/// "BRA at 0x1a40": how a message names an instruction.
std::string named(const Instruction& ins) {
  std::ostringstream where;
  where << ins.opcode << " at 0x" << std::hex << ins.address;
  return where.str();
}

/// The width of an STG: "STG.E.128" 128, "STG.E.U16" 16, "STG.E" 32.
unsigned storeBits(std::string_view opcode) {
  unsigned bits = 32;
  std::size_t dot = opcode.find('.');
  while (dot != std::string_view::npos) {
    std::size_t next = opcode.find('.', dot + 1);
    std::string_view part = opcode.substr(
        dot + 1, next == std::string_view::npos ? std::string_view::npos : next - dot - 1);
    if (part == "128" || part == "64")
      bits = part == "128" ? 128 : 64;
    else if (part == "U8" || part == "S8")
      bits = 8;
    else if (part == "U16" || part == "S16")
      bits = 16;
    dot = next;
  }
  return bits;
}

/// An LDGSTS's destination register and offset and its zero-fill predicate (SassCopy), from
/// "[R9+0x800], desc[UR16][R90.64], P2". A form not read leaves them empty.
void readCopyOperands(std::string_view operands, SassCopy& copy) {
  std::size_t close = operands.find(']');
  // "[R2" with no ']' (fuzz_sass): no destination to read, and substr past it would throw.
  if (operands.size() > 2 && operands[0] == '[' && operands[1] == 'R' &&
      close != std::string_view::npos) {
    std::string_view inside = operands.substr(1, close - 1);
    std::size_t n = 1;
    while (n < inside.size() && inside[n] >= '0' && inside[n] <= '9')
      ++n;
    std::string_view rest = inside.substr(n);
    bool negative = rest.rfind("+-0x", 0) == 0;
    bool offset = rest.rfind("+0x", 0) == 0 || negative;
    std::string_view hex = offset ? rest.substr(negative ? 4 : 3) : std::string_view();
    bool hexDigits =
        !hex.empty() && hex.size() <= 8 && std::all_of(hex.begin(), hex.end(), [](char c) {
          return std::isxdigit(static_cast<unsigned char>(c));
        });
    if (n > 1 && (rest.empty() || (offset && hexDigits))) {
      copy.sharedBase = std::string(inside.substr(0, n));
      int64_t value = rest.empty() ? 0 : std::strtoll(std::string(hex).c_str(), nullptr, 16);
      copy.sharedOffset = negative ? -value : value;
    }
  }
  std::size_t comma = operands.rfind(',');
  if (comma == std::string_view::npos)
    return;
  std::string_view last = operands.substr(comma + 1);
  last.remove_prefix(std::min(last.size(), last.find_first_not_of(" \t")));
  last = last.substr(0, last.find_last_not_of(" \t") + 1);
  if (!last.empty() && predicateName(last) == last.size())
    copy.zeroFill = std::string(last);
}

/// SassFunction::loadsBeforeLoops (see Sass.h): the LDGs before the first loop's head, each
/// marked where a predicated forward BRA that jumps past a whole loop (its zero-trip test)
/// jumps over it. `loops`: [a branch back's target, the branch].
void readLoadsBeforeLoops(SassFunction& f, const std::vector<Instruction>& code,
                          std::size_t lastExit,
                          const std::vector<std::pair<uint64_t, uint64_t>>& loops) {
  if (loops.empty())
    return;
  uint64_t head = ~uint64_t{0};
  for (const auto& [target, branch] : loops)
    head = std::min(head, target);
  std::vector<std::pair<uint64_t, uint64_t>> guards; // [the BRA, its target)
  for (std::size_t i = 0; i < lastExit; ++i) {
    const Instruction& ins = code[i];
    if (baseOf(ins.opcode) != "BRA" || !isRealPredicate(ins.predicate) || !ins.target ||
        *ins.target <= ins.address)
      continue;
    bool skipsALoop = std::any_of(loops.begin(), loops.end(), [&](const auto& r) {
      return r.first > ins.address && r.second < *ins.target;
    });
    if (skipsALoop)
      guards.emplace_back(ins.address, *ins.target);
  }
  for (std::size_t i = 0; i < lastExit && code[i].address < head; ++i) {
    const Instruction& ins = code[i];
    if (ins.predicate == "@!PT" || baseOf(ins.opcode) != "LDG")
      continue;
    bool guarded = std::any_of(guards.begin(), guards.end(), [&](const auto& g) {
      return g.first < ins.address && ins.address < g.second;
    });
    f.loadsBeforeLoops.push_back({ins.address, storeBits(ins.opcode), guarded});
  }
}

/// SassFunction::storesOutsideLoops (see Sass.h); `lastExit` indexes the final unpredicated
/// EXIT (code.size() when there is none), `isJumpedOver` tells an address inside a predicated
/// forward BRA's jump that holds no loop.
template <class JumpedOver>
void readStores(SassFunction& f, const std::vector<Instruction>& code, std::size_t lastExit,
                const JumpedOver& isJumpedOver) {
  // Jumps are told apart by addresses: a listing whose addresses go back is not cuobjdump's.
  for (std::size_t i = 1; i < code.size(); ++i)
    if (code[i].address < code[i - 1].address) {
      f.storesNotReadable = named(code[i]) + ": an address before the previous instruction's";
      return;
    }
  std::vector<std::pair<uint64_t, uint64_t>> loops; // [a branch back's target, the branch]
  std::vector<uint64_t> targets;                    // where any jump lands
  for (std::size_t i = 0; i < lastExit; ++i) {
    const Instruction& ins = code[i];
    std::string_view base = baseOf(ins.opcode);
    if (ins.predicate == "@!PT" || !isBranch(base) || base == "BSSY" || base == "BSYNC")
      continue; // BSSY / BSYNC only bracket a divergent region: they move no warp
    if (base != "BRA" && base != "BREAK") {
      f.storesNotReadable = named(ins) + ": control flow the SASS reading does not follow";
      return;
    }
    if (!ins.target)
      continue;
    targets.push_back(*ins.target);
    if (*ins.target <= ins.address)
      loops.emplace_back(*ins.target, ins.address);
  }
  std::sort(targets.begin(), targets.end());
  readLoadsBeforeLoops(f, code, lastExit, loops);
  // The last predicated EXIT passed with no jump landing since (`passedExit`), and where.
  bool passedExit = false;
  uint64_t exitAt = 0;
  for (std::size_t i = 0; i < lastExit; ++i) {
    const Instruction& ins = code[i];
    if (ins.predicate == "@!PT")
      continue;
    std::string_view base = baseOf(ins.opcode);
    if (passedExit && std::upper_bound(targets.begin(), targets.end(), exitAt) !=
                          std::upper_bound(targets.begin(), targets.end(), ins.address))
      passedExit = false; // a jump lands in (EXIT, here]: a path that does not pass the EXIT
    if (isWarpExit(f, ins)) {
      passedExit = true;
      f.lastPredicatedExit = exitAt = ins.address;
      continue;
    }
    if (base != "STG" && base != "LDGSTS")
      continue;
    bool inLoop = std::any_of(loops.begin(), loops.end(), [&](const auto& r) {
      return r.first <= ins.address && ins.address <= r.second;
    });
    if (base == "LDGSTS") {
      SassCopy copy;
      copy.address = ins.address;
      copy.bits = storeBits(ins.opcode);
      copy.bypass = ins.opcode.find(".BYPASS") != std::string::npos;
      copy.inLoop = inLoop;
      copy.executedBy = isJumpedOver(ins.address) ? 'b' : 'e';
      readCopyOperands(ins.operands, copy);
      f.copies.push_back(std::move(copy));
      continue;
    }
    if (inLoop) {
      f.storesInsideLoops.push_back(
          {ins.address, storeBits(ins.opcode), isJumpedOver(ins.address) ? 'b' : 'e'});
      continue;
    }
    f.storesOutsideLoops.push_back({ins.address, storeBits(ins.opcode),
                                    passedExit                  ? 'x'
                                    : isJumpedOver(ins.address) ? 'b'
                                                                : 'e'});
  }
}

void finish(SassFunction& f, const std::vector<Instruction>& code) {
  for (const Instruction& ins : code)
    if (ins.predicate != "@!PT" && isMemoryAccess(baseOf(ins.opcode))) {
      f.firstMemoryAccess = ins.address;
      break;
    }
  // The last unpredicated EXIT: what follows it (the `BRA` to itself ptxas pads with) never runs.
  std::size_t lastExit = code.size();
  for (std::size_t i = code.size(); i-- > 0;)
    if (baseOf(code[i].opcode) == "EXIT" && code[i].predicate.empty()) {
      lastExit = i;
      break;
    }
  // The first predicated EXIT: where the warps whose stores are all masked leave.
  std::optional<uint64_t> exitAt;
  for (std::size_t i = 0; i < lastExit && !exitAt; ++i)
    if (isWarpExit(f, code[i]))
      exitAt = code[i].address;
  // Where a BREAK's threads go: the end of the region its barrier's latest BSSY opened (BSSY
  // B1, 0x12a0 ... BREAK B1): they wait at that BSYNC and go on from there, as a branch to it.
  std::unordered_map<std::string, uint64_t> regionEnd;
  std::unordered_map<uint64_t, uint64_t> breakTarget;
  for (const Instruction& ins : code) {
    std::string_view base = baseOf(ins.opcode);
    std::string barrier = ins.operands.substr(0, ins.operands.find_first_of(", \t"));
    if (base == "BSSY" && ins.target)
      regionEnd[barrier] = *ins.target;
    else if (base == "BREAK" && regionEnd.count(barrier))
      breakTarget[ins.address] = regionEnd[barrier];
  }
  bool afterExit = false;
  // [predicated BRA, its target): code a thread may jump over. One holding a loop (a branch
  // back) is a skipped loop, not a branch around a few loads, and is left out. Sorted
  // addresses keep both questions logarithmic in a listing of any size.
  std::vector<uint64_t> backward; // addresses of branches to an earlier address
  for (const Instruction& ins : code)
    if (ins.target && *ins.target < ins.address) {
      backward.push_back(ins.address);
      // A BRA's alone (BAR.SYNC 0x0's operand reads as a target too: not a branch).
      f.branchesBack |= baseOf(ins.opcode) == "BRA" && ins.predicate != "@!PT";
    }
  std::sort(backward.begin(), backward.end());
  std::vector<std::pair<uint64_t, uint64_t>> skipped;
  for (const Instruction& ins : code) {
    std::string_view base = baseOf(ins.opcode);
    if (ins.predicate != "@!PT" &&
        (base == "BSSY" || base == "BRX" || base == "JMX" || base == "CALL" || base == "RET" ||
         base == "BREAK" || (base == "BRA" && ins.target && *ins.target > ins.address)))
      f.branchesForward = true;
  }
  for (const Instruction& ins : code)
    if (baseOf(ins.opcode) == "BRA" && isRealPredicate(ins.predicate) && ins.target &&
        *ins.target > ins.address) {
      auto loop = std::upper_bound(backward.begin(), backward.end(), ins.address);
      if (loop == backward.end() || *loop >= *ins.target)
        skipped.emplace_back(ins.address, *ins.target);
    }
  // Their union as disjoint open intervals, by start.
  std::sort(skipped.begin(), skipped.end());
  std::vector<std::pair<uint64_t, uint64_t>> jumpedOver;
  for (const auto& r : skipped)
    if (!jumpedOver.empty() && r.first < jumpedOver.back().second)
      jumpedOver.back().second = std::max(jumpedOver.back().second, r.second);
    else
      jumpedOver.push_back(r);
  auto isJumpedOver = [&](uint64_t address) {
    auto it = std::upper_bound(jumpedOver.begin(), jumpedOver.end(), address,
                               [](uint64_t a, const auto& r) { return a < r.first + 1; });
    return it != jumpedOver.begin() && address < std::prev(it)->second;
  };
  for (std::size_t i = 0; i < code.size(); ++i) {
    const Instruction& ins = code[i];
    if (ins.predicate == "@!PT")
      continue; // never executed
    std::string_view base = baseOf(ins.opcode);
    // Counting loads by position needs the code from the EXIT on to run once, in order: a
    // branch there, or one before it that lands past it, breaks that. Branches that stay
    // before the EXIT (a K loop, a skipped prologue) do not.
    // BSSY / BSYNC bracket a divergent region (ptxas's branch around loads a warp skips):
    // the region ends at BSSY's target, and a BSYNC before the EXIT waits there; a BREAK
    // leaves for that end (FlagGems' cumsum: a BREAK in its scan's region, far before the
    // EXIT of its scalar store).
    bool before = exitAt && ins.address < *exitAt;
    auto broken = breakTarget.find(ins.address);
    bool harmless = before && ((ins.target && *ins.target <= *exitAt) || base == "BSYNC" ||
                               (broken != breakTarget.end() && broken->second <= *exitAt));
    if (isBranch(base) && i < lastExit && f.straightLine && !harmless) {
      f.straightLine = false;
      f.notStraightLine = named(ins);
    }
    if (isWarpExit(f, ins) && !afterExit) { // @!PT: skipped above
      afterExit = true;
      f.predicatedExit = ins.predicate + " EXIT";
      f.exitAddress = ins.address;
      continue;
    }
    if (base == "LDS") {
      ++f.lds;
      f.ldsAfterExit += afterExit;
      if (ins.predicate.empty() && isJumpedOver(ins.address))
        ++f.ldsBranchedAround;
    } else if (base == "LDSM") {
      ++f.ldsm;
      f.ldsmAfterExit += afterExit;
    } else if (base == "LDG") {
      ++f.ldgByBits[storeBits(ins.opcode)];
      if (ins.predicate.empty() && isJumpedOver(ins.address))
        ++f.ldgBranchedAround[storeBits(ins.opcode)];
    } else if (base == "STG") {
      ++f.stg;
      f.stgAfterExit += afterExit;
    }
  }
  readStores(f, code, lastExit, isJumpedOver);
}

} // namespace

namespace {

// The two line shapes are matched by hand: std::regex recurses once per character it matches,
// so a 50 KB line (a `Function : AAAA...` header) overflowed the stack.

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view skipBlanks(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && isBlank(s[i]))
    ++i;
  return s.substr(i);
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

/// "Function : NAME": the name (the first run of non-blank characters after the colon).
std::optional<std::string> functionHeader(std::string_view line) {
  line = skipBlanks(line);
  if (!startsWith(line, "Function"))
    return std::nullopt;
  line = skipBlanks(line.substr(8));
  if (!startsWith(line, ":"))
    return std::nullopt;
  line = skipBlanks(line.substr(1));
  std::size_t n = 0;
  while (n < line.size() && !isBlank(line[n]))
    ++n;
  if (n == 0)
    return std::nullopt;
  return std::string(line.substr(0, n));
}

bool isUpper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool isOpcodeChar(char c) {
  return isUpper(c) || (c >= '0' && c <= '9') || c == '_';
}

/// "/*0120*/   @!P0 EXIT ;": the address (4 or more hex digits), an optional predicate
/// (@P0, @!UPT, ...) and the opcode (LDS.U.128).
std::optional<Instruction> instructionLine(std::string_view line) {
  line = skipBlanks(line);
  if (!startsWith(line, "/*"))
    return std::nullopt;
  line.remove_prefix(2);
  std::size_t digits = 0;
  while (digits < line.size() && std::isxdigit(static_cast<unsigned char>(line[digits])))
    ++digits;
  if (digits < 4 || !startsWith(line.substr(digits), "*/"))
    return std::nullopt;
  Instruction ins;
  // Addresses past 16 hex digits are not a cubin's; saturate rather than wrap.
  ins.address = digits > 16
                    ? UINT64_MAX
                    : std::strtoull(std::string(line.substr(0, digits)).c_str(), nullptr, 16);
  line = skipBlanks(line.substr(digits + 2));
  if (startsWith(line, "@")) {
    std::size_t name = predicateName(line.substr(1)), j = 1 + name;
    // The predicate must be followed by a blank: "@P0EXIT" is no instruction.
    if (name > 0 && j < line.size() && isBlank(line[j])) {
      ins.predicate = std::string(line.substr(0, j));
      line = skipBlanks(line.substr(j));
    }
  }
  if (line.empty() || !isUpper(line[0]))
    return std::nullopt;
  std::size_t n = 1;
  while (n < line.size() && isOpcodeChar(line[n]))
    ++n;
  // Components ".U", ".128": a dot followed by at least one opcode character.
  while (n + 1 < line.size() && line[n] == '.' && isOpcodeChar(line[n + 1])) {
    n += 2;
    while (n < line.size() && isOpcodeChar(line[n]))
      ++n;
  }
  ins.opcode = std::string(line.substr(0, n));
  // "BRA 0x380 ;", "BSSY B0, 0x740 ;": the target, an absolute address.
  std::string_view operand = skipBlanks(line.substr(n));
  ins.operands = std::string(operand.substr(0, operand.find(';')));
  if (ins.opcode == "BSSY" && startsWith(operand, "B")) {
    std::size_t comma = operand.find(',');
    operand = comma == std::string_view::npos ? std::string_view()
                                              : skipBlanks(operand.substr(comma + 1));
  }
  if (startsWith(operand, "0x")) {
    std::size_t hex = 2;
    while (hex < operand.size() && std::isxdigit(static_cast<unsigned char>(operand[hex])))
      ++hex;
    if (hex > 2 && hex <= 18)
      ins.target = std::strtoull(std::string(operand.substr(2, hex - 2)).c_str(), nullptr, 16);
  }
  return ins;
}

} // namespace

Result<std::vector<SassFunction>> parseSass(std::string_view text, const std::string& where,
                                            bool returnsEarly) {
  std::vector<SassFunction> functions;
  std::vector<Instruction> code;
  std::istringstream in{std::string(text)};
  std::string line;
  std::size_t lineNo = 0, instructions = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (auto name = functionHeader(line)) {
      if (!functions.empty())
        finish(functions.back(), code);
      code.clear();
      functions.push_back(SassFunction{});
      functions.back().name = std::move(*name);
      functions.back().returnsEarly = returnsEarly;
      continue;
    }
    auto ins = instructionLine(line);
    if (!ins)
      continue;
    if (functions.empty())
      return makeError("line " + std::to_string(lineNo) +
                           ": an instruction before any `Function :` header (not a "
                           "`cuobjdump -sass` listing?)",
                       where);
    code.push_back(std::move(*ins));
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

Result<std::string> disassembleCubin(const std::string& cubin, const std::string& cuobjdump,
                                     int timeoutSeconds) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0)
    return makeError(std::string("pipe: ") + std::strerror(errno), cubin);
  pid_t pid = fork();
  if (pid < 0) {
    close(out[0]);
    close(out[1]);
    return makeError(std::string("fork: ") + std::strerror(errno), cubin);
  }
  if (pid == 0) {
    // Its own process group: on a time-out the whole group goes, children it left behind too.
    setpgid(0, 0);
    dup2(out[1], STDOUT_FILENO);
    int devnull = open("/dev/null", O_RDWR);
    if (devnull >= 0) {
      dup2(devnull, STDERR_FILENO);
      dup2(devnull, STDIN_FILENO);
    }
    const char* argv[] = {cuobjdump.c_str(), "-sass", cubin.c_str(), nullptr};
    execv(cuobjdump.c_str(), const_cast<char* const*>(argv));
    _exit(127);
  }
  setpgid(pid, pid); // as the child does: whichever runs first
  close(out[1]);
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::seconds(timeoutSeconds);
  std::optional<Clock::time_point> exitedAt;
  std::string text;
  char chunk[1 << 16];
  bool tooBig = false, timedOut = false, eof = false;
  int status = 0;
  while (!eof) {
    if (!exitedAt) {
      pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid)
        exitedAt = Clock::now();
    }
    auto now = Clock::now();
    // Once cuobjdump itself has exited, what is still in the pipe is read for a moment; a child
    // it left behind holding the pipe open is not waited for.
    if (exitedAt && now - *exitedAt > std::chrono::milliseconds(500))
      break;
    if (now >= deadline) {
      timedOut = !exitedAt;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    int ready = poll(&p, 1, 50);
    if (ready < 0 && errno != EINTR)
      break;
    if (ready <= 0)
      continue;
    ssize_t n = read(out[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      eof = true;
      break;
    }
    if (text.size() + static_cast<std::size_t>(n) > kMaxSassBytes) {
      tooBig = true;
      break;
    }
    text.append(chunk, static_cast<std::size_t>(n));
  }
  close(out[0]);
  kill(-pid, SIGKILL); // the group: cuobjdump if it still runs, and whatever it left behind
  if (!exitedAt)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  if (tooBig)
    return makeError("cuobjdump's listing is over " + std::to_string(kMaxSassBytes >> 20) +
                         " MiB: not one kernel's SASS",
                     cubin);
  if (timedOut)
    return makeError(cuobjdump + " -sass did not finish within " + std::to_string(timeoutSeconds) +
                         " s (killed; --cuobjdump-timeout sets the limit)",
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

std::optional<SassBeside> sassBeside(const std::string& ttgirPath, const std::string& cuobjdump,
                                     int cuobjdumpSeconds, bool returnsEarly) {
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
    Result<std::string> text =
        sass ? readInputFile(s.path) : disassembleCubin(s.path, cuobjdump, cuobjdumpSeconds);
    if (!text.ok()) {
      s.error = text.error().str();
      return s;
    }
    auto functions = parseSass(*text, s.path, returnsEarly);
    if (!functions.ok())
      s.error = functions.error().str();
    else
      s.functions = std::move(*functions);
    return s;
  }
  return std::nullopt;
}

} // namespace llcheck::reports
