// `llcheck batch`: see Batch.h.
#include "Batch.h"

#include "TritonFlag.h"
#include "llcheck/core/Formats.h"
#include "llcheck/core/Spec.h"

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

/// The SpecOptions and attribute text of one line, or what is wrong with the line.
Result<std::pair<std::string, SpecOptions>> readCase(const nlohmann::json& line,
                                                     TritonVersion triton) {
  if (!line.is_object())
    return makeError("expected a JSON object per line");
  for (const auto& [key, value] : line.items())
    if (key != "id" && key != "attr" && key != "shape" && key != "num_warps" &&
        key != "threads_per_warp" && key != "triton")
      return makeError("unknown key \"" + key.substr(0, 64) +
                       "\" (expected id, attr, shape, num_warps, threads_per_warp, triton)");
  if (!line.contains("attr") || !line["attr"].is_string())
    return makeError("\"attr\" must be the attribute text, a string");
  SpecOptions options;
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
Error checkShape(const SpecOptions& options) {
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

} // namespace

int runBatch(const std::string& path, std::ostream& out, std::string& errorMessage,
             TritonVersion triton) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) {
      errorMessage = path + ": cannot open for reading";
      return 2;
    }
    in = &file;
  }
  std::string text;
  std::size_t lineNumber = 0;
  while (std::getline(*in, text)) {
    ++lineNumber;
    const std::string where = (path == "-" ? "<stdin>" : path) + ":" + std::to_string(lineNumber);
    if (text.size() > kMaxLineBytes) {
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
    if (Error e = checkShape(item->second); !e.message.empty()) {
      answer["error"] = e.str();
    } else {
      auto loaded = loadSpec(item->first, item->second);
      if (loaded.ok())
        answer["layout"] = toJson(loaded->layout);
      else
        answer["error"] = loaded.error().str();
    }
    out << answer.dump() << "\n";
  }
  if (in->bad()) {
    errorMessage = path + ": read error";
    return 2;
  }
  out.flush();
  return 0;
}

} // namespace llcheck::cli
