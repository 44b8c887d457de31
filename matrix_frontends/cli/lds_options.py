"""The option rows of LDS load plans, as data: what options.py makes its Option rows of
(group LDS_GROUP) and what the mode table (modes.py) selects the mode "lds" by
(`wanted`). The handling of those options is lds_mode.run_lds, loaded only when the mode
runs: a point query reads these rows and runs no code of this module.
"""
from __future__ import annotations

from operator import itemgetter, methodcaller

ABSENT = ""  # the third field of an LDS_OPTIONS row (options.py gives every value option
# its own default: not given; None is given without a value)

# dest, spellings, default (options.py makes one Option row of each)
LDS_OPTIONS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("lds_tile", ("--lds-tile", "--lds_tile"), ABSENT),
    ("lds_order", ("--lds-order", "--lds_order"), ABSENT),
    ("lds_pad", ("--lds-pad", "--lds_pad"), ABSENT),
    ("lds_swizzle", ("--lds-swizzle", "--lds_swizzle"), ABSENT),
    ("lds_base", ("--lds-base", "--lds_base"), ABSENT),
    ("load", ("--load",), ABSENT),
    ("k_steps", ("--k-steps", "--k_steps"), ABSENT),
    ("lds_model", ("--lds-model", "--lds_model"), ABSENT),
    ("copy", ("--copy",), ABSENT),
    ("global_order", ("--global-order", "--global_order"), ABSENT),
    ("waves", ("--waves",), ABSENT),
    ("wave_split", ("--wave-split", "--wave_split"), ABSENT),
    ("lds_type", ("--lds-type", "--lds_type"), ABSENT),
    ("tdm_pad_interval", ("--tdm-pad-interval", "--tdm_pad_interval"), ABSENT),
    ("tdm_pad_amount", ("--tdm-pad-amount", "--tdm_pad_amount"), ABSENT),
)
# the options a copy plan (--copy) reads besides the tile's
COPY_DESTS = ("copy", "global_order", "waves", "wave_split", "lds_type", "tdm_pad_interval",
              "tdm_pad_amount")
LDS_FLAGS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("lds_search", ("--lds-search", "--lds_search"),
     "with --lds-tile: list the paddings and swizzles that make every load conflict-free "
     "(and what Triton's and CK's formulas pick)"),
)
LDS_HELP = {
    "lds_tile": "plan the loads of the operand (-A, -B, -k, --A-scale, --B-scale) from an "
                "LDS tile of ROWSxCOLS elements: addresses, phases, bank conflicts "
                "(docs/lds.md)",
    "lds_order": "with --lds-tile: k (rows of K values, the default) or mn (rows of M/N "
                 "values)",
    "lds_pad": "with --lds-tile: elements added to every row",
    "lds_swizzle": "with --lds-tile: chunk c of VEC elements of row r stored at "
                   "c ^ ((r / PER_PHASE) %% MAX_PHASE)",
    "lds_base": "with --lds-tile: byte address of the tile in LDS",
    "load": "with --lds-tile: the load instruction (ds_read_b64, ds_read_b64_tr_b16, ...; "
            "default: the widest that delivers the fragment)",
    "k_steps": "with --lds-tile: load N consecutive K steps of the instruction at once",
    "lds_model": "with --lds-tile: the phase model (default, or an alternative where sources "
                 "disagree: rocroller on CDNA, banks64 on RDNA)",
    "copy": "with --lds-tile: plan the copy of the tile from global memory into LDS with "
            "LOAD[+WRITE]: a direct-to-LDS load (buffer_load_dwordx4, global_load_lds_dword, "
            "global_load_async_to_lds_b128), tensor_load_to_lds, or a load then a DS write "
            "(global_load_dwordx4+ds_write_b128) (docs/lds_copy.md)",
    "global_order": "with --copy: the global tile's order, row or col (default: the LDS "
                    "tile's rows contiguous); --ld gives its leading dimension",
    "waves": "with --copy: waves sharing the copy (default 1)",
    "wave_split": "with --copy: block (wave w copies the w-th block, the default) or "
                  "interleave (instruction n of wave w copies block n x waves + w)",
    "lds_type": "with --lds-tile: the type the tile stores when not the operand's (bf16: "
                "each lane converts after its read)",
    "tdm_pad_interval": "with --copy tensor_load_to_lds: LDS padding interval in dwords",
    "tdm_pad_amount": "with --copy tensor_load_to_lds: LDS padding amount in dwords",
}
# What completion offers after an LDS option (completion.py: every architecture's names).
LDS_COMPLETE = {"load": "lds_load", "lds_model": "lds_model"}
LDS_METAVARS = {"lds_tile": "ROWSxCOLS", "lds_order": "k/mn", "lds_pad": "N",
                "lds_swizzle": "VEC,PER_PHASE,MAX_PHASE", "lds_base": "BYTES",
                "load": "NAME", "k_steps": "N", "lds_model": "NAME", "copy": "LOAD[+WRITE]",
                "global_order": "row/col", "waves": "N", "wave_split": "block/interleave",
                "lds_type": "TYPE", "tdm_pad_interval": "DWORDS", "tdm_pad_amount": "DWORDS"}
# The whole-number options and the largest value the command line accepts (an LDS is at
# most a few hundred KiB; the library checks the architecture's own size).
LDS_LIMITS = {"lds_pad": 1 << 20, "lds_base": 1 << 20, "k_steps": 1 << 10, "waves": 1 << 10,
              "tdm_pad_interval": 1 << 20, "tdm_pad_amount": 1 << 20}
LDS_DESTS = tuple(map(itemgetter(0), LDS_OPTIONS + LDS_FLAGS))
LDS_GROUP = ("LDS load plans", LDS_DESTS)
# Whether a command line (options.Args) asks for an LDS plan: any LDS option given.
wanted = methodcaller("any_given", LDS_DESTS)
