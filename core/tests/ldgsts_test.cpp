// The LDGSTS (cp.async) wavefront rules of TritonLowering.h against the H200's own counts:
// every one-warp copy of gpu_oracle/ldgsts_rule/measured.json (ncu's per-instruction LDGSTS
// shared wavefronts, 1,230 launches of cp.async.ca 4/8/16 bytes and cp.async.cg 16 bytes, with
// the source in L1 or not), and the matmul A tile of issue 32 read from rows one line apart.
#include "llcheck/core/conversion/TritonLowering.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace llcheck {
namespace {

TEST(Ldgsts, EveryMeasuredCopyOfTheH200) {
  std::ifstream in(std::string(LLCHECK_SOURCE_DIR) + "/gpu_oracle/ldgsts_rule/measured.json");
  ASSERT_TRUE(in) << "gpu_oracle/ldgsts_rule/measured.json is missing";
  nlohmann::json data = nlohmann::json::parse(in);
  ASSERT_GE(data.at("patterns").size(), 1000u);
  std::size_t checked = 0;
  for (const auto& p : data.at("patterns")) {
    std::string op = p.at("op");
    bool bypass = op.rfind("cg", 0) == 0;
    auto g = p.at("g").get<std::vector<uint64_t>>();
    auto s = p.at("s").get<std::vector<uint64_t>>();
    EXPECT_EQ(ldgstsWavefronts(g, s, p.at("bytes").get<int>(), bypass),
              p.at("wavefronts").get<uint64_t>())
        << p.at("id").get<std::string>() << " (" << op << ")";
    ++checked;
  }
  EXPECT_EQ(checked, data.at("patterns").size());
}

TEST(Ldgsts, TheMatmulTileDependsOnTheRowStride) {
  // 8 rows of 64 bytes (32 halves), 4 lanes a row, 16 bytes a lane, shared contiguous.
  auto copy = [](uint64_t rowStride, bool bypass) {
    std::vector<uint64_t> g, s;
    for (uint64_t lane = 0; lane < 32; ++lane) {
      g.push_back(lane / 4 * rowStride + lane % 4 * 16);
      s.push_back(lane * 16);
    }
    return ldgstsWavefronts(g, s, 16, bypass);
  };
  for (bool bypass : {false, true}) {
    EXPECT_EQ(copy(64, bypass), 4u);   // K = BK: the tile is contiguous, 4 lines
    EXPECT_EQ(copy(128, bypass), 8u);  // K = 2 BK: every row a line of its own
    EXPECT_EQ(copy(4096, bypass), 8u); // K >= 4 BK
  }
}

TEST(Ldgsts, ALaneThatCopiesNothingConflictsThroughItsDestinationAlone) {
  // 4-byte cp.async.ca, one phase of 32 lanes: lane t reads word t of a contiguous row and
  // writes word (t + 1) mod 32 of a shared row: 1 wavefront. With lane 0 masked off (no global
  // side: kLdgstsNoSource plus its destination, byte 4) it still writes word 1, which no other
  // lane writes: still 1 wavefront. Read as a global address too, its destination's unit would
  // meet lane 1's source, word 1, and make 2.
  std::vector<uint64_t> g, s;
  for (uint64_t t = 0; t < 32; ++t) {
    g.push_back(t * 4);
    s.push_back((t + 1) % 32 * 4);
  }
  EXPECT_EQ(ldgstsWavefronts(g, s, 4, false), 1u);
  g[0] = kLdgstsNoSource + s[0];
  EXPECT_EQ(ldgstsWavefronts(g, s, 4, false), 1u);
  // Every lane masked off: the destination's wavefronts, the st.shared rule's (all 32 lanes
  // in one bank: 32).
  for (uint64_t t = 0; t < 32; ++t) {
    s[t] = t * 128;
    g[t] = kLdgstsNoSource + s[t];
  }
  EXPECT_EQ(ldgstsWavefronts(g, s, 4, false), 32u);
}

} // namespace
} // namespace llcheck
