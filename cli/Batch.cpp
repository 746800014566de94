// `llcheck batch`: see Batch.h.
#include "Batch.h"

#include "TritonFlag.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

namespace llcheck::cli {

namespace {

constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

/// A non-negative count field: absent or null gives nullopt.
Result<std::optional<uint64_t>> optionalCount(const nlohmann::json& line, const char* key) {
  if (!line.contains(key) || line[key].is_null())
    return std::optional<uint64_t>{};
  const nlohmann::json& v = line[key];
  if (!v.is_number_unsigned())
    return makeError(std::string("\"") + key + "\" must be a non-negative integer or null");
  return std::optional<uint64_t>{v.get<uint64_t>()};
}

/// The LayoutContext and attribute text of one line, or what is wrong with the line.
Result<std::pair<std::string, LayoutContext>> readCase(const nlohmann::json& line,
                                                       TritonVersion triton) {
  if (!line.is_object())
    return makeError("expected a JSON object per line");
  for (const auto& [key, value] : line.items())
    if (key != "id" && key != "attr" && key != "shape" && key != "num_warps" &&
        key != "threads_per_warp" && key != "triton")
      return makeError("unknown key \"" + utf8Prefix(key, 64) +
                       "\" (expected id, attr, shape, num_warps, threads_per_warp, triton)");
  if (!line.contains("attr") || !line["attr"].is_string())
    return makeError("\"attr\" must be the attribute text, a string");
  LayoutContext options;
  options.triton = triton;
  if (line.contains("triton") && !line["triton"].is_null()) {
    if (!line["triton"].is_string())
      return makeError("\"triton\" must be a version string such as \"3.6\", or null");
    auto v = parseTritonOption(line["triton"].get<std::string>(), "\"triton\"");
    if (!v.ok())
      return v.error();
    options.triton = *v;
  }
  if (line.contains("shape") && !line["shape"].is_null()) {
    const nlohmann::json& shape = line["shape"];
    if (!shape.is_array())
      return makeError("\"shape\" must be an array of sizes or null");
    std::vector<uint64_t> sizes;
    for (const nlohmann::json& s : shape) {
      if (!s.is_number_unsigned())
        return makeError("\"shape\" entries must be non-negative integers");
      sizes.push_back(s.get<uint64_t>());
    }
    options.shape = std::move(sizes);
  }
  auto numWarps = optionalCount(line, "num_warps");
  if (!numWarps.ok())
    return numWarps.error();
  options.numWarps = *numWarps;
  auto threads = optionalCount(line, "threads_per_warp");
  if (!threads.ok())
    return threads.error();
  options.threadsPerWarp = *threads;
  return std::make_pair(line["attr"].get<std::string>(), std::move(options));
}

/// A shape entry that is not a power of two (or zero) is the attribute's problem, reported
/// like `--shape` reports it, not a broken batch line.
Error checkShape(const LayoutContext& options) {
  if (!options.shape)
    return Error{};
  for (uint64_t v : *options.shape)
    if (v == 0 || (v & (v - 1)) != 0)
      return makeError("size " + std::to_string(v) +
                           " in the shape is not a power of two (Triton requires power-of-two "
                           "shapes)",
                       "shape");
  return Error{};
}

/// Reads one line (without its '\n') into `line`, reading at most kMaxLineBytes + 1 bytes of
/// it: a line without end (/dev/zero, a binary file) is refused after 1 MiB, not read whole.
enum class LineRead { Line, End, TooLong };
LineRead readBoundedLine(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  bool any = false;
  for (;;) {
    int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return any ? LineRead::Line : LineRead::End;
    }
    any = true;
    if (c == '\n')
      return LineRead::Line;
    if (line.size() == kMaxLineBytes)
      return LineRead::TooLong;
    line.push_back(static_cast<char>(c));
  }
}

/// batch answers attribute text only: a path in "attr" would make it read (and quote in its
/// errors) whatever file the line names.
bool isAttributeText(const std::string& attr) {
  std::size_t start = attr.find_first_not_of(" \t\r\n");
  if (start == std::string::npos)
    return false;
  return attr.compare(start, 1, "#") == 0 || attr.compare(start, 5, "cute:") == 0;
}

} // namespace

int runBatch(const std::string& path, std::ostream& out, std::string& errorMessage,
             TritonVersion triton) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      errorMessage = path + ": is a folder, not a file of JSON lines";
      return 2;
    }
    file.open(path, std::ios::binary);
    if (!file) {
      errorMessage = path + ": cannot open for reading";
      return 2;
    }
    in = &file;
  }
  std::string text;
  std::size_t lineNumber = 0;
  for (LineRead r; (r = readBoundedLine(*in, text)) != LineRead::End;) {
    ++lineNumber;
    const std::string where = (path == "-" ? "<stdin>" : path) + ":" + std::to_string(lineNumber);
    if (r == LineRead::TooLong) {
      errorMessage = where + ": line is longer than 1 MiB";
      return 2;
    }
    if (text.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    auto json = parseJsonText(text, where);
    if (!json.ok()) {
      errorMessage = where + ": " + json.error().message;
      return 2;
    }
    auto item = readCase(*json, triton);
    if (!item.ok()) {
      errorMessage = item.error().within(where).str();
      return 2;
    }
    nlohmann::json answer;
    answer["id"] = json->contains("id") ? (*json)["id"] : nlohmann::json(nullptr);
    if (!isAttributeText(item->first)) {
      answer["error"] =
          "\"attr\" is not attribute text ('#ttg....') or a CuTe layout ('cute:...'); "
          "batch reads no files";
    } else if (Error e = checkShape(item->second); !e.message.empty()) {
      answer["error"] = e.str();
    } else {
      auto loaded = loadSpec(item->first, item->second);
      if (loaded.ok())
        answer["layout"] = toJson(loaded->layout);
      else
        answer["error"] = loaded.error().str();
    }
    out << dumpJson(answer) << "\n";
  }
  if (in->bad()) {
    errorMessage = path + ": read error";
    return 2;
  }
  out.flush();
  return 0;
}

} // namespace llcheck::cli
