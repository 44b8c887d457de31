"""The command line of copy plans: --lds-tile with --copy (and --global-order, --ld,
--waves, --wave-split, --lds-type, --tdm-pad-interval, --tdm-pad-amount), answered
through matrix_api.lds_copy and rendered by formats/lds_copy.py (text, --json) or
formats/hip/copies.py (--emit hip). lds_mode.run_lds hands the command line over, with
the tile's keyword arguments it read.

    matrix_calculator.py -a gfx950 -i v_mfma_scale_f32_16x16x128_f8f6f4 -A --cbsz 4 \\
        --lds-type bf16 --lds-tile 16x128 --copy buffer_load_dwordx4 --load ds_read_b128 \\
        --lds-swizzle xor:4^8,5^9,7^10
"""
from __future__ import annotations

from collections.abc import Mapping

from formats import lds_copy as render
from formats.json_output import dump
from instructions.model import Instruction

from matrix_frontends.cli.options import Args, number
from matrix_library import api as matrix_api
from matrix_library.checks import CalcError


def _options(args: Args, options: Mapping[str, object]) -> dict[str, object]:
    """lds_copy's keyword arguments from the command line (the tile's are `options`)."""

    def _value(dest: str) -> str | None:
        if args.given(dest) and args.text(dest) is None:
            raise CalcError(f"--{dest.replace('_', '-')} needs a value")
        return args.text(dest)

    copy = _value("copy")
    if copy is None:
        given = next(d for d in ("global_order", "waves", "wave_split", "tdm_pad_interval",
                                 "tdm_pad_amount") if args.given(d))
        raise CalcError(f"--{given.replace('_', '-')} describes a copy: give --copy NAME")

    def whole(dest: str) -> int | None:
        return number(args, dest) if _value(dest) is not None else None

    return {"copy": copy, "global_order": _value("global_order"),
            "ld": number(args, "ld") if args.given("ld") else None,
            "waves": 1 if _value("waves") is None else whole("waves"),
            "wave_split": _value("wave_split") or "block",
            "tdm_pad_interval": whole("tdm_pad_interval"),
            "tdm_pad_amount": whole("tdm_pad_amount"), **options}


def run_copy(args: Args, inst: Instruction, matrix: str, options: Mapping[str, object],
             fmt: str | None, emit: bool, as_json: bool) -> str:
    """The copy plan of the command line: text, --json, --format svg|html, --emit hip (the
    copy code, then the read code of the same tile), or --lds-search (settings ranked by
    read and write conflicts, coalescing and bytes)."""
    if fmt not in (None, "svg", "html"):
        raise CalcError(f"a copy plan is drawn with --format svg or html (or --json), not "
                        f"--format {fmt}")
    copying = _options(args, options)
    if getattr(args, "lds_search", False):
        if fmt is not None or emit:
            raise CalcError("--lds-search ranks settings: drop --format and --emit")
        search = matrix_api.lds_copy_search(inst, matrix, **copying)  # type: ignore[arg-type]
        return dump("lds_copy_search", **render.search_document(search)) if as_json \
            else render.search_text(search)
    found = matrix_api.lds_copy(inst, matrix, **copying)  # type: ignore[arg-type]
    if emit:
        from formats.hip.copies import emit_copy  # (mode dispatch: the HIP writer)
        return emit_copy(found)
    if as_json:
        return dump("lds_copy", **render.document(found))
    if fmt == "svg":
        return render.svg(found)
    return render.html(found) if fmt == "html" else render.text(found)
