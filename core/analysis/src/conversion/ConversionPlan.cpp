// planConversion: the kind of data movement a layout conversion needs (see ConversionPlan.h).
#include "llcheck/core/conversion/ConversionPlan.h"
#include "Columns.h"

#include "llcheck/core/Encodings.h"
#include "llcheck/core/Subspace.h"

namespace llcheck {

using conversion::columnsOf;

const char* conversionKindName(ConversionKind kind) {
  switch (kind) {
  case ConversionKind::NoOp:
    return "no_op";
  case ConversionKind::RegisterPermutation:
    return "register_permutation";
  case ConversionKind::WarpShuffle:
    return "warp_shuffle";
  case ConversionKind::SharedMemory:
    return "shared_memory";
  case ConversionKind::InterCta:
    return "inter_cta";
  }
  return "no_op";
}

namespace {

std::string sizes(const LinearLayout& l) {
  std::string s;
  for (const Dim& d : l.outDims())
    s += (s.empty() ? "" : ", ") + d.name.str() + ":" + std::to_string(uint64_t{1} << d.sizeLog2);
  return "[" + s + "]";
}

/// Can every DST location read its element from a SRC location that agrees with it on the
/// dims from `fixed` on (register, lane, warp, block order)? With S the span of SRC's columns
/// of the free dims (those before `fixed`): DST's free columns must lie in S, and each fixed
/// column of DST must differ from SRC's same column by an element of S (linearity makes these
/// checks on the columns enough for every location).
bool readsWithin(const LinearLayout& src, const LinearLayout& dst, int fixed) {
  const DimName order[] = {dims::kRegister, dims::kLane, dims::kWarp, dims::kBlock};
  Subspace free;
  for (int k = 0; k < fixed; ++k)
    for (uint64_t c : columnsOf(src, order[k]))
      free.insert(c);
  for (int k = 0; k < 4; ++k) {
    std::vector<uint64_t> d = columnsOf(dst, order[k]), s = columnsOf(src, order[k]);
    for (std::size_t i = 0; i < d.size(); ++i)
      if (!free.contains(k < fixed ? d[i] : d[i] ^ s[i]))
        return false;
  }
  return true;
}

} // namespace

Result<ConversionPlan> planConversion(const LinearLayout& srcIn, const LinearLayout& dstIn,
                                      TritonVersion triton) {
  for (const auto& [l, name] : {std::pair{&srcIn, "SRC"}, std::pair{&dstIn, "DST"}})
    if (l->hasInDim(dims::kOffset))
      return makeError("a shared-memory layout (input 'offset'); a conversion is between "
                       "distributed layouts (for registers to/from shared memory use "
                       "bank-conflicts)",
                       name);
  auto src = withDistributedInDims(srcIn);
  if (!src.ok())
    return src.error().within("SRC");
  auto dst = withDistributedInDims(dstIn);
  if (!dst.ok())
    return dst.error().within("DST");
  bool sameTensor = src->getNumOutDims() == dst->getNumOutDims();
  for (const Dim& d : src->outDims())
    sameTensor =
        sameTensor && dst->hasOutDim(d.name) && dst->getOutDimSizeLog2(d.name) == d.sizeLog2;
  if (!sameTensor)
    return makeError("SRC is laid over " + sizes(*src) + " but DST over " + sizes(*dst) +
                     ": a conversion keeps the tensor");
  for (DimName d : {dims::kLane, dims::kWarp, dims::kBlock})
    if (src->getInDimSize(d) != dst->getInDimSize(d))
      return makeError("SRC has " + std::to_string(src->getInDimSize(d)) + " " + d.str() +
                       "s and DST " + std::to_string(dst->getInDimSize(d)) +
                       ": both must run on the same hardware");
  auto dstOrdered = dst->transposeOuts(src->getOutDimNames());
  if (!dstOrdered.ok())
    return dstOrdered.error();
  auto c = src->invertAndCompose(*dstOrdered, triton);
  if (!c.ok())
    return c.error().within("DST");
  ConversionPlan plan;
  plan.src = *src;
  plan.dst = *dstOrdered;
  plan.conversion = *c;
  if (!readsWithin(*src, *dstOrdered, 3))
    plan.kind = ConversionKind::InterCta;
  else if (!readsWithin(*src, *dstOrdered, 2))
    plan.kind = ConversionKind::SharedMemory;
  else if (!readsWithin(*src, *dstOrdered, 1))
    plan.kind = ConversionKind::WarpShuffle;
  else if (*src == *dstOrdered)
    plan.kind = ConversionKind::NoOp;
  else
    plan.kind = ConversionKind::RegisterPermutation;
  return plan;
}

} // namespace llcheck
