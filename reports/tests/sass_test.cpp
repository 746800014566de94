// Reading SASS listings (Sass.h): the EXIT a warp can take and the shared loads behind it.
#include "llcheck/reports/Sass.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

namespace llcheck::reports {
namespace {

// The shape of `cuobjdump -sass` output (ptxas 12.x, sm_90), shortened.
constexpr const char* kListing = R"(
	code for sm_90
		Function : local_kernel
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                      /* 0x00000a00ff017b82 */
                                                                               /* 0x000fe40000000800 */
        /*0010*/                   S2R R0, SR_TID.X ;
        /*0020*/                   STS.128 [R2], R4 ;
        /*0030*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0040*/                   LDS.128 R8, [R3] ;
        /*0050*/              @!PT LDS RZ, [RZ] ;
        /*0060*/                   LDSM.16.M88.4 R12, [R3+0x200] ;
        /*0070*/               @P0 EXIT ;
        /*0080*/                   LDS.128 R16, [R3+0x400] ;
        /*0090*/                   LDS.128 R20, [R3+0x600] ;
        /*00a0*/                   STG.E.128 desc[UR4][R6.64], R16 ;
        /*00b0*/                   EXIT ;
        /*00c0*/                   BRA 0xc0;
        ..........
)";

TEST(Sass, countsLoadsAfterThePredicatedExit) {
  auto f = parseSass(kListing, "k.sass");
  ASSERT_TRUE(f.ok()) << f.error().str();
  ASSERT_EQ(f->size(), 1u);
  const SassFunction& k = f->front();
  EXPECT_EQ(k.name, "local_kernel");
  EXPECT_EQ(k.lds, 3u); // the @!PT one is never executed
  EXPECT_EQ(k.ldsm, 1u);
  EXPECT_EQ(k.predicatedExit, "@P0 EXIT");
  EXPECT_EQ(k.exitAddress, 0x70u);
  EXPECT_EQ(k.ldsAfterExit, 2u);
  EXPECT_EQ(k.ldsmAfterExit, 0u);
  EXPECT_EQ(k.stg, 1u);
  EXPECT_EQ(k.stgAfterExit, 1u);
  EXPECT_TRUE(k.straightLine) << k.notStraightLine; // the trailing BRA never runs
}

TEST(Sass, aBranchBeforeTheEndIsNotStraightLine) {
  std::string text = kListing;
  text.replace(text.find("S2R R0, SR_TID.X"), 16, "BRA 0x80        ");
  auto f = parseSass(text, "k.sass");
  ASSERT_TRUE(f.ok());
  EXPECT_FALSE(f->front().straightLine);
  EXPECT_EQ(f->front().notStraightLine, "BRA at 0x10");
}

TEST(Sass, branchesThatStayBeforeTheExitDoNotMatter) {
  // A loop, or ptxas's branch around loads some warps skip (BSSY ... BSYNC), before the EXIT:
  // the code from the EXIT on still runs once, in order (Inductor's looped reductions).
  std::string text = kListing;
  text.replace(text.find("S2R R0, SR_TID.X"), 16, "@P1 BRA 0x40    ");
  text.replace(text.find("BAR.SYNC.DEFER_BLOCKING 0x0"), 27, "BSSY B0, 0x60              ");
  text.replace(text.find("@!PT LDS RZ, [RZ]"), 17, "BSYNC B0         ");
  auto f = parseSass(text, "k.sass");
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_TRUE(f->front().straightLine) << f->front().notStraightLine;
  EXPECT_EQ(f->front().ldsAfterExit, 2u);
  // One that lands past the EXIT, or a branch after it, does.
  std::string past = kListing;
  past.replace(past.find("S2R R0, SR_TID.X"), 16, "@P1 BRA 0x90    ");
  auto g = parseSass(past, "k.sass");
  ASSERT_TRUE(g.ok());
  EXPECT_FALSE(g->front().straightLine);
  std::string after = kListing;
  after.replace(after.find("LDS.128 R20, [R3+0x600]"), 23, "@P1 BRA 0x80           ");
  auto h = parseSass(after, "k.sass");
  ASSERT_TRUE(h.ok());
  EXPECT_FALSE(h->front().straightLine);
}

TEST(Sass, aBreakLeavesForItsRegionsEnd) {
  // A BREAK sends its threads to the end of the region its barrier's BSSY opened: where that
  // end is before the EXIT, the code from the EXIT on still runs once (FlagGems' cumsum: a
  // BREAK in its scan, then the scalar store's EXIT and LDS). One whose region ends past the
  // EXIT does not.
  std::string text = kListing;
  text.replace(text.find("S2R R0, SR_TID.X"), 16, "BSSY B1, 0x50   ");
  text.replace(text.find("BAR.SYNC.DEFER_BLOCKING 0x0"), 27, "@P1 BREAK B1               ");
  text.replace(text.find("@!PT LDS RZ, [RZ]"), 17, "BSYNC B1         ");
  auto f = parseSass(text, "k.sass");
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_TRUE(f->front().straightLine) << f->front().notStraightLine;
  EXPECT_EQ(f->front().ldsAfterExit, 2u);
  std::string past = text;
  past.replace(past.find("BSSY B1, 0x50"), 13, "BSSY B1, 0x90");
  auto g = parseSass(past, "k.sass");
  ASSERT_TRUE(g.ok());
  EXPECT_FALSE(g->front().straightLine);
  EXPECT_EQ(g->front().notStraightLine, "BSSY at 0x10"); // its region ends past the EXIT
}

TEST(Sass, countsGlobalLoadsByWidthAndThoseBranchedAround) {
  // An unpredicated LDG behind a predicated forward BRA is skipped by a warp that jumps
  // (Inductor's padded view); a predicated one is executed by every warp; BAR.SYNC's 0x0 is
  // no branch target, so the listing has no loop.
  std::string text = kListing;
  text.replace(text.find("S2R R0, SR_TID.X"), 16, "@P1 BRA 0x30    ");
  text.replace(text.find("STS.128 [R2], R4"), 16, "LDG.E R4, [R2]  ");
  text.replace(text.find("LDS.128 R8, [R3]"), 16, "@P2 LDG.E.U16 R8");
  auto f = parseSass(text, "k.sass");
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_EQ(f->front().ldgByBits, (std::map<unsigned, uint64_t>{{16, 1}, {32, 1}}));
  EXPECT_EQ(f->front().ldgBranchedAround, (std::map<unsigned, uint64_t>{{32, 1}}));
  EXPECT_FALSE(f->front().branchesBack);
  std::string loop = kListing;
  loop.replace(loop.find("LDS.128 R16, [R3+0x400]"), 23, "@P1 BRA 0x20           ");
  auto g = parseSass(loop, "k.sass");
  ASSERT_TRUE(g.ok());
  EXPECT_TRUE(g->front().branchesBack);
}

TEST(Sass, noPredicatedExit) {
  std::string text = kListing;
  text.replace(text.find("@P0 EXIT"), 8, "    NOP ");
  auto f = parseSass(text, "k.sass");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->front().predicatedExit, "");
  EXPECT_EQ(f->front().ldsAfterExit, 0u);
  EXPECT_EQ(f->front().lds, 3u);
}

TEST(Sass, somethingElseIsAnError) {
  auto ttgir = parseSass("module attributes {\"ttg.num-warps\" = 4 : i32} {\n}\n", "x.sass");
  ASSERT_FALSE(ttgir.ok());
  EXPECT_NE(ttgir.error().str().find("x.sass: no SASS function"), std::string::npos);
  auto headless = parseSass("        /*0000*/  EXIT ;\n", "y.sass");
  ASSERT_FALSE(headless.ok());
  EXPECT_NE(headless.error().str().find("line 1"), std::string::npos);
}

TEST(Sass, besideTheTtgir) {
  auto dir = std::filesystem::temp_directory_path() / "llcheck-sass-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  EXPECT_FALSE(sassBeside((dir / "k.ttgir").string(), "").has_value());
  { std::ofstream(dir / "k.sass") << kListing; }
  auto s = sassBeside((dir / "k.ttgir").string(), "");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->error, "");
  EXPECT_EQ(s->functions.size(), 1u);
  // A cubin without a cuobjdump to read it: said, not guessed.
  { std::ofstream(dir / "c.cubin") << "not a cubin"; }
  auto c = sassBeside((dir / "c.ttgir").string(), "");
  ASSERT_TRUE(c.has_value());
  EXPECT_NE(c->error.find("no cuobjdump"), std::string::npos);
  // A cuobjdump that fails on it.
  auto bad = sassBeside((dir / "c.ttgir").string(), "/bin/false");
  ASSERT_TRUE(bad.has_value());
  EXPECT_NE(bad->error.find("failed"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Sass, countsTheLoadsPtxasBranchesAround) {
  // Triton 3.6's reduce combining loads as ptxas left them in tile_argmax_a1_4x2048_w8_fp32
  // (gpu_oracle/reduce_scratch): unpredicated LDS after a predicated forward BRA; a predicated
  // LDS there, or loads inside a skipped loop, are not such.
  constexpr const char* listing = R"(
		Function : k
        /*0000*/                   BSSY B0, 0x60 ;
        /*0010*/               @P0 BRA 0x50 ;
        /*0020*/                   LDS R3, [R4] ;
        /*0030*/              @!P1 LDS R6, [R4+0x40] ;
        /*0040*/                   LDS R5, [R4+0x80] ;
        /*0050*/                   BSYNC B0 ;
        /*0060*/               @P2 BRA 0xa0 ;
        /*0070*/                   LDS R7, [R8] ;
        /*0080*/               @P3 BRA 0x70 ;
        /*0090*/                   LDS R9, [R8+0x10] ;
        /*00a0*/                   LDS R10, [UR4] ;
        /*00b0*/                   EXIT ;
        /*00c0*/                   BRA 0xc0;
)";
  auto f = parseSass(listing, "k.sass");
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_EQ(f->front().lds, 6u);
  EXPECT_EQ(f->front().ldsBranchedAround, 2u);
}

/// "e32 x128": each store outside the loops (or those inside) as its warps and width.
std::string storesOf(const SassFunction& f, bool insideLoops = false) {
  std::string out;
  for (const SassStore& s : insideLoops ? f.storesInsideLoops : f.storesOutsideLoops)
    out += (out.empty() ? "" : " ") + std::string(1, s.executedBy) + std::to_string(s.bits);
  return out;
}

TEST(Sass, readsTheStoresOutsideLoops) {
  // Liger-Kernel's cross entropy under Triton 3.6 and 3.9, shortened: an early return with its
  // own predicated EXIT (a path the main one jumps past), a loop, then two scalar stores: one
  // predicated in every warp, one after `@P0 EXIT`. The loop's own STG is not among them.
  constexpr const char* crossEntropy = R"(
		Function : ce
        /*0000*/               @P0 BRA 0x40 ;
        /*0010*/              @!P0 EXIT ;
        /*0020*/                   STG.E.128 desc[UR4][R2.64], RZ ;
        /*0030*/                   EXIT ;
        /*0040*/              @!P0 BRA 0x80 ;
        /*0050*/                   LDG.E.128 R4, desc[UR4][R2.64] ;
        /*0060*/              @!P4 STG.E.128 desc[UR4][R14.64], R4 ;
        /*0070*/              @!P0 BRA 0x50 ;
        /*0080*/              @!P0 STG.E desc[UR4][R2.64], R5 ;
        /*0090*/               @P0 EXIT ;
        /*00a0*/                   STG.E desc[UR4][R2.64], R9 ;
        /*00b0*/                   EXIT ;
        /*00c0*/                   BRA 0xc0;
)";
  auto f = parseSass(crossEntropy, "ce.sass");
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_FALSE(f->front().straightLine);
  EXPECT_EQ(f->front().storesNotReadable, "");
  EXPECT_EQ(storesOf(f->front()), "x128 e32 x32");
  EXPECT_EQ(storesOf(f->front(), true), "e128");
  EXPECT_EQ(f->front().lastPredicatedExit.value_or(0), 0x90u);
  // Triton 3.9's Liger layer norm: the mean and rstd stores branched around (BSSY ... BSYNC),
  // then the row's two stores around the store mask's EXIT.
  constexpr const char* layerNorm = R"(
		Function : ln
        /*0000*/                   BSSY B0, 0x40 ;
        /*0010*/               @P4 BRA 0x40 ;
        /*0020*/                   STG.E desc[UR6][R10.64], R0 ;
        /*0030*/                   STG.E.U16 desc[UR6][R28.64], R3 ;
        /*0040*/                   BSYNC B0 ;
        /*0050*/              @!P0 STG.E.128 desc[UR6][R30.64], R20 ;
        /*0060*/               @P1 EXIT ;
        /*0070*/                   STG.E.64 desc[UR6][R30.64+0x800], R4 ;
        /*0080*/                   EXIT ;
        /*0090*/                   BRA 0x90;
)";
  auto g = parseSass(layerNorm, "ln.sass");
  ASSERT_TRUE(g.ok()) << g.error().str();
  EXPECT_EQ(storesOf(g->front()), "b32 b16 e128 x64");
  // A jump landing between an EXIT and a store: a path that does not pass the EXIT.
  std::string into = crossEntropy;
  into.replace(into.find("@!P0 BRA 0x80"), 13, "@!P0 BRA 0xa0");
  auto h = parseSass(into, "ce.sass");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(storesOf(h->front()), "x128 e32 e32");
  // An indirect branch: not followed.
  std::string indirect = layerNorm;
  indirect.replace(indirect.find("@P4 BRA 0x40"), 12, "    BRX R4  ");
  auto j = parseSass(indirect, "ln.sass");
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(j->front().storesNotReadable,
            "BRX at 0x10: control flow the SASS reading does not follow");
  EXPECT_TRUE(j->front().storesOutsideLoops.empty());
  // Addresses that go back (fuzz_sass found one): not a listing whose jumps can be followed.
  std::string back = layerNorm;
  back.replace(back.find("/*0050*/"), 8, "/*0005*/");
  auto k = parseSass(back, "ln.sass");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->front().storesNotReadable,
            "STG.E.128 at 0x5: an address before the previous instruction's");
  EXPECT_TRUE(k->front().storesOutsideLoops.empty());
  // A predicated EXIT as the first instruction (fuzz_sass, in CI): it is there, at 0x0.
  auto first = parseSass(R"(
		Function : k
        /*0000*/               @P0 EXIT ;
        /*0010*/                   STG.E [R2], R4 ;
        /*0020*/                   EXIT ;
)",
                         "k.sass");
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(storesOf(first->front()), "x32");
  ASSERT_TRUE(first->front().lastPredicatedExit.has_value());
  EXPECT_EQ(*first->front().lastPredicatedExit, 0u);
}

TEST(Sass, readsTheStoresInsideLoops) {
  // FlagGems' topk under Triton 3.6, shortened: the loop's scalar stores are predicated (every
  // warp executes them); a third, made up, is inside a forward branch in the loop; a store
  // after the loop is not among them.
  constexpr const char* topk = R"(
		Function : topk
        /*0000*/              @!P0 EXIT ;
        /*0010*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0020*/               @P4 STG.E desc[UR16][R14.64], R29 ;
        /*0030*/               @P3 BRA 0x50 ;
        /*0040*/                   STG.E desc[UR16][R14.64], R30 ;
        /*0050*/               @P4 STG.E.64 desc[UR16][R2.64], R12 ;
        /*0060*/               @P1 BRA 0x10 ;
        /*0070*/                   STG.E desc[UR16][R4.64], R12 ;
        /*0080*/                   EXIT ;
        /*0090*/                   BRA 0x90;
)";
  auto f = parseSass(topk, "topk.sass");
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_EQ(storesOf(f->front(), true), "e32 b32 e64");
  EXPECT_EQ(storesOf(f->front()), "e32"); // the loop's jumps land after the EXIT
}

TEST(Sass, anExitBeforeEveryAccessIsTheKernelsEarlyReturn) {
  // fla's rotary embedding under Triton 3.6 (sm90), shortened: `if i_t * BT >= T: return`
  // first, then the two halves' stores around the EXIT of the warps that hold only copies.
  constexpr const char* rotary = R"(
		Function : rotary_embedding_kernel
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0070*/               @P0 EXIT ;
        /*0080*/                   LDG.E.U16 R4, desc[UR10][R6.64] ;
        /*04b0*/               @P0 STG.E.U16 desc[UR10][R2.64], R0 ;
        /*04c0*/              @!P0 EXIT ;
        /*04e0*/                   STG.E.U16 desc[UR10][R2.64+0x80], R0 ;
        /*04f0*/                   EXIT ;
        /*0500*/                   BRA 0x500;
)";
  // Read as a kernel without an early return, the first EXIT is the copies' and both stores
  // come after it; with one (two tt.return in its TTGIR), only the second.
  auto plain = parseSass(rotary, "rotary.sass");
  ASSERT_TRUE(plain.ok()) << plain.error().str();
  EXPECT_EQ(storesOf(plain->front()), "x16 x16");
  EXPECT_EQ(plain->front().exitAddress, 0x70u);
  auto early = parseSass(rotary, "rotary.sass", /*returnsEarly=*/true);
  ASSERT_TRUE(early.ok());
  EXPECT_EQ(early->front().firstMemoryAccess, 0x80u);
  EXPECT_EQ(storesOf(early->front()), "e16 x16");
  EXPECT_EQ(early->front().exitAddress, 0x4c0u);
}

TEST(Sass, readsTheLoadsBeforeTheFirstLoop) {
  // fla's RMS norm backward under 3.6 (sunk: the weights' LDG after the loop's zero-trip test,
  // a predicated BRA past the loop) and its layer norm (the weights' LDGs before any branch).
  constexpr const char* sunk = R"(
		Function : layer_norm_bwd_kernel_row
        /*01e0*/              @!P0 BRA 0xc90 ;
        /*01f0*/                   LDG.E.128 R12, desc[UR14][R12.64] ;
        /*04f0*/                   LDG.E.128 R12, desc[UR14][R30.64] ;
        /*0c80*/              @!P4 BRA 0x4f0 ;
        /*0c90*/                   STG.E.128 desc[UR14][R2.64], R24 ;
        /*0e00*/                   EXIT ;
        /*0e10*/                   BRA 0xe10;
)";
  auto f = parseSass(sunk, "rms.sass");
  ASSERT_TRUE(f.ok()) << f.error().str();
  ASSERT_EQ(f->front().loadsBeforeLoops.size(), 1u); // the second LDG is the loop's head
  EXPECT_EQ(f->front().loadsBeforeLoops[0].address, 0x1f0u);
  EXPECT_EQ(f->front().loadsBeforeLoops[0].bits, 128u);
  EXPECT_TRUE(f->front().loadsBeforeLoops[0].underLoopGuard);
  constexpr const char* before = R"(
		Function : layer_norm_bwd_kernel_row
        /*0160*/                   LDG.E.128 R104, desc[UR6][R2.64] ;
        /*01f0*/               @P0 BRA 0x420 ;
        /*0200*/                   LDG.E.64 R4, desc[UR6][R2.64+0x400] ;
        /*0410*/                   BRA 0xc90 ;
        /*0420*/                   LDG.E.128 R68, desc[UR6][R156.64] ;
        /*0c80*/              @!P4 BRA 0x420 ;
        /*0c90*/                   EXIT ;
        /*0ca0*/                   BRA 0xca0;
)";
  auto g = parseSass(before, "ln.sass");
  ASSERT_TRUE(g.ok()) << g.error().str();
  ASSERT_EQ(g->front().loadsBeforeLoops.size(), 2u);
  EXPECT_FALSE(g->front().loadsBeforeLoops[0].underLoopGuard);
  // Inside a forward jump, but one that only skips loads, not the loop: not its guard.
  EXPECT_FALSE(g->front().loadsBeforeLoops[1].underLoopGuard);
  EXPECT_EQ(g->front().loadsBeforeLoops[1].bits, 64u);
}

TEST(Sass, readsWhichWarpsExecuteEachCopy) {
  // Triton 3.9's fla chunk_gla_bwd_kernel_dv, shortened: the gate vector's 4-byte copy before
  // the loop is predicated in every warp; in the loop ptxas branches around it (BSSY, @P4 BRA),
  // so the warps holding only copies skip it (the H200: 128 and 64 executions of 32 CTAs of 4
  // warps, 2 trips).
  constexpr const char* dv = R"(
		Function : chunk_gla_bwd_kernel_dv
        /*cb10*/              @!P4 LDGSTS.E [R107+0x6000], desc[UR20][R2.64+-0x400] ;
        /*cb20*/                   LDGSTS.E.BYPASS.128 [R9], desc[UR20][R4.64] ;
        /*cbc0*/                   BSSY B0, 0xd7b0 ;
        /*d740*/               @P4 BRA 0xd7a0 ;
        /*d790*/                   LDGSTS.E [R107+0x6000], desc[UR20][R82.64+-0x400], P5 ;
        /*d7a0*/                   BSYNC B0 ;
        /*d7f0*/               @P5 BRA 0xcbc0 ;
        /*dd30*/                   EXIT ;
        /*dd40*/                   BRA 0xdd40;
)";
  auto f = parseSass(dv, "dv.sass");
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_TRUE(f->front().branchesForward); // BSSY and `@P4 BRA 0xd7a0`
  // HGRN's backward: its loop's only branch goes back, so its scf.if was if-converted.
  constexpr const char* hgrn = R"(
		Function : fused_recurrent_hgrn_bwd_kernel
        /*0040*/              @!P0 EXIT ;
        /*0370*/                   LDG.E.U16 R18, desc[UR4][R18.64] ;
        /*0430*/              @!P1 LDG.E.U16 R16, desc[UR4][R16.64] ;
        /*0600*/              @!P1 EXIT ;
        /*0630*/                   BRA 0x370 ;
        /*0640*/                   BRA 0x640;
)";
  auto h = parseSass(hgrn, "hgrn.sass");
  ASSERT_TRUE(h.ok());
  EXPECT_FALSE(h->front().branchesForward);
  std::string seen;
  for (const SassCopy& c : f->front().copies)
    seen += (seen.empty() ? "" : " ") + std::string(1, c.executedBy) + std::to_string(c.bits) +
            (c.bypass ? "cg" : "ca") + (c.inLoop ? "-loop" : "");
  EXPECT_EQ(seen, "e32ca e128cg b32ca-loop");
}

TEST(Sass, readsEachCopysDestinationAndZeroFillPredicate) {
  // The forms of the real-kernels corpus: a register and an offset (negative too), a register
  // alone, a negated predicate, none (an unmasked copy of Triton 3.9).
  constexpr const char* sass = R"(
		Function : k
        /*1010*/                   LDGSTS.E.BYPASS.128 [R9+0x8000], desc[UR16][R90.64], P2 ;
        /*1040*/                   LDGSTS.E.BYPASS.128 [R9], desc[UR16][R88.64], !PT ;
        /*1050*/                   LDGSTS.E [R22+-0x10], desc[UR18][R2.64+-0x300], !P0 ;
        /*1060*/                   LDGSTS.E.BYPASS.128 [R101+0x2000], desc[UR22][R56.64] ;
        /*1070*/                   LDGSTS.E.64 [UR4], desc[UR22][R56.64], P0 ;
        /*1080*/                   EXIT ;
        /*1090*/                   BRA 0x1090;
)";
  auto f = parseSass(sass, "k.sass");
  ASSERT_TRUE(f.ok()) << f.error().str();
  std::string seen;
  for (const SassCopy& c : f->front().copies)
    seen += (seen.empty() ? "" : " ") + c.sharedBase + "/" + std::to_string(c.sharedOffset) + "/" +
            c.zeroFill;
  EXPECT_EQ(seen, "R9/32768/P2 R9/0/!PT R22/-16/!P0 R101/8192/ /0/P0");
  // A destination with no ']' (fuzz_sass): read as no destination, not a thrown out_of_range.
  auto open = parseSass("Function : k\n        /*0360*/ LDGSTS [R2STG\n", "k.sass");
  ASSERT_TRUE(open.ok()) << open.error().str();
  ASSERT_EQ(open->front().copies.size(), 1u);
  EXPECT_EQ(open->front().copies.front().sharedBase, "");
}

} // namespace
} // namespace llcheck::reports
