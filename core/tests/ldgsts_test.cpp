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

} // namespace
} // namespace llcheck
