// One launch of a TTGIR kernel, run for every program (LaunchEvaluation.h). The ops come from
// the same reader as the axis analysis (TtgirOpReader.h); here they are executed, in order,
// with concrete values, once per program, the loops for their iterations and the ifs on the
// branch taken.
#include "llcheck/core/LaunchEvaluation.h"
#include "TtgirOpReader.h"

#include "llcheck/core/Ttgir.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <unordered_map>

namespace llcheck {

namespace {

using namespace detail;

/// A value of one program: a scalar or a tensor (row-major), of integers or of pointers (byte
/// offsets from a pointer argument's base), or unknown with the reason.
struct Value {
  std::shared_ptr<const std::vector<int64_t>> data;
  std::vector<uint64_t> shape; ///< empty: a scalar
  int base = -1;               ///< the pointer argument, for a pointer
  std::string why;             ///< when unknown
  /// An unknown i1 tensor that is false wherever this holds 0 (1: not known), row-major: the
  /// `arith.andi` of a mask with a known operand, evaluated with no program id (what the
  /// compiler knows; LaunchArguments::programIdsKnown).
  std::shared_ptr<const std::vector<uint8_t>> mayBeTrue;
  [[nodiscard]] bool known() const { return data != nullptr; }
  [[nodiscard]] std::size_t size() const { return data ? data->size() : 0; }
};

Value unknown(std::string why) {
  Value v;
  v.why = std::move(why);
  return v;
}

Value known(std::vector<int64_t> data, std::vector<uint64_t> shape, int base = -1) {
  Value v;
  v.data = std::make_shared<const std::vector<int64_t>>(std::move(data));
  v.shape = std::move(shape);
  v.base = base;
  return v;
}

/// v at `bits` (two's complement, as the GPU holds it); i1 is 0 or 1.
int64_t wrap(int64_t v, int bits) {
  if (bits <= 0 || bits >= 64)
    return v;
  if (bits == 1)
    return v & 1;
  uint64_t mask = (uint64_t{1} << bits) - 1, u = static_cast<uint64_t>(v) & mask;
  if (u >> (bits - 1))
    u |= ~mask;
  return static_cast<int64_t>(u);
}

uint64_t asUnsigned(int64_t v, int bits) {
  if (bits <= 0 || bits >= 64)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t{1} << bits) - 1);
}

/// The elements of `shape`, saturating (a hostile type can name more than 2^64).
uint64_t elements(const std::vector<uint64_t>& shape) {
  uint64_t n = 1;
  for (uint64_t d : shape)
    if (__builtin_mul_overflow(n, d, &n))
      return std::numeric_limits<uint64_t>::max();
  return n;
}

/// The row-major index after `index` in a tensor of `shape`.
void nextIndex(std::vector<uint64_t>& index, const std::vector<uint64_t>& shape) {
  for (std::size_t k = shape.size(); k-- > 0;) {
    if (++index[k] < shape[k])
      return;
    index[k] = 0;
  }
}

struct Stop {
  std::string why;
};

bool isAccess(const std::string& name) {
  return name == "tt.load" || name == "tt.store" || name == "tt.atomic_rmw" ||
         name == "tt.atomic_cas" || name == "ttg.async_copy_global_to_local";
}

class Interpreter {
public:
  Interpreter(const std::vector<ParsedOp>& ops, const LaunchArguments& arguments,
              const std::function<void(const AccessRun&)>& visit, const LaunchLimits& limits,
              LaunchEvaluation& out)
      : ops_(ops), arguments_(arguments), visit_(visit), limits_(limits), out_(out),
        runs_(ops.size(), 0) {}

  void run() {
    int function = kernelFunction();
    if (function < 0)
      throw Stop{"the module has no tt.func public (or no single tt.func) to run"};
    const ParsedOp& f = ops_[static_cast<std::size_t>(function)];
    if (f.regionEnds.empty())
      throw Stop{"the kernel function's body does not close"};
    begin_ = function + 1;
    end_ = f.regionEnds.front();
    findSunkLoads();
    out_.firstLine = f.line;
    out_.lastLine = end_ > begin_ ? ops_[static_cast<std::size_t>(end_ - 1)].line : f.line;
    for (int i = begin_; i < end_; ++i) {
      const ParsedOp& op = ops_[static_cast<std::size_t>(i)];
      if (isAccess(op.name) && !op.operandTypes.empty() && op.operandTypes.front().isPointer())
        out_.accesses.push_back(op.line);
    }
    for (const auto& [name, type, attrs] : f.arguments)
      if (type.isPointer() && !type.isTensor())
        pointerOffsets_.push_back(offsetOf(displayName(name).substr(1)));
    const auto& g = arguments_.grid;
    out_.programs = g[0] * g[1] * g[2];
    if (out_.programs > limits_.maxPrograms)
      throw Stop{"the grid has " + std::to_string(out_.programs) + " programs, more than " +
                 std::to_string(limits_.maxPrograms) + " are evaluated"};
    for (uint64_t z = 0; z < g[2]; ++z)
      for (uint64_t y = 0; y < g[1]; ++y)
        for (uint64_t x = 0; x < g[0]; ++x) {
          program_ = {x, y, z};
          env_.clear();
          bindArguments(f);
          runFunction();
          for (auto& [loop, pending] : pending_)
            for (Pending& q : pending)
              visitPending(q); // the loop was not reached: as if the load were not sunk
          pending_.clear();
        }
    for (std::size_t i = 0; i < ops_.size(); ++i)
      if (runs_[i] > 0 && !out_.runsUnknown.count(ops_[i].line))
        out_.runs[ops_[i].line] += runs_[i];
  }

private:
  const std::vector<ParsedOp>& ops_;
  const LaunchArguments& arguments_;
  const std::function<void(const AccessRun&)>& visit_;
  const LaunchLimits& limits_;
  LaunchEvaluation& out_;
  std::vector<uint64_t> runs_;
  std::vector<uint64_t> pointerOffsets_;
  std::unordered_map<std::string, Value> env_;
  std::array<uint64_t, 3> program_{0, 0, 0};
  int begin_ = 0, end_ = 0;
  /// Set by a branch (the op to go on at) and by tt.return, for runFunction.
  int jump_ = -1;
  bool returned_ = false;
  /// Running an scf.if's region its condition does not take (LaunchArguments::ifConverted).
  bool predicatedOff_ = false;
  std::vector<int64_t> bytes_;
  std::vector<uint8_t> active_;
  /// A tt.load whose results are used only inside one scf.for that follows it in its region
  /// may be sunk under the loop's zero-trip test, so that a program whose loop runs no trip
  /// does not execute it (fla's norm backward under 3.6: 100 of 132 programs, those with rows
  /// to do, load the weights; its layer norm loads them in all 132). Where the SASS says so
  /// (LaunchArguments::sunkLoads), by op index: the loop's.
  std::unordered_map<int, int> sunkInto_;
  struct Pending {
    int op = 0;
    AccessRun run;
    std::vector<int64_t> bytes;
    std::vector<uint8_t> active;
    bool visit = true; ///< false: a scalar access, counted by its runs alone
  };
  /// A program's sunk loads, held until their loop starts (visited) or has no trip (dropped).
  std::map<int, std::vector<Pending>> pending_;

  /// sunkInto_: every tt.load of the kernel function whose every use lies in the body of one
  /// scf.for that comes after it in the same region, or is an op there (no region, not an
  /// access) whose own uses do (the norm's `arith.extf` of its weights).
  void findSunkLoads() {
    auto at = [&](int i) -> const ParsedOp& { return ops_[static_cast<std::size_t>(i)]; };
    std::vector<int> parent(ops_.size(), -1), stack;
    int firstLoop = -1;
    for (int i = begin_; i < end_ && firstLoop < 0; ++i)
      if (at(i).name == "scf.for")
        firstLoop = i;
    for (int i = begin_; i < end_; ++i) {
      while (!stack.empty() && i >= at(stack.back()).regionEnds.back())
        stack.pop_back();
      parent[static_cast<std::size_t>(i)] = stack.empty() ? -1 : stack.back();
      if (!at(i).regionEnds.empty())
        stack.push_back(i);
    }
    std::unordered_map<std::string, int> definer;
    for (int i = begin_; i < end_; ++i)
      for (const std::string& r : at(i).results)
        definer[r] = i;
    std::vector<std::vector<int>> uses(ops_.size());
    for (int j = begin_; j < end_; ++j)
      for (const std::string& o : at(j).operands)
        if (auto it = definer.find(o); it != definer.end())
          uses[static_cast<std::size_t>(it->second)].push_back(j);
    // target[i]: the loop op i can sink into (-1: none). Uses come after definitions, so a
    // reverse pass has every use's target before its operand's.
    std::vector<int> target(ops_.size(), -1);
    for (int i = end_ - 1; i >= begin_; --i) {
      const ParsedOp& op = at(i);
      bool movable = op.regionEnds.empty() && !op.results.empty() &&
                     (op.name == "tt.load" || !isAccess(op.name)) && op.name != "scf.yield" &&
                     !uses[static_cast<std::size_t>(i)].empty();
      if (!movable)
        continue;
      int common = -1;
      bool ok = true;
      for (int j : uses[static_cast<std::size_t>(i)]) {
        int loop = j;
        while (loop >= 0 &&
               parent[static_cast<std::size_t>(loop)] != parent[static_cast<std::size_t>(i)])
          loop = parent[static_cast<std::size_t>(loop)];
        int into = -1;
        if (loop >= 0 && loop != j && at(loop).name == "scf.for" && loop > i &&
            j < at(loop).regionEnds.front())
          into = loop; // inside the body of a sibling loop
        else if (loop == j)
          into = target[static_cast<std::size_t>(j)]; // a sibling op that sinks there itself
        if (into < 0 || (common >= 0 && into != common)) {
          ok = false;
          break;
        }
        common = into;
      }
      if (ok)
        target[static_cast<std::size_t>(i)] = common;
    }
    // Only a load with no mask, or one the compiler knows (from constants alone): a load
    // masked on a kernel argument stays before the loop's test (Liger's norms' backward,
    // `cols < n_cols`: every program loads its weights, measured on the H200).
    std::unordered_map<int, bool> launchDependent;
    std::function<bool(const std::string&, int)> dependsOnLaunch = [&](const std::string& v,
                                                                       int depth) {
      auto it = definer.find(v);
      if (it == definer.end() || depth > 64)
        return true; // an argument, a block's or loop's argument, or too deep to follow
      int d = it->second;
      if (auto m = launchDependent.find(d); m != launchDependent.end())
        return m->second;
      const ParsedOp& op = at(d);
      bool dependent = op.name == "tt.get_program_id" || op.name == "tt.get_num_programs" ||
                       isAccess(op.name) || !op.regionEnds.empty();
      for (std::size_t k = 0; !dependent && k < op.operands.size(); ++k)
        dependent = dependsOnLaunch(op.operands[k], depth + 1);
      launchDependent[d] = dependent;
      return dependent;
    };
    for (int i = begin_; i < end_; ++i) {
      const ParsedOp& op = at(i);
      if (op.name != "tt.load" || target[static_cast<std::size_t>(i)] < 0)
        continue;
      if (op.operands.size() >= 2 && dependsOnLaunch(op.operands[1], 0))
        continue;
      int loop = target[static_cast<std::size_t>(i)];
      if (loop != firstLoop)
        continue;
      out_.sinkableLoads[op.line] = at(loop).line;
      if (arguments_.sunkLoads.count(op.line))
        sunkInto_[i] = loop;
    }
  }

  /// A load or store of one value: not visited (its one address is a sector whatever it is);
  /// its runs count it, which a mask would not tell, so a masked one is not evaluated. One
  /// the SASS shows sunk under its loop's test waits for the loop like a tile's.
  void scalarAccess(const ParsedOp& op) {
    const std::string& n = op.name;
    bool masked = (n == "tt.load" && op.operands.size() >= 2) ||
                  (n == "tt.store" && op.operands.size() >= 3) ||
                  (n != "tt.load" && n != "tt.store");
    if (masked) {
      out_.notEvaluated.emplace(op.line, n == "tt.load" || n == "tt.store"
                                             ? "a scalar access with a mask"
                                             : "a scalar " + n);
      return;
    }
    auto sunk = sunkInto_.find(static_cast<int>(&op - ops_.data()));
    if (sunk != sunkInto_.end())
      pending_[sunk->second].push_back(Pending{sunk->first, {}, {}, {}, false});
  }

  void visitPending(Pending& q) {
    if (!q.visit)
      return;
    q.run.bytes = q.bytes;
    q.run.active = q.active;
    visit_(q.run);
  }

  /// The sunk loads of the loop at `at` once its trips are known: visited if it runs one.
  void startLoop(int at, bool runs) {
    auto it = pending_.find(at);
    if (it == pending_.end())
      return;
    for (Pending& q : it->second) {
      if (runs)
        visitPending(q);
      else
        --runs_[static_cast<std::size_t>(q.op)];
    }
    pending_.erase(it);
  }

  uint64_t offsetOf(const std::string& name) const {
    auto it = arguments_.pointerOffsets.find(name);
    return it == arguments_.pointerOffsets.end() ? 0 : it->second % 128;
  }

  int kernelFunction() const {
    int only = -1, count = 0;
    for (std::size_t i = 0; i < ops_.size(); ++i) {
      if (ops_[i].name != "tt.func")
        continue;
      ++count;
      only = static_cast<int>(i);
      if (ops_[i].body.rfind("public", 0) == 0)
        return static_cast<int>(i);
    }
    return count == 1 ? only : -1;
  }

  void bindArguments(const ParsedOp& f) {
    int pointer = 0;
    for (const auto& [name, type, attrs] : f.arguments) {
      std::string plain = displayName(name).substr(1);
      if (type.isPointer() && !type.isTensor()) {
        env_[name] = known({0}, {}, pointer++);
        continue;
      }
      auto it = arguments_.integers.find(plain);
      if (type.integerBits() > 0 && it != arguments_.integers.end())
        env_[name] = known({wrap(it->second, type.integerBits())}, {});
      else
        env_[name] = unknown(type.integerBits() > 0 ? "the launch gives no value for %" + plain
                                                    : "%" + plain + " is not an integer argument");
    }
  }

  /// The function body as a graph of blocks: Triton lowers an early `return` under an `if`
  /// to cf.cond_br between blocks (Liger's cross entropy), so a program runs from block to
  /// block until tt.return.
  void runFunction() {
    int at = begin_;
    while (at >= 0 && at < end_) {
      jump_ = -1;
      returned_ = false;
      runRange(at, end_);
      if (returned_ || jump_ < 0)
        return;
      at = jump_;
    }
  }

  /// The op after block `label`'s ^bb line, its arguments bound to `values`; -1 when the
  /// function has no such block.
  int enterBlock(std::string_view label, const std::vector<Value>& values) {
    for (int i = begin_; i < end_; ++i) {
      const ParsedOp& op = ops_[static_cast<std::size_t>(i)];
      if (op.name != "^bb" || op.body != label)
        continue;
      for (std::size_t k = 0; k < op.arguments.size(); ++k)
        env_[std::get<0>(op.arguments[k])] =
            k < values.size() ? values[k] : unknown("a block argument with no value");
      ++runs_[static_cast<std::size_t>(i)];
      return i + 1;
    }
    return -1;
  }

  /// cf.br / cf.cond_br: sets jump_ to the block taken, or marks the rest unknown.
  void branch(const ParsedOp& op, int at) {
    // `cf.cond_br %c, ^bb1(%a : i32), ^bb2` / `cf.br ^bb3(%x, %y : i32, i32)`: the targets in
    // order, each with the operands in its parentheses.
    std::vector<std::pair<std::string, std::vector<Value>>> targets;
    std::string_view body = op.body;
    std::size_t operand = 0;
    bool conditional = op.name == "cf.cond_br";
    Value condition = conditional ? operand < op.operands.size() ? get(op.operands[operand++])
                                                                 : unknown("no condition")
                                  : Value{};
    for (std::size_t p = body.find('^'); p != std::string_view::npos; p = body.find('^', p + 1)) {
      std::size_t end = body.find_first_of("(, ", p);
      std::string label(body.substr(p, end == std::string_view::npos ? end : end - p));
      std::vector<Value> values;
      if (end != std::string_view::npos && body[end] == '(') {
        std::size_t close = body.find(')', end);
        std::string_view args = body.substr(end + 1, close - end - 1);
        std::string_view names = args.substr(0, args.find(" : "));
        for (std::size_t q = names.find('%'); q != std::string_view::npos;
             q = names.find('%', q + 1))
          values.push_back(operand < op.operands.size() ? get(op.operands[operand++])
                                                        : unknown("a missing block operand"));
      }
      targets.emplace_back(std::move(label), std::move(values));
    }
    std::optional<int64_t> c = conditional ? scalar(condition) : std::optional<int64_t>(1);
    std::size_t pick = conditional && c && (*c & 1) == 0 ? 1 : 0;
    if (!c || pick >= targets.size()) {
      std::string why = "after the branch at line " + std::to_string(op.line) +
                        (c ? ", whose target is not read"
                           : ", on a value the launch does not fix (" + condition.why + ")");
      unknownRegion(at + 1, end_, why);
      returned_ = true;
      return;
    }
    jump_ = enterBlock(targets[pick].first, targets[pick].second);
    if (jump_ < 0) {
      unknownRegion(at + 1, end_, "after a branch to a block that is not in the function");
      returned_ = true;
    }
  }

  void charge(uint64_t n) {
    if (n > limits_.maxTensorElements)
      throw Stop{"a tensor of " + std::to_string(n) + " elements, more than the " +
                 std::to_string(limits_.maxTensorElements) + " evaluated"};
    out_.elementOps += std::max<uint64_t>(n, 1);
    if (out_.elementOps > limits_.maxElementOps)
      throw Stop{"the launch takes more than " + std::to_string(limits_.maxElementOps) +
                 " element operations to evaluate"};
  }

  const Value& get(const std::string& key) {
    auto it = env_.find(key);
    if (it != env_.end())
      return it->second;
    static const Value missing = unknown("a value defined outside what is run");
    return missing;
  }

  Value operand(const ParsedOp& op, std::size_t k) {
    return k < op.operands.size() ? get(op.operands[k]) : unknown("a missing operand");
  }

  /// Every op in [begin, end) that is an access, and every op, gets `why`.
  void unknownRegion(int begin, int end, const std::string& why) {
    for (int i = begin; i < end; ++i) {
      const ParsedOp& op = ops_[static_cast<std::size_t>(i)];
      out_.runsUnknown.emplace(op.line, why);
      if (isAccess(op.name))
        out_.notEvaluated.emplace(op.line, why);
    }
  }

  void runRange(int begin, int end) {
    for (int i = begin; i < end && !returned_ && jump_ < 0;) {
      const ParsedOp& op = ops_[static_cast<std::size_t>(i)];
      if (op.name == "^bb")
        return; // the block before ended without a terminator the evaluation knows
      ++runs_[static_cast<std::size_t>(i)];
      if (op.name == "tt.return") {
        returned_ = true;
        return;
      }
      if (op.name == "cf.br" || op.name == "cf.cond_br") {
        branch(op, i);
        return;
      }
      if (op.regionEnds.empty()) {
        execute(op);
        ++i;
        continue;
      }
      int after = op.regionEnds.back();
      if (op.name == "scf.for")
        forOp(op, i);
      else if (op.name == "scf.if")
        ifOp(op, i);
      else {
        unknownRegion(i + 1, after, "inside " + op.name + ", whose regions are not run");
        for (const std::string& r : op.results)
          env_[r] = unknown("the result of " + op.name);
      }
      i = std::max(after, i + 1);
    }
  }

  static std::optional<int64_t> scalar(const Value& v) {
    if (!v.known() || !v.shape.empty() || v.data->size() != 1)
      return std::nullopt;
    return v.data->front();
  }

  void forOp(const ParsedOp& op, int at) {
    int bodyEnd = op.regionEnds.front();
    Value lb = get(op.lowerBound), ub = get(op.upperBound), step = get(op.step);
    auto l = scalar(lb), u = scalar(ub), s = scalar(step);
    auto setResults = [&](std::vector<Value> carried) {
      for (std::size_t k = 0; k < op.results.size(); ++k)
        env_[op.results[k]] = k < carried.size() ? carried[k] : unknown("a loop result");
    };
    if (!l || !u || !s || *s <= 0) {
      std::string why = "the loop at line " + std::to_string(op.line) + " has bounds the launch " +
                        "does not fix (" +
                        (!l   ? lb.why
                         : !u ? ub.why
                         : !s ? step.why
                              : "a step that is not > 0") +
                        ")";
      startLoop(at, true); // its trips are not known: its loads count as if not sunk
      unknownRegion(at + 1, bodyEnd, why);
      std::vector<Value> none(op.results.size(), unknown(why));
      setResults(none);
      return;
    }
    startLoop(at, *l < *u);
    std::vector<Value> carried;
    for (const auto& [arg, initial] : op.iterArgs)
      carried.push_back(get(initial));
    const ParsedOp* yield =
        op.yields.empty() ? nullptr : &ops_[static_cast<std::size_t>(op.yields.front())];
    for (int64_t iv = *l; iv < *u;) {
      charge(1);
      env_[op.inductionVariable] = known({iv}, {});
      for (std::size_t k = 0; k < op.iterArgs.size(); ++k)
        env_[op.iterArgs[k].first] = carried[k];
      runRange(at + 1, bodyEnd);
      for (std::size_t k = 0; k < carried.size(); ++k)
        carried[k] = yield && k < yield->operands.size() ? get(yield->operands[k])
                                                         : unknown("a value the loop yields");
      if (__builtin_add_overflow(iv, *s, &iv))
        break; // the next value is past int64: the loop ends (a hostile bound)
    }
    setResults(std::move(carried));
  }

  void ifOp(const ParsedOp& op, int at) {
    Value c = operand(op, 0);
    auto cond = scalar(c);
    int thenEnd = op.regionEnds.front();
    int elseEnd = op.regionEnds.size() > 1 ? op.regionEnds[1] : thenEnd;
    if (!cond) {
      std::string why = "under the scf.if at line " + std::to_string(op.line) +
                        ", whose condition the launch does not fix (" + c.why + ")";
      unknownRegion(at + 1, elseEnd, why);
      for (const std::string& r : op.results)
        env_[r] = unknown(why);
      return;
    }
    bool taken = (*cond & 1) != 0;
    int from = taken ? at + 1 : thenEnd, to = taken ? thenEnd : elseEnd;
    if (arguments_.ifConverted && !predicatedOff_) {
      // The other region, predicated off: its accesses move nothing, its instructions execute.
      int otherFrom = taken ? thenEnd : at + 1, otherTo = taken ? elseEnd : thenEnd;
      bool flat = true;
      for (int i = otherFrom; i < otherTo; ++i)
        flat = flat && ops_[static_cast<std::size_t>(i)].regionEnds.empty();
      if (flat && otherFrom < otherTo) {
        predicatedOff_ = true;
        runRange(otherFrom, otherTo);
        predicatedOff_ = false;
      }
    }
    runRange(from, to);
    // The scf.yield of the region run: the yields are recorded in order, then before else.
    const ParsedOp* yield = nullptr;
    for (int y : op.yields)
      if (y >= from && y < to)
        yield = &ops_[static_cast<std::size_t>(y)];
    for (std::size_t k = 0; k < op.results.size(); ++k)
      env_[op.results[k]] = yield && k < yield->operands.size() ? get(yield->operands[k])
                                                                : unknown("an scf.if's result");
  }

  void define(const ParsedOp& op, Value v) {
    for (const std::string& r : op.results)
      env_[r] = v;
  }

  void execute(const ParsedOp& op) {
    if (op.results.empty() && !isAccess(op.name))
      return;
    if (isAccess(op.name))
      access(op);
    if (op.results.empty())
      return;
    define(op, evaluate(op));
  }

  int resultBits(const ParsedOp& op) const {
    if (op.name == "arith.cmpi")
      return 1;
    return op.resultType.integerBits();
  }

  Value evaluate(const ParsedOp& op) {
    const std::string& n = op.name;
    if (n == "arith.constant")
      return constant(op);
    if (n == "tt.make_range") {
      int64_t s = 0, e = 0, length = 0;
      if (!integerAttribute(op.body, "start", s) || !integerAttribute(op.body, "end", e) ||
          __builtin_sub_overflow(e, s, &length) || length <= 0 ||
          static_cast<uint64_t>(length) != elements(op.resultType.shape))
        return unknown("a tt.make_range that cannot be read");
      charge(static_cast<uint64_t>(length));
      std::vector<int64_t> d(static_cast<std::size_t>(length));
      std::iota(d.begin(), d.end(), s);
      return known(std::move(d), op.resultType.shape);
    }
    if ((n == "tt.get_program_id" || n == "tt.get_num_programs") && !arguments_.programIdsKnown)
      return unknown("a program id or the grid");
    if (n == "tt.get_program_id" || n == "tt.get_num_programs") {
      std::string_view axis = trimmed(op.body).substr(0, 1);
      int a = axis == "x" ? 0 : axis == "y" ? 1 : axis == "z" ? 2 : -1;
      if (a < 0)
        return unknown(n + " of an axis that cannot be read");
      uint64_t v = n == "tt.get_program_id" ? program_[static_cast<std::size_t>(a)]
                                            : arguments_.grid[static_cast<std::size_t>(a)];
      return known({static_cast<int64_t>(v)}, {});
    }
    if (n == "arith.andi" && !arguments_.programIdsKnown && op.resultType.integerBits() == 1)
      if (auto bound = andOfMasks(op))
        return *bound;
    Value x = operand(op, 0);
    if (!x.known())
      // What is known of it holds through ops that keep the elements in order, no others.
      return n == "ttg.convert_layout" || n == "tt.expand_dims" ? x : unknown(x.why);
    if (n == "ttg.convert_layout" || n == "builtin.unrealized_conversion_cast" ||
        n == "tt.bitcast" || n == "arith.index_cast" || n == "arith.index_castui") {
      x.shape = op.resultType.shape;
      return x;
    }
    if (n == "arith.extsi" || n == "arith.extui" || n == "arith.trunci") {
      int from = op.operandType.integerBits(), to = op.resultType.integerBits();
      if (from == 0 || to == 0)
        return unknown(n + " of a type that is not an integer");
      charge(x.size());
      std::vector<int64_t> d(*x.data);
      for (int64_t& v : d)
        v = n == "arith.extui" ? static_cast<int64_t>(asUnsigned(v, from)) : wrap(v, to);
      return known(std::move(d), op.resultType.shape);
    }
    if (n == "tt.splat") {
      auto v = scalar(x);
      if (!v)
        return unknown("a tt.splat of a tensor");
      uint64_t count = elements(op.resultType.shape);
      charge(count);
      return known(std::vector<int64_t>(count, *v), op.resultType.shape, x.base);
    }
    if (n == "tt.expand_dims" ||
        (n == "tt.reshape" && op.body.find("allow_reorder") == std::string::npos)) {
      if (elements(op.resultType.shape) != x.size())
        return unknown(n + " to a shape of another size");
      x.shape = op.resultType.shape;
      return x;
    }
    if (n == "tt.broadcast")
      return broadcast(op, x);
    if (n == "tt.trans")
      return transpose(op, x);
    if (n == "tt.addptr")
      return binary(op, x, operand(op, 1));
    if (n == "arith.select") {
      Value a = operand(op, 1), b = operand(op, 2);
      if (!a.known() || !b.known())
        return a.known() ? b : a;
      if (a.base != b.base || a.size() != b.size())
        return unknown("a select between pointers of different arguments");
      charge(a.size());
      std::vector<int64_t> d(a.size());
      for (std::size_t i = 0; i < d.size(); ++i) {
        int64_t c = x.size() == 1 ? x.data->front() : (*x.data)[i];
        d[i] = (c & 1) ? (*a.data)[i] : (*b.data)[i];
      }
      return known(std::move(d), op.resultType.shape, a.base);
    }
    if (binaryOf(n))
      return binary(op, x, operand(op, 1));
    return unknown(n == "tt.load" ? "a value loaded from memory" : "the result of " + n);
  }

  /// An i1 `arith.andi` with an operand that is unknown, evaluated with no program id: false
  /// where an operand is known false (`r0_mask & xmask` in Inductor's kernels: the rows past
  /// the reduction's end are off in every program, whatever xmask is). nullopt where both are
  /// known, and where neither says anything; a bound with no 0 keeps the access visited (an
  /// unrolled loop's trips are counted by their visits).
  std::optional<Value> andOfMasks(const ParsedOp& op) {
    Value a = operand(op, 0), b = operand(op, 1);
    if (a.known() && b.known())
      return std::nullopt;
    std::size_t count = op.resultType.isTensor() ? elements(op.resultType.shape) : 1;
    auto bound = [&](const Value& v) -> std::optional<std::vector<uint8_t>> {
      if (v.known() && v.size() == count) {
        std::vector<uint8_t> out(count);
        for (std::size_t i = 0; i < count; ++i)
          out[i] = static_cast<uint8_t>((*v.data)[i] & 1);
        return out;
      }
      if (!v.known() && v.mayBeTrue && v.mayBeTrue->size() == count)
        return *v.mayBeTrue;
      return std::nullopt;
    };
    auto ba = bound(a), bb = bound(b);
    if (!ba && !bb)
      return std::nullopt;
    charge(count);
    std::vector<uint8_t> out(count, 1);
    for (std::size_t i = 0; i < count; ++i)
      out[i] = static_cast<uint8_t>((ba ? (*ba)[i] : 1) & (bb ? (*bb)[i] : 1));
    Value v = unknown(a.known() ? b.why : a.why);
    v.shape = op.resultType.shape;
    v.mayBeTrue = std::make_shared<const std::vector<uint8_t>>(std::move(out));
    return v;
  }

  Value constant(const ParsedOp& op) {
    std::string_view body = op.body;
    auto colon = topLevel(body, " : ");
    std::string_view text = trimmed(colon.empty() ? body : body.substr(0, colon.front()));
    bool tensor = text.rfind("dense<", 0) == 0 && text.back() == '>';
    if (tensor)
      text = trimmed(text.substr(6, text.size() - 7));
    int bits = op.resultType.integerBits();
    std::optional<int64_t> v;
    if (text == "true" || text == "false")
      v = text == "true" ? 1 : 0;
    else if (bits > 0 && text.find_first_of(".[x") == std::string_view::npos)
      v = leadingInteger(text);
    if (!v || bits == 0)
      return unknown("a constant that is not an integer splat");
    uint64_t count = op.resultType.isTensor() ? elements(op.resultType.shape) : 1;
    charge(count);
    return known(std::vector<int64_t>(count, wrap(*v, bits)), op.resultType.shape);
  }

  Value broadcast(const ParsedOp& op, const Value& x) {
    const std::vector<uint64_t>& from = op.operandType.shape;
    const std::vector<uint64_t>& to = op.resultType.shape;
    if (from.size() != to.size() || elements(from) != x.size())
      return unknown("a tt.broadcast between ranks");
    uint64_t count = elements(to);
    charge(count);
    std::vector<int64_t> d(count);
    std::size_t rank = to.size();
    std::vector<uint64_t> index(rank, 0);
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t source = 0;
      for (std::size_t k = 0; k < rank; ++k)
        source = source * from[k] + (from[k] == 1 ? 0 : index[k]);
      d[i] = (*x.data)[source];
      nextIndex(index, to);
    }
    return known(std::move(d), to, x.base);
  }

  Value transpose(const ParsedOp& op, const Value& x) {
    // `{order = array<i32: 1, 0>}`: result dim k is operand dim order[k].
    auto o = ttgirOpAttribute(op.body, "order");
    std::vector<std::size_t> order;
    if (o) {
      std::string_view t = *o;
      std::size_t colon = t.find(':');
      if (colon != std::string_view::npos)
        for (std::string_view part : splitTop(t.substr(colon + 1, t.find('>') - colon - 1)))
          if (auto v = leadingInteger(part); v && *v >= 0)
            order.push_back(static_cast<std::size_t>(*v));
    }
    const std::vector<uint64_t>& from = op.operandType.shape;
    std::size_t rank = from.size();
    if (order.size() != rank || elements(from) != x.size())
      return unknown("a tt.trans whose order cannot be read");
    std::vector<uint64_t> to(rank);
    for (std::size_t k = 0; k < rank; ++k) {
      if (order[k] >= rank)
        return unknown("a tt.trans whose order cannot be read");
      to[k] = from[order[k]];
    }
    std::vector<uint64_t> stride(rank, 1);
    for (std::size_t k = rank; k-- > 1;)
      stride[k - 1] = stride[k] * from[k];
    uint64_t count = x.size();
    charge(count);
    std::vector<int64_t> d(count);
    std::vector<uint64_t> index(rank, 0);
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t source = 0;
      for (std::size_t k = 0; k < rank; ++k)
        source += index[k] * stride[order[k]];
      d[i] = (*x.data)[source];
      nextIndex(index, to);
    }
    return known(std::move(d), to, x.base);
  }

  /// The element operations of `binary`, named once per op rather than per element (the
  /// name's comparisons were most of a launch's time).
  enum class Binary {
    AddPtr,
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    MaxS,
    MinS,
    MaxU,
    MinU,
    ShL,
    ShRU,
    ShRS,
    Cmp,
    DivU,
    RemU,
    DivS,
    RemS,
    CeilDivS,
    FloorDivS
  };

  static std::optional<Binary> binaryOf(const std::string& n) {
    static const std::map<std::string, Binary, std::less<>> kBinary = {
        {"tt.addptr", Binary::AddPtr},
        {"arith.addi", Binary::Add},
        {"arith.subi", Binary::Sub},
        {"arith.muli", Binary::Mul},
        {"arith.andi", Binary::And},
        {"arith.ori", Binary::Or},
        {"arith.xori", Binary::Xor},
        {"arith.maxsi", Binary::MaxS},
        {"arith.minsi", Binary::MinS},
        {"arith.maxui", Binary::MaxU},
        {"arith.minui", Binary::MinU},
        {"arith.shli", Binary::ShL},
        {"arith.shrui", Binary::ShRU},
        {"arith.shrsi", Binary::ShRS},
        {"arith.cmpi", Binary::Cmp},
        {"arith.divui", Binary::DivU},
        {"arith.remui", Binary::RemU},
        {"arith.divsi", Binary::DivS},
        {"arith.remsi", Binary::RemS},
        {"arith.ceildivsi", Binary::CeilDivS},
        {"arith.floordivsi", Binary::FloorDivS}};
    auto it = kBinary.find(n);
    return it == kBinary.end() ? std::nullopt : std::optional<Binary>(it->second);
  }

  static std::optional<int64_t> apply(Binary n, IntegerPredicate predicate, int64_t a, int64_t b,
                                      int bits, int64_t scale) {
    uint64_t ua = asUnsigned(a, bits), ub = asUnsigned(b, bits);
    auto u = [](uint64_t v) { return static_cast<int64_t>(v); };
    auto shift = [&](uint64_t v) {
      return ub >= static_cast<uint64_t>(bits) ? std::optional<int64_t>() : u(v);
    };
    switch (n) {
    case Binary::AddPtr:
      return u(static_cast<uint64_t>(a) + static_cast<uint64_t>(b) * static_cast<uint64_t>(scale));
    case Binary::Add:
      return u(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    case Binary::Sub:
      return u(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
    case Binary::Mul:
      return u(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    case Binary::And:
      return a & b;
    case Binary::Or:
      return a | b;
    case Binary::Xor:
      return a ^ b;
    case Binary::MaxS:
      return std::max(a, b);
    case Binary::MinS:
      return std::min(a, b);
    case Binary::MaxU:
      return u(std::max(ua, ub));
    case Binary::MinU:
      return u(std::min(ua, ub));
    case Binary::ShL:
      return shift(ub < 64 ? ua << ub : 0);
    case Binary::ShRU:
      return shift(ub < 64 ? ua >> ub : 0);
    case Binary::ShRS:
      return ub >= static_cast<uint64_t>(bits) ? std::optional<int64_t>() : a >> ub;
    case Binary::Cmp:
      return comparePredicate(predicate, a, b, ua, ub) ? 1 : 0;
    default:
      break;
    }
    // Division: undefined on the GPU for a zero divisor (and INT_MIN / -1), so unknown here.
    bool isUnsigned = n == Binary::DivU || n == Binary::RemU;
    if (isUnsigned ? ub == 0 : (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1)))
      return std::nullopt;
    int64_t q = a / b, r = a % b;
    switch (n) {
    case Binary::DivU:
      return u(ua / ub);
    case Binary::RemU:
      return u(ua % ub);
    case Binary::DivS:
      return q;
    case Binary::RemS:
      return r;
    case Binary::CeilDivS:
      return q + ((r != 0 && (r > 0) == (b > 0)) ? 1 : 0);
    case Binary::FloorDivS:
      return q - ((r != 0 && (r < 0) != (b < 0)) ? 1 : 0);
    default:
      return std::nullopt;
    }
  }

  Value binary(const ParsedOp& op, const Value& x, const Value& y) {
    const std::string& n = op.name;
    if (!y.known())
      return y;
    if (x.size() != y.size())
      return unknown(n + " of operands of different sizes");
    bool pointer = n == "tt.addptr";
    if (!pointer && (x.base >= 0 || y.base >= 0))
      return unknown(n + " of a pointer");
    int bits = pointer ? 64 : op.operandType.integerBits();
    if (bits == 0)
      return unknown(n + " of a type that is not an integer");
    int64_t scale = pointer ? std::max(1, op.operandType.pointeeBits() / 8) : 1;
    std::optional<Binary> code = binaryOf(n);
    if (!code)
      return unknown("the result of " + n);
    IntegerPredicate predicate =
        integerPredicateOf(trimmed(std::string_view(op.body).substr(0, op.body.find(','))));
    int out = pointer ? 64 : resultBits(op);
    charge(x.size());
    std::vector<int64_t> d(x.size());
    for (std::size_t i = 0; i < d.size(); ++i) {
      auto v = apply(*code, predicate, (*x.data)[i], (*y.data)[i], bits, scale);
      if (!v)
        return unknown(n + " with no defined result (a division by zero or a shift past the "
                           "width)");
      d[i] = wrap(*v, out);
    }
    return known(std::move(d), op.resultType.shape, pointer ? x.base : -1);
  }

  void access(const ParsedOp& op) {
    if (op.operandTypes.empty() || !op.operandTypes.front().isPointer())
      return;
    if (!op.operandTypes.front().isTensor()) {
      scalarAccess(op);
      return;
    }
    auto fail = [&](const std::string& why) { out_.notEvaluated.emplace(op.line, why); };
    if (predicatedOff_) {
      AccessRun off;
      off.line = op.line;
      off.shape = &op.operandTypes.front().shape;
      off.program = program_;
      visit_(off); // no byte, no lane: the instructions execute predicated off
      return;
    }
    Value p = operand(op, 0);
    bool masksOnly = false;
    if (!p.known() || p.base < 0) {
      fail("its pointers: " + (p.known() ? std::string("not from a pointer argument") : p.why));
      if (arguments_.programIdsKnown)
        return;
      masksOnly = true;
    }
    std::optional<std::size_t> maskIndex;
    const std::string& n = op.name;
    if (n == "tt.load" && op.operands.size() >= 2)
      maskIndex = 1;
    else if ((n == "tt.store" || n == "tt.atomic_rmw") && op.operands.size() >= 3)
      maskIndex = 2;
    else if (n == "ttg.async_copy_global_to_local" && op.body.find(" mask ") != std::string::npos &&
             op.operands.size() >= 3)
      maskIndex = 2;
    AccessRun r;
    r.line = op.line;
    r.shape = &op.operandTypes.front().shape;
    r.program = program_;
    uint64_t count = elements(op.operandTypes.front().shape);
    if (!masksOnly && p.size() != count) {
      fail("its pointers have another shape than its type says");
      return;
    }
    if (!masksOnly) {
      uint64_t base = pointerOffsets_.at(static_cast<std::size_t>(p.base));
      bytes_.resize(p.size());
      for (std::size_t i = 0; i < bytes_.size(); ++i)
        bytes_[i] = static_cast<int64_t>(static_cast<uint64_t>((*p.data)[i]) + base);
      r.bytes = bytes_;
    }
    if (maskIndex) {
      Value m = operand(op, *maskIndex);
      // With no program id, a mask known false in some elements: those are off, the others
      // may be on (only the compiler's deletions are asked of this evaluation).
      bool bounded =
          !m.known() && !arguments_.programIdsKnown && m.mayBeTrue && m.mayBeTrue->size() == count;
      if (!m.known() && !bounded) {
        fail("its mask: " + m.why);
        return;
      }
      if (!bounded && m.size() != 1 && m.size() != count) {
        fail("its mask has another shape than its pointers");
        return;
      }
      charge(count);
      active_.resize(static_cast<std::size_t>(count));
      for (std::size_t i = 0; i < active_.size(); ++i)
        active_[i] =
            bounded ? (*m.mayBeTrue)[i]
                    : static_cast<uint8_t>((m.size() == 1 ? m.data->front() : (*m.data)[i]) & 1);
      r.active = active_;
    }
    charge(count);
    if (!(masksOnly ? maskIndex.has_value() : !out_.notEvaluated.count(op.line)))
      return;
    auto sunk = sunkInto_.find(static_cast<int>(&op - ops_.data()));
    if (sunk == sunkInto_.end() || masksOnly) {
      visit_(r);
      return;
    }
    Pending q{sunk->first, r, {r.bytes.begin(), r.bytes.end()}, {r.active.begin(), r.active.end()}};
    pending_[sunk->second].push_back(std::move(q));
  }
};

} // namespace

Result<LaunchEvaluation> evaluateLaunch(std::string_view text, const std::string& source,
                                        const LaunchArguments& arguments,
                                        const std::function<void(const AccessRun&)>& visit,
                                        const LaunchLimits& limits) {
  for (uint64_t g : arguments.grid)
    if (g == 0)
      return makeError("a launch grid of " + std::to_string(arguments.grid[0]) + " x " +
                           std::to_string(arguments.grid[1]) + " x " +
                           std::to_string(arguments.grid[2]) + " has no program",
                       source);
  std::vector<std::string> problems;
  std::vector<ParsedOp> ops = readTtgirOps(text, source, problems);
  LaunchEvaluation out;
  Interpreter interpreter(ops, arguments, visit, limits, out);
  try {
    interpreter.run();
  } catch (const Stop& s) {
    LaunchEvaluation stopped;
    stopped.stopped = s.why;
    stopped.programs = out.programs;
    stopped.elementOps = out.elementOps;
    return stopped;
  }
  for (const std::string& p : problems)
    for (int line : out.accesses)
      out.notEvaluated.emplace(line,
                               "the module has lines the reader could not take apart (" + p + ")");
  return out;
}

} // namespace llcheck
