// The names of context items in messages (see ContextItem in Error.h).
#include "llcheck/core/Error.h"

#include <atomic>

namespace llcheck {

namespace {

/// Set once by a front end before its first request; atomic so that reading it from the worker
/// threads of a report is well-defined.
std::atomic<ContextNames> gNames{nullptr};

} // namespace

void setContextNames(ContextNames names) {
  gNames.store(names);
}

std::string contextName(ContextItem item) {
  ContextNames names = gNames.load();
  return names != nullptr ? names(item) : coreContextName(item);
}

std::string coreContextName(ContextItem item) {
  switch (item) {
  case ContextItem::Shape:
    return "shape";
  case ContextItem::NumWarps:
    return "numWarps";
  case ContextItem::ThreadsPerWarp:
    return "threadsPerWarp";
  case ContextItem::Arch:
    return "arch";
  case ContextItem::Dtype:
    return "dtype";
  case ContextItem::Strides:
    return "strides";
  case ContextItem::TritonLowering:
    return "Triton's lowering";
  }
  return "?";
}

} // namespace llcheck
