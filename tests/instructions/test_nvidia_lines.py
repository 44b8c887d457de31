"""The NVIDIA table's lines (instructions/nvidia.py): each line's parts say what its PTX
spelling says, and the architectures run the lines the PTX ISA gives them."""
from instructions import architecture_named
from instructions.nvidia import MIN_ARCH, ORDER, lines


def _read(spelling: str) -> tuple[object, ...]:
    """(kind, d, c, m, n, k, blocks, a, b) as the spelling writes them."""
    tokens = spelling.split(".")
    if tokens[0] in ("ldmatrix", "stmatrix"):
        return tokens[0], "b16", "b16", 8, 8, 8, int(tokens[2][1:]), "b16", "b16"
    shape = next(t for t in tokens if t[:1] == "m" and "n" in t and "k" in t)
    m, rest = shape[1:].split("n")
    n, k = rest.split("k")
    types = [t for t in tokens[tokens.index(shape) + 1:] if t not in ("row", "col")]
    d, a, b = types[:3]
    c = types[3] if len(types) > 3 else d
    quad = shape == "m8n8k4" and a == "f16"
    return tokens[0], d, c, int(m), int(n), int(k), 4 if quad else 1, a, b


def test_every_line_has_the_parts_its_spelling_says():
    for spelling, first, _, parts in lines():
        assert first in MIN_ARCH
        assert (parts.kind, parts.d, parts.c, parts.m, parts.n, parts.k, parts.blocks,
                parts.a, parts.b) == _read(spelling), spelling
        assert parts.scale == 0


def test_the_tables_hold_each_line_from_its_first_architecture_on():
    spellings = [line[0] for line in lines()]
    assert len(set(spellings)) == len(spellings)
    counts = {arch: len(architecture_named(arch).instructions) for arch in ORDER}
    # sm80: 13 mma.sync shapes and types (16 integer), 12 m8n8k4 .f16, 6 ldmatrix;
    # sm89: 16 fp8 mma.sync; sm90: 3 f64, 32 N x 12 wgmma, 18 N x 4 integer wgmma (N 8,
    # 16, 24, then 32 to 256 by 16), 6 stmatrix
    assert counts == {"SM80": 43, "SM89": 59, "SM90": 59 + 3 + 32 * 12 + 18 * 4 + 6}
    sm90 = architecture_named("SM90")
    wgmma = sm90.find("wgmma.mma_async.sync.aligned.m64n256k32.s32.u8.s8")
    assert wgmma is not None and (wgmma.m, wgmma.n, wgmma.k) == (64, 256, 32)
    assert wgmma.wave_sizes == (128,) and wgmma.matrices == ("A", "D")
    assert dict(wgmma.facts) == {"first": "sm_90",
                                 "cute": "SM90::GMMA::MMA_64x256x32_S32U8S8_RS_TN"}


def test_a_lookup_makes_the_tables_instruction_alone():
    """find() gives, for every spelling of every architecture, the table's own record
    (None where the architecture does not run the line), and a first lookup leaves the
    table unmade."""
    import instructions
    from instructions.nvidia import find

    for arch in ORDER:
        table = {inst.mnemonic: inst for inst in architecture_named(arch).instructions}
        for spelling, *_ in lines():
            assert find(arch, spelling) == table.get(spelling), (arch, spelling)
        assert find(arch, "mma.m1n1k1.f32.f32.f32.f32") is None
    saved = dict(instructions._TABLES)
    try:
        instructions._TABLES.pop("nvidia_sm90", None)
        sm90 = architecture_named("SM90")
        found = sm90.find("WGMMA.mma_async.sync.aligned.m64n256k16.f32.f16.f16")
        assert found is not None and found.mnemonic == "wgmma.mma_async.m64n256k16.f32.f16.f16"
        assert "nvidia_sm90" not in instructions._TABLES
        assert found in sm90.instructions
    finally:
        instructions._TABLES.clear()
        instructions._TABLES.update(saved)
