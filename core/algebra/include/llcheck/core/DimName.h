// Interned dimension names ("register", "lane", "dim0", ...), the counterpart of Triton's
// StringAttr: copying and comparing a name is an integer operation, which keeps the layout
// algebra allocation-free on its hot paths.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace llcheck {

class DimName {
public:
  /// The empty name (id 0). Never a valid dimension name in a layout.
  constexpr DimName() = default;
  /// Interns `name`; the same text always yields the same id. Thread-safe.
  explicit DimName(std::string_view name);
  DimName(const char* name) : DimName(std::string_view(name)) {}
  DimName(const std::string& name) : DimName(std::string_view(name)) {}

  /// The text of the name; valid for the life of the program.
  [[nodiscard]] const std::string& str() const;
  [[nodiscard]] uint32_t id() const { return id_; }
  [[nodiscard]] bool empty() const { return id_ == 0; }

  friend bool operator==(DimName a, DimName b) { return a.id_ == b.id_; }
  friend bool operator!=(DimName a, DimName b) { return a.id_ != b.id_; }
  friend std::ostream& operator<<(std::ostream& os, DimName d) { return os << d.str(); }

private:
  uint32_t id_ = 0;
};

/// Triton's standard dimension names.
namespace dims {
inline const DimName kRegister{"register"};
inline const DimName kLane{"lane"};
inline const DimName kWarp{"warp"};
inline const DimName kBlock{"block"};
inline const DimName kOffset{"offset"};
/// "dim0", "dim1", ...: the logical tensor axes.
DimName standardOut(int i);
/// dim0 .. dim<rank-1>, in order: the out dims of every encoding's layout.
std::vector<DimName> standardOuts(std::size_t rank);
} // namespace dims

} // namespace llcheck

template <> struct std::hash<llcheck::DimName> {
  size_t operator()(llcheck::DimName d) const noexcept { return std::hash<uint32_t>{}(d.id()); }
};
