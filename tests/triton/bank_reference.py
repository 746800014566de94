"""Independent Python re-derivations for test_bank_conflicts.py, computed from Triton's own
linear layouts of a bank_grid case (rec["reg_ll"], rec["shared_ll"]):

- offsets(rec): REG's register, lane and warp columns as offsets into SHARED (SHARED^-1 o REG,
  a preimage chosen by elimination where SHARED is not injective);
- triton_formula(rec): Triton 3.9's bankConflictsMemDesc re-stated (vector, then
  2^dim(segment ∩ lane tile) - 1), with words=True the same count with the offsets taken in
  4-byte words (sub-word element bits dropped), which is llcheck's rule;
- enumerate_per_phase(rec, v): the ground truth for a vector of v elements: every lane of
  every phase of one instruction, its byte address, the most distinct 4-byte words any bank is
  asked for in a phase, minus 1 (NVIDIA: 32 banks of 4 bytes; phases of 32, 16 or 8 lanes for
  accesses of up to 4, 8 or 16 bytes).
"""


def _flattener(shape):
    shifts, s = [], 0
    for n in shape:
        shifts.append(s)
        s += n.bit_length() - 1
    return (lambda c: sum(x << k for x, k in zip(c, shifts))), s


def rank(vectors):
    rows = []
    for v in vectors:
        for r in rows:
            v = min(v, v ^ r)
        if v:
            rows.append(v)
            rows.sort(reverse=True)
    return len(rows)


def offsets(rec):
    """(registers, lanes, warps) as offsets, for Triton's layouts of the case."""
    flat, _ = _flattener(rec["shape"])
    rows = []  # (tensor vector, offset combination), reduced
    for i, o in enumerate(flat(b) for b in rec["shared_ll"]["offset"]):
        c = 1 << i
        for rv, rc in rows:
            if o ^ rv < o:
                o, c = o ^ rv, c ^ rc
        if o:
            rows.append((o, c))
            rows.sort(reverse=True)

    def inv(t):
        x = 0
        for rv, rc in rows:
            if t ^ rv < t:
                t, x = t ^ rv, x ^ rc
        assert t == 0, "a tensor element SHARED does not hold"
        return x

    return tuple([inv(flat(b)) for b in rec["reg_ll"][k]] for k in ("register", "lane", "warp"))


def triton_vector(rec):
    """largestVectorisation: the largest v <= 128/bitwidth such that, after dropping zero
    (broadcast) registers and permuting the rest, registers 0..log2(v)-1 map to offsets
    1, 2, .., v/2 and no other column touches offset bits below log2(v)."""
    regs, lanes, warps = offsets(rec)
    regs = [r for r in regs if r]
    v = 128 // rec["bitwidth"]
    while v > 1:
        unit = [1 << i for i in range(v.bit_length() - 1)]
        others = [r for r in regs if r not in unit] + lanes + warps
        if all(u in regs for u in unit) and all(o & (v - 1) == 0 for o in others):
            return v
        v //= 2
    return 1


def triton_formula(rec, words=False):
    """Triton's number for the case (see test_bank_conflicts.py's docstring); words=True: the
    same with offsets in 4-byte words, so that elements inside one bank word do not count as
    different banks."""
    _regs, lanes, _warps = offsets(rec)
    bw = rec["bitwidth"]
    v = triton_vector(rec)
    # smem.getTotalInDimSize(): SHARED's offsets (and blocks), not the tensor's elements
    total = 1 << (len(rec["shared_ll"]["offset"]) + len(rec["shared_ll"]["block"]))
    bank = min(1024 // (v * bw), total)
    segment_lo = (v * bank).bit_length() - 1          # first segment bit, in elements
    log2_phases = (max(1, v * bw // 32)).bit_length() - 1
    tile = lanes[:len(lanes) - log2_phases]
    if words and v * bw < 32:
        drop = (32 // bw).bit_length() - 1            # element bits inside one 4-byte word
        tile = [t >> drop for t in tile]
        segment_lo -= drop
    low = (1 << segment_lo) - 1
    return (1 << (rank(tile) - rank([t & low for t in tile]))) - 1


def pairs_lanes(rec, v):
    """True when a load of v-element vectors pairs lanes on an H200: 8 or 16 bytes per lane, and
    lane 1 or lane 2 does not move the address (so every lane reads lane^1's, or lane^2's)."""
    _regs, lanes, _warps = offsets(rec)
    return v * rec["bitwidth"] // 8 > 4 and any(i < len(lanes) and lanes[i] == 0 for i in (0, 1))


def enumerate_per_phase(rec, v, paired=False):
    """Wavefronts per phase minus 1, by enumerating byte addresses, for a v-element vector; with
    paired, a load that pairs lanes (pairs_lanes) is served in half as many phases."""
    _regs, lanes, _warps = offsets(rec)
    bw = rec["bitwidth"]
    nbytes = v * bw // 8
    words_per_lane = max(1, nbytes // 4)
    phases = max(1, nbytes // 4)
    if paired and pairs_lanes(rec, v):
        phases = max(1, phases // 2)
    per = len(lanes) and (1 << len(lanes)) // phases
    worst = 0
    for p in range(phases):
        banks = {}
        for lane in range(p * per, (p + 1) * per):
            o = 0
            for j, col in enumerate(lanes):
                if lane >> j & 1:
                    o ^= col
            first = o * bw // 8 // 4
            for w in range(words_per_lane):
                banks.setdefault((first + w) % 32, set()).add(first + w)
        worst = max(worst, max(len(s) for s in banks.values()))
    return worst - 1


def subword_witness(rec):
    """True when some lane of a phase differs from another by a segment offset plus an offset
    inside one 4-byte word (what Triton's bank bits hide): Triton's formula in words differs
    from it in elements."""
    return triton_formula(rec, words=True) != triton_formula(rec)
