// The intern table behind DimName: names live for the whole program, ids are stable.
#include "llcheck/core/DimName.h"

#include <array>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

namespace llcheck {
namespace {

struct InternTable {
  std::mutex mutex;
  std::deque<std::string> names{std::string()}; // id 0 is the empty name
  std::unordered_map<std::string_view, uint32_t> ids{{std::string_view(), 0}};
};

InternTable& table() {
  static InternTable* t = new InternTable(); // never destroyed: names outlive static dtors
  return *t;
}

} // namespace

DimName::DimName(std::string_view name) {
  InternTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.ids.find(name);
  if (it != t.ids.end()) {
    id_ = it->second;
    return;
  }
  t.names.emplace_back(name);
  id_ = static_cast<uint32_t>(t.names.size() - 1);
  t.ids.emplace(std::string_view(t.names.back()), id_);
}

const std::string& DimName::str() const {
  InternTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.names[id_]; // deque elements never move
}

DimName dims::standardOut(int i) {
  // Every encoding names its outputs dim0, dim1, ...: intern the common ones once.
  static const std::array<DimName, 16> kFirst = [] {
    std::array<DimName, 16> names;
    for (std::size_t k = 0; k < names.size(); ++k)
      names[k] = DimName("dim" + std::to_string(k));
    return names;
  }();
  if (i >= 0 && static_cast<std::size_t>(i) < kFirst.size())
    return kFirst[static_cast<std::size_t>(i)];
  return DimName("dim" + std::to_string(i));
}

std::vector<DimName> dims::standardOuts(std::size_t rank) {
  std::vector<DimName> names;
  names.reserve(rank);
  for (std::size_t d = 0; d < rank; ++d)
    names.push_back(standardOut(static_cast<int>(d)));
  return names;
}

} // namespace llcheck
