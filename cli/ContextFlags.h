// The command line's names for the context items that core's messages mention (ContextItem in
// llcheck/core/Error.h): its flags. main() sets them before any command runs, so that a message
// about a missing shape says "pass --shape".
#pragma once

#include "llcheck/core/Error.h"

#include <string>

namespace llcheck::cli {

inline std::string contextFlag(ContextItem item) {
  switch (item) {
  case ContextItem::Shape:
    return "--shape";
  case ContextItem::NumWarps:
    return "--num-warps";
  case ContextItem::ThreadsPerWarp:
    return "--threads-per-warp";
  case ContextItem::Arch:
    return "--arch";
  case ContextItem::Dtype:
    return "--dtype";
  case ContextItem::Strides:
    return "--strides";
  case ContextItem::TritonLowering:
    return "--lowering triton";
  }
  return coreContextName(item);
}

} // namespace llcheck::cli
