"""gfx1250's tensor data mover: the descriptor of `tensor_load_to_lds` for an
operand's tile, its fields' legal ranges and encodings, and the LDS image it writes.

Fields (docs/lds_copy.md section 5; Triton TDMUtility.cpp and CK's ck_tile TDM descriptor
agree on group 1): data size log2(bytes) in 2 bits; pad interval log2(dwords) - 1 in 3
bits (2 to 256 dwords); pad amount dwords - 1 in 7 bits (1 to 128 dwords); tile dims 16
bits; tensor dims 32 bits; strides 48 bits. The mover writes the tile's rows (dim0 the
contiguous one) one after another from the LDS address, skipping `amount` dwords after
every `interval` dwords written.
"""


from __future__ import annotations

from instructions.lds import PhaseModel
from instructions.lds_copy import CopyOp
from instructions.record import Record
from layouts.core import CalcError

from matrix_plans.lds.copies import CopyLane, CopyPlan, CopyStep, Global, segments
from matrix_plans.lds.tile import Tile


class Field(Record):
    """One descriptor field: its value (in the unit named), the bits it is stored in
    (group, dword, lo, width) and the value stored."""
    name: str
    value: int
    unit: str
    group: int
    dword: int
    lo: int
    width: int
    encoded: int
    legal: str


class Descriptor(Record):
    """The descriptor of one wave's tensor_load_to_lds (groups 0 and 1 of a 2D copy; the
    addresses are offsets: the kernel adds its pointers), with every field."""
    wave: int
    fields: tuple[Field, ...]
    group0: tuple[int, ...]
    group1: tuple[int, ...]


def _field(name: str, value: int, unit: str, where: tuple[int, int, int, int], encoded: int,
           legal: str) -> Field:
    group, dword, lo, width = where
    if not 0 <= encoded < 1 << width:
        raise CalcError(f"tensor_load_to_lds descriptor field {name} = {value} {unit} is out "
                        f"of range: {legal}", "tdm")
    return Field(name, value, unit, group, dword, lo, width, encoded, legal)


def pad_fields(interval: int, amount: int) -> tuple[Field, Field]:
    """The pad interval and amount fields, both in dwords; CalcError naming the field, the
    value and the legal range when either cannot be encoded."""
    legal_i = "a power of two from 2 to 256 dwords (3 bits: log2(interval) - 1)"
    if interval < 2 or interval > 256 or interval & (interval - 1):
        raise CalcError(f"tensor_load_to_lds pad interval {interval} dwords is not encodable: "
                        f"the pad_interval field holds {legal_i}", "tdm_pad_interval")
    legal_a = "1 to 128 dwords (7 bits: amount - 1)"
    if not 1 <= amount <= 128:
        raise CalcError(f"tensor_load_to_lds pad amount {amount} dwords is not encodable: the "
                        f"pad_amount field holds {legal_a}", "tdm_pad_amount")
    return (_field("pad_interval", interval, "dwords", (1, 0, 22, 3),
                   interval.bit_length() - 2, legal_i),
            _field("pad_amount", amount, "dwords", (1, 0, 25, 7), amount - 1, legal_a))


def _padded(byte: int, pad: tuple[int, int] | None) -> int:
    """The LDS offset of the byte `byte` of the dense tile (rows one after another): the
    mover skips `amount` dwords after every `interval` dwords."""
    return byte + byte // (pad[0] * 4) * pad[1] * 4 if pad else byte


def _refusals(tile: Tile, bits: int, glob: Global) -> None:
    """CalcError where the tensor data mover cannot write the tile at all."""
    if tile.swizzle or tile.xor:
        raise CalcError("tensor_load_to_lds pads rows but does not swizzle: give --lds-pad "
                        "or --tdm-pad-interval/--tdm-pad-amount instead of --lds-swizzle",
                        "swizzle")
    if bits % 8:
        raise CalcError(f"the tensor data mover moves elements of 1, 2, 4 or 8 bytes, not "
                        f"{bits} bits", "lds_type")
    natural = "row" if (glob.k_axis == 1) == (tile.order == "k") else "col"
    if glob.order != natural:
        raise CalcError("tensor_load_to_lds writes the global tile's contiguous rows as LDS "
                        f"rows: with this tile give --global-order {natural}", "global_order")


def _pad(tile: Tile, size: int, interval: int | None, amount: int | None
         ) -> tuple[tuple[int, int] | None, tuple[Field, ...]]:
    """(interval, amount) in dwords (None: no padding) and their descriptor fields: as
    given, or one row and --lds-pad when neither is given."""
    if (interval is None) != (amount is None):
        raise CalcError("give both --tdm-pad-interval and --tdm-pad-amount (dwords)", "tdm")
    row_bytes = tile.cols * size
    if interval is None and tile.pad:
        if (tile.pad * size) % 4 or row_bytes % 4:
            raise CalcError(f"--lds-pad {tile.pad} is not whole dwords: the tensor data mover "
                            "pads in dwords", "pad")
        interval, amount = row_bytes // 4, tile.pad * size // 4
    if interval is None or amount is None:
        return None, ()
    return (interval, amount), pad_fields(interval, amount)


def _check_image(tile: Tile, bits: int, pad: tuple[int, int] | None) -> None:
    """CalcError unless the mover's LDS image is the read plan's tile."""
    size = bits // 8
    for r in range(tile.rows):
        for c in range(tile.cols):
            mover = _padded((r * tile.cols + c) * size, pad)
            keeps = tile.bit_offset(r, c, bits) // 8
            if mover == keeps:
                continue
            want = f"--lds-pad {pad[1] * 4 // size}" if pad and pad[0] == tile.cols * size // 4 \
                else "--tdm-pad-interval of one row"
            raise CalcError(f"tensor_load_to_lds with pad {pad or 'off'} (interval, amount in "
                            f"dwords) writes element ({r}, {c}) at byte {mover} of the tile, "
                            f"but the read plan's tile ({tile.text}) keeps it at byte {keeps}: "
                            f"give {want}", "tdm")


def plan_tdm(tile: Tile, bits: int, glob: Global, op: CopyOp, waves: int,
             interval: int | None, amount: int | None, model: PhaseModel
             ) -> tuple[CopyPlan, Descriptor]:
    """The copy by tensor_load_to_lds: each of `waves` waves moves a block of the tile's
    rows; the descriptor of wave 0; CalcError when the LDS image the mover writes is not
    the read plan's tile, or a field cannot be encoded."""
    _refusals(tile, bits, glob)
    size = bits // 8
    row_bytes = tile.cols * size
    pad, pads = _pad(tile, size, interval, amount)
    _check_image(tile, bits, pad)
    per = -(-tile.rows // waves)  # (the pad interval is one row: each wave's count restarts
    # on a row, as the whole tile's would)
    steps, first = [], None
    for w in range(waves):
        rows = range(w * per, min(tile.rows, (w + 1) * per))
        if not rows:
            continue
        lanes: list[CopyLane] = []
        for r in rows:
            for lo, hi in _pieces(r * row_bytes, row_bytes, pad):
                glo = glob.offset(tile, r, (lo - r * row_bytes) // size) * size
                lanes.append(CopyLane(len(lanes), glo, tile.base + _padded(lo, pad), hi - lo))
        done = tuple(lanes)
        steps.append(CopyStep(w, 0, op.name, "tdm", done, segments(done), ()))
        if first is None:
            first = _descriptor(w, tile, size, glob, len(rows),
                                tile.base + _padded(rows[0] * row_bytes, pad), pads)
    assert first is not None
    notes = ("the tensor data mover's rows are listed as its 'lanes' (a row, or a piece of "
             "one between pads, per line); its LDS write grouping is not known: no phases",
             "wait with s_wait_tensorcnt, then barrier before reading",
             "global offsets are from the tile's first element, assumed 128-byte aligned")
    return (CopyPlan("tdm", op, None, glob.order, glob.ld, waves, "block", bits, tuple(steps),
                     model, notes, glob.k_axis), first)


def _pieces(start: int, row_bytes: int, pad: tuple[int, int] | None
            ) -> list[tuple[int, int]]:
    """The dense byte ranges of a row that stay contiguous in LDS (split at the pads)."""
    cuts = [start]
    if pad:
        step = pad[0] * 4
        cuts += range((start // step + 1) * step, start + row_bytes, step)
    cuts.append(start + row_bytes)
    return list(zip(cuts, cuts[1:]))


def _descriptor(w: int, tile: Tile, size: int, glob: Global, rows: int, lds: int,
                pads: tuple[Field, ...]) -> Descriptor:
    legal16, legal32, legal48 = ("1 to 65535 (16 bits)", "up to 2^32 - 1 (32 bits)",
                                 "up to 2^48 - 1 (48 bits)")
    dims = glob.extent(tile)
    inner = dims[1] if glob.order == "row" else dims[0]
    fields = [
        _field("data_size", size, "bytes", (1, 0, 16, 2), size.bit_length() - 1,
               "1, 2, 4 or 8 bytes (2 bits: log2)"),
        _field("pad_enable", int(bool(pads)), "", (1, 0, 20, 1), int(bool(pads)), "0 or 1"),
        *pads,
        _field("tensor_dim0", glob.ld, "elements", (1, 1, 16, 32), glob.ld, legal32),
        _field("tensor_dim1", rows, "elements", (1, 2, 16, 32), rows, legal32),
        _field("tile_dim0", inner, "elements", (1, 3, 16, 16), inner, legal16),
        _field("tile_dim1", rows, "elements", (1, 4, 0, 16), rows, legal16),
        _field("tensor_dim0_stride", glob.ld, "elements", (1, 5, 0, 48), glob.ld, legal48),
        _field("count", 1, "", (0, 0, 0, 2), 1,
               "1 (CK sets count = 1; Triton fills these bits with the predicate)"),
        _field("lds_address", lds, "bytes", (0, 1, 0, 32), lds, legal32),
        _field("type", 2, "", (0, 3, 30, 2), 2, "2"),
    ]
    for f in fields:
        if f.width == 16 and f.encoded == 0:
            raise CalcError(f"tensor_load_to_lds descriptor field {f.name} = 0: {legal16}",
                            "tdm")
    group0, group1 = [0] * 4, [0] * 8
    for f in fields:
        words = group0 if f.group == 0 else group1
        value = f.encoded << (f.dword * 32 + f.lo)
        for d in range(len(words)):
            words[d] |= (value >> (32 * d)) & 0xFFFFFFFF
    return Descriptor(w, tuple(fields), tuple(group0), tuple(group1))
