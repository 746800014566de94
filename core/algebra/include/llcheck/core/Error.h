// The one error type of llcheck and the Result<T> that carries it. Bad input (a malformed
// file, a non-power-of-two size, an operation whose preconditions the given layouts do not
// meet) is a value the caller must look at; only the command-line driver turns it into a
// message on stderr and exit status 2.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace llcheck {

/// What a front end supplies besides the layouts themselves: the context an encoding is laid out
/// in (LayoutContext), the architecture and element type of the memory models, a coalescing
/// analysis' strides and choice of Triton's lowering. Each front end has its own names for them
/// (the command line's flags, the Python module's keyword arguments), so core's messages name
/// them through contextName, and an Error about one says which in Error::context.
enum class ContextItem : std::uint8_t {
  Shape,          ///< the tensor shape an encoding is laid over
  NumWarps,       ///< the number of warps
  ThreadsPerWarp, ///< the number of threads per warp
  Arch,           ///< the architecture whose memory model is used
  Dtype,          ///< the element type
  Strides,        ///< the strides of a tensor in global memory
  TritonLowering, ///< modelling the code Triton emits (rather than the widest access)
};

/// How messages name a context item. The messages are composed where the error arises, and some
/// are nested into others (a TTGIR module's findings), so the front end's names must be known
/// there: a front end sets them once, before its first request (the command line names its
/// flags); until then core's own names ("shape", "numWarps", ...) are used.
using ContextNames = std::string (*)(ContextItem);
void setContextNames(ContextNames names);
/// The name of `item` in messages (the front end's, or coreContextName).
[[nodiscard]] std::string contextName(ContextItem item);
/// Core's own name of `item`: the LayoutContext field, or what the item is.
[[nodiscard]] std::string coreContextName(ContextItem item);

struct Error {
  /// What is wrong, in the user's terms ("threadsPerWarp has 3 entries, shape has rank 2").
  std::string message;
  /// Where it is ("layout.json: ins[1].bases[2]", "attribute at column 31"); may be empty.
  std::string where;
  /// The context item the error is about (a missing or invalid shape, number of warps, ...),
  /// when it is about one: a front end may point at its own option for it.
  std::optional<ContextItem> context{};

  /// The one-line form printed to the user: "where: message".
  [[nodiscard]] std::string str() const { return where.empty() ? message : where + ": " + message; }
  /// The same error, located inside `outer` ("file.json" + "ins[1]" -> "file.json: ins[1]").
  [[nodiscard]] Error within(const std::string& outer) const {
    return Error{message, where.empty() ? outer : outer + ": " + where, context};
  }
};

/// Thrown by Result::value() on an error, and by the few operations documented to throw
/// (operator* on layouts). Code that has established the preconditions may use them.
class LayoutError : public std::runtime_error {
public:
  explicit LayoutError(Error e) : std::runtime_error(e.str()), error_(std::move(e)) {}
  [[nodiscard]] const Error& error() const { return error_; }

private:
  Error error_;
};

/// A value or an Error, in the spirit of std::expected (C++23).
template <class T> class [[nodiscard]] Result {
public:
  // By reference rather than by value: a LinearLayout is a large flat object, and each extra
  // move is a copy of it.
  Result(const T& value) : v_(std::in_place_index<0>, value) {}
  Result(T&& value) : v_(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

  [[nodiscard]] bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value; throws LayoutError if this holds an error.
  T& value() & {
    if (!ok())
      throw LayoutError(error());
    return std::get<0>(v_);
  }
  const T& value() const& {
    if (!ok())
      throw LayoutError(error());
    return std::get<0>(v_);
  }
  T&& value() && {
    if (!ok())
      throw LayoutError(error());
    return std::get<0>(std::move(v_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  [[nodiscard]] const Error& error() const { return std::get<1>(v_); }

private:
  std::variant<T, Error> v_;
};

/// At most `maxBytes` bytes of `s` for quoting in a message, cut before a UTF-8 character
/// rather than through one (a quoted 'é' must not become half a character).
[[nodiscard]] inline std::string utf8Prefix(std::string_view s, std::size_t maxBytes) {
  if (s.size() <= maxBytes)
    return std::string(s);
  std::size_t n = maxBytes;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80)
    --n;
  return std::string(s.substr(0, n));
}

/// The whole UTF-8 character that starts at s[pos], for quoting it (a lone byte where s[pos]
/// starts no character).
[[nodiscard]] inline std::string utf8CharAt(std::string_view s, std::size_t pos) {
  auto lead = static_cast<unsigned char>(s[pos]);
  std::size_t n = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  std::size_t len = 1;
  while (len < n && pos + len < s.size() &&
         (static_cast<unsigned char>(s[pos + len]) & 0xC0) == 0x80)
    ++len;
  return std::string(s.substr(pos, len));
}

inline Error makeError(std::string message, std::string where = {}) {
  return Error{std::move(message), std::move(where)};
}

/// An Error about a context item; `message` names it through contextName.
inline Error contextError(ContextItem item, std::string message, std::string where = {}) {
  return Error{std::move(message), std::move(where), item};
}

} // namespace llcheck
