"""--mcp: an MCP (Model Context Protocol) server for coding agents, on standard input and
output, built on the official `mcp` SDK (an optional dependency:
pip install "matrix-calculator[mcp]").

Every tool is a thin call of the command line's one answer path: it spells the command
line its arguments stand for (`-a cdna3 -i v_mfma_f32_32x32x8_f16 -g -A -I 5 -K 6
--json`) and answers it with cli.respond.respond, so a tool answers exactly what the
command answers. A `--json` answer is the tool's structured result (the shipped JSON
documents, docs/json.md); a text answer (code, a table format) is {"text": ...}. A
command line the calculator refuses is an MCP tool error carrying the command line's
one error line. The tools are plain functions (`tools()` names them with their
descriptions), usable without the SDK; `serve` registers them with the SDK's MCPServer.
"""

import json
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import wraps
from typing import ParamSpec

from instructions import ARCHITECTURES
from instructions.record import Record

from matrix_frontends.cli.options import (
    BY_DEST,
    FLAG,
    MODIFIERS,
    ArgumentError,
    HelpRequested,
    __version__,
)
from matrix_frontends.cli.respond import error_line, parse_args, respond

INSTALL = ('--mcp needs the Python package mcp (the MCP SDK), which is not installed: '
           'pip install "matrix-calculator[mcp]"')
# the command line's modes that are servers or streams of their own: a tool refuses them
# (--batch - would read the MCP transport itself)
REFUSED = ("batch", "serve", "mcp")

Value = int | str | bool
Result = dict[str, object]
Words = list[str]


class CommandFailed(Exception):
    """A command line the calculator refused; the message is its one error line."""


def answer(words: Sequence[str]) -> Result:
    """The command line `words` answered through the command's own answer path: its
    --json document, or {"text": output} for any other output."""
    status, text = respond(list(words))
    if status != 0:
        raise CommandFailed(error_line(text))
    if "--json" in words:
        document = json.loads(text)
        return document if isinstance(document, dict) else {"documents": document}
    return {"text": text}


def _option(dest: str, value: Value | None) -> Words:
    """One option row's words for `value` (none for None or a false flag); values go
    after '=', so a value that starts with '-' stays a value."""
    if value is None or value is False:
        return []
    option = BY_DEST[dest]
    spelled = next((s for s in option.spellings if s.startswith("--")), option.spellings[0])
    if option.kind == FLAG:
        return [spelled]
    return [f"{spelled}={value}"]


def _options(values: Mapping[str, Value | None]) -> Words:
    return [word for dest, value in values.items() for word in _option(dest, value)]


def _modifiers(modifiers: Mapping[str, Value] | None) -> Words:
    """The modifier options of {name: value}; an unknown name is refused with the names."""
    words: Words = []
    for name, value in (modifiers or {}).items():
        key = name.strip().lstrip("-").replace("-", "_").lower()
        if key not in MODIFIERS:
            raise CommandFailed(error_line(f"unknown modifier {name!r}; the modifiers are "
                                           + ", ".join(MODIFIERS)))
        words += _option(key, value)
    return words


_MATRICES = {"A": "-A", "B": "-B", "C": "-C", "D": "-D", "K": "-k", "SA": "--A-scale",
             "SB": "--B-scale"}


def _matrix(matrix: str) -> Words:
    key = matrix.strip().upper().replace("-", "").replace("_", "")
    key = {"ASCALE": "SA", "BSCALE": "SB", "COMPRESSION": "K"}.get(key, key)
    if key not in _MATRICES:
        raise CommandFailed(error_line(f"unknown matrix {matrix!r}; the matrices are "
                                       "A, B, C, D, K (compression index), SA and SB "
                                       "(block scales)"))
    return [_MATRICES[key]]


def _instruction(architecture: str, instruction: str | None = None,
                 wave: int | None = None) -> Words:
    return _options({"architecture": architecture, "instruction": instruction,
                     "wavefront": wave})


# ---- the tools: each spells a command line and answers it


def list_architectures(format: str = "json") -> Result:
    shown = ["--json"] if format.lower() == "json" else [f"--format={format}"]
    return answer(["--list-architectures", *shown])


def list_instructions(architecture: str,
                      filters: Mapping[str, str | list[str]] | None = None) -> Result:
    if not filters:
        return answer([*_instruction(architecture), "-L", "--json"])
    return search_catalog({"arch": architecture, **filters})


def instruction_facts(architecture: str, instruction: str, wave: int | None = None,
                      product: str | None = None,
                      modifiers: Mapping[str, Value] | None = None) -> Result:
    return answer([*_instruction(architecture, instruction, wave), "-d",
                   *_options({"product": product}), *_modifiers(modifiers), "--json"])


def locate_element(architecture: str, instruction: str, matrix: str, i: int | None = None,
                   j: int | None = None, k: int | None = None, block: int | None = None,
                   wave: int | None = None, modifiers: Mapping[str, Value] | None = None,
                   calculation: bool = False) -> Result:
    return answer([*_instruction(architecture, instruction, wave), "-g", *_matrix(matrix),
                   *_options({"i": i, "j": j, "k": k, "block": block,
                              "output": calculation}),
                   *_modifiers(modifiers), "--json"])


def register_contents(architecture: str, instruction: str, matrix: str, register: int,
                      lane: int, wave: int | None = None,
                      modifiers: Mapping[str, Value] | None = None) -> Result:
    return answer([*_instruction(architecture, instruction, wave), "-m", *_matrix(matrix),
                   *_options({"register": register, "lane": lane}),
                   *_modifiers(modifiers), "--json"])


def layout(architecture: str, instruction: str, matrix: str, view: str = "register",
           format: str = "json", wave: int | None = None,
           modifiers: Mapping[str, Value] | None = None, transpose: bool = False) -> Result:
    views = {"register": "-R", "matrix": "-M"}
    if view not in views:
        raise CommandFailed(error_line(f"unknown view {view!r}: register (-R, the matrix "
                                       "with each element's register) or matrix (-M, each "
                                       "register and lane with its element)"))
    shown = ["--json"] if format.lower() == "json" else [f"--format={format}"]
    return answer([*_instruction(architecture, instruction, wave), views[view],
                   *_matrix(matrix), *_options({"transpose": transpose}),
                   *_modifiers(modifiers), *shown])


def search_catalog(filters: Mapping[str, str | list[str]] | None = None,
                   product: str | None = None) -> Result:
    words = ["--catalog"]
    for key, values in (filters or {}).items():
        for value in [values] if isinstance(values, str) else values:
            words.append(f"--filter={key}={value}")
    return answer([*words, *_options({"product": product}), "--json"])


def lds_plan(architecture: str, instruction: str, matrix: str, tile: str,
             order: str | None = None, pad: int | None = None, swizzle: str | None = None,
             base: int | None = None, load: str | None = None, k_steps: int | None = None,
             lds_type: str | None = None, model: str | None = None, search: bool = False,
             wave: int | None = None, modifiers: Mapping[str, Value] | None = None) -> Result:
    return answer([*_instruction(architecture, instruction, wave), *_matrix(matrix),
                   *_options({"lds_tile": tile, "lds_order": order, "lds_pad": pad,
                              "lds_swizzle": swizzle, "lds_base": base, "load": load,
                              "k_steps": k_steps, "lds_type": lds_type, "lds_model": model,
                              "lds_search": search}),
                   *_modifiers(modifiers), "--json"])


def copy_plan(architecture: str, instruction: str, matrix: str, tile: str, copy: str,
              order: str | None = None, pad: int | None = None, swizzle: str | None = None,
              global_order: str | None = None, ld: int | None = None,
              waves: int | None = None, wave_split: str | None = None,
              tdm_pad_interval: int | None = None, tdm_pad_amount: int | None = None,
              wave: int | None = None, modifiers: Mapping[str, Value] | None = None) -> Result:
    return answer([*_instruction(architecture, instruction, wave), *_matrix(matrix),
                   *_options({"lds_tile": tile, "copy": copy, "lds_order": order,
                              "lds_pad": pad, "lds_swizzle": swizzle,
                              "global_order": global_order, "ld": ld, "waves": waves,
                              "wave_split": wave_split, "tdm_pad_interval": tdm_pad_interval,
                              "tdm_pad_amount": tdm_pad_amount}),
                   *_modifiers(modifiers), "--json"])


def convert_plan(architecture: str, source: str, target: str, transpose: bool = False,
                 calculation: bool = False) -> Result:
    return answer([*_instruction(architecture), "--convert", source, target,
                   *_options({"transpose": transpose, "output": calculation}),
                   "--json"])


def budget(architecture: str, instruction: str, product: str | None = None,
           wave_tile: str | None = None, waves_per_group: str | None = None,
           lds_buffers: int | None = None, wave: int | None = None,
           modifiers: Mapping[str, Value] | None = None) -> Result:
    return answer([*_instruction(architecture, instruction, wave), "--budget",
                   *_options({"product": product, "wave_tile": wave_tile,
                              "waves_per_group": waves_per_group,
                              "lds_buffers": lds_buffers}), *_modifiers(modifiers), "--json"])


def emit_code(architecture: str, instruction: str, language: str = "hip",
              matrix: str | None = None, ld: int | None = None, order: str | None = None,
              prefix: str | None = None, lds: bool = False, wave: int | None = None,
              modifiers: Mapping[str, Value] | None = None) -> Result:
    chosen = (["--linear-layout", "--json"] if language == "linear-layout"
              else [f"--emit={language}"])
    return answer([*_instruction(architecture, instruction, wave), *chosen,
                   *(_matrix(matrix) if matrix else []),
                   *_options({"ld": ld, "order": order, "prefix": prefix, "lds": lds}),
                   *_modifiers(modifiers)])


def calculate(command: str) -> Result:
    try:
        words = shlex.split(command)
    except ValueError as exc:  # an unclosed quote
        raise CommandFailed(error_line(f"cannot split the command line: {exc}")) from None
    if words and words[0].split("/")[-1] in ("matrix-calculator", "matrix_calculator.py"):
        words = words[1:]
    try:
        args = parse_args(words)
    except (ArgumentError, HelpRequested):  # respond reports it as the command line does
        return answer(words)
    refused = [BY_DEST[dest].spellings[0] for dest in REFUSED if args.given(dest)]
    if refused:
        raise CommandFailed(error_line(f"{refused[0]} is a command of its own, not a "
                                       "query: call the tools once per command line"))
    return answer(words)


# ---- what an agent reads: each tool's description

EXAMPLE = ("Example: locate_element(architecture='cdna3', "
           "instruction='v_mfma_f32_32x32x8_f16', matrix='A', i=5, k=6) -> A[5][6] is "
           "in VGPR 1 (registers counted from the operand's first), lane 37, bits 15:0.")
# (the names and vendors from the architecture records, never spelled here)
NAMES = ", ".join(arch.name.lower() for arch in ARCHITECTURES)
VENDORS = ", ".join(sorted({arch.vendor for arch in ARCHITECTURES}))
ARCHITECTURE = (f"architecture: a name or alias, any case ({NAMES}, or a gfx name or a "
                "product; list_architectures names them all). instruction: a mnemonic, "
                "any case (list_instructions). wave: 32 or 64 where the architecture has "
                "both.")
MATRIX = ("matrix: A, B, C, D, K (the compression index of a sparse instruction), SA or SB "
          "(the block scales of a scaled MFMA).")
COORDINATES = ("i (row of A, C, D), j (column of B, C, D), k (the reduction index of A "
               "and B), block (for multi-block instructions): 0 up to the instruction's "
               "size minus one; instruction_facts gives M, N, K and blocks.")
RESULT = ("Result: the command line's --json document (docs/json.md; "
          "matrix-calculator --json-schema).")


def _modifier_help() -> str:
    """The modifiers by family, from the command line's option table."""
    groups: dict[str, list[str]] = {}
    for name in MODIFIERS:
        option = BY_DEST[name]
        groups.setdefault(option.group, []).append(f"{name} ({option.help})")
    return ("modifiers: {name: value}, all 0 when left out; which an instruction takes "
            "and their allowed values are in instruction_facts. "
            + " ".join(f"{group}: {'; '.join(items)}." for group, items in groups.items()))


class Tool(Record):
    """One MCP tool: its function (its parameters are the tool's arguments) and what an
    agent reads about it."""
    # (every tool has parameters of its own, which the SDK reads from its signature)
    function: Callable[..., Result]  # type: ignore[explicit-any]
    description: str


def tools() -> tuple[Tool, ...]:  # type: ignore[explicit-any]  # (Tool.function)
    modifiers = _modifier_help()
    return (
        Tool(list_architectures, f"Every architecture the calculator knows ({NAMES}), "
             "with its aliases (gfx names, products), wave "
             "sizes and instruction count. format: json (the default) or a table format "
             "(markdown, csv, ...), answered as {'text': ...}. Equals matrix-calculator "
             "--list-architectures --json. " + RESULT),
        Tool(list_instructions, "The matrix instructions of one architecture (MFMA, "
             "SMFMAC, WMMA, SWMMAC, mma). " + ARCHITECTURE + " filters (optional): "
             "{key: value or [values]} with the keys of search_catalog; with filters the "
             "result is the catalog's, with each instruction's facts. Equals -a ARCH -L "
             "--json. Example: list_instructions('cdna4', {'type': 'fp4'}). " + RESULT),
        Tool(instruction_facts, "The facts of one instruction: shape (M, N, K, blocks), "
             "types, encoding and opcode, cycles, registers of each operand, the modifiers "
             "it takes with their allowed values, and the formulas mapping each element to "
             "its register, lane and bits. " + ARCHITECTURE + " product (optional, e.g. "
             "mi355x): adds its peak throughput. Equals -a ARCH -i INSTRUCTION -d --json. "
             + modifiers + " " + RESULT),
        Tool(locate_element, "Where one matrix element lives: its VGPR (counted from the "
             "operand's first register), lane and bits. " + ARCHITECTURE + " " + MATRIX
             + " " + COORDINATES + " calculation: with matrix D, also how D[i][j] is "
             "computed from A, B and C. Equals -g --json. " + modifiers + " " + EXAMPLE
             + " " + RESULT),
        Tool(register_contents, "Which matrix elements one register of one lane holds. "
             + ARCHITECTURE + " " + MATRIX + " register: 0 up to the operand's register "
             "count minus one; lane: 0 up to the wave size minus one. Equals -m --json. "
             + modifiers + " Example: register_contents('cdna3', 'v_mfma_f32_32x32x8_f16', "
             "'B', register=1, lane=3). " + RESULT),
        Tool(layout, "The whole layout of one operand. view: register (-R: the matrix with "
             "each element's register and lane) or matrix (-M: each register and lane with "
             "the element it holds). format: json (the default: structured) or any "
             "--format of the command line (markdown, csv, long-csv, tsv, jsonl, svg, html, "
             "a tabulate format), answered as {'text': ...}. transpose: swap rows and "
             "columns. " + ARCHITECTURE + " " + MATRIX + " " + modifiers + " Example: "
             "layout('rdna3', 'v_wmma_f32_16x16x16_f16', 'C', format='markdown'). " + RESULT),
        Tool(search_catalog, "Every instruction of every architecture that matches the "
             "filters, with its facts. filters: {key: value or [values]}; keys: arch, "
             f"vendor ({VENDORS}), type (f16, bf16, fp8, fp4, i8, ...), shape (MxNxK), "
             "sparse (yes/no), kind (mfma, smfmac, wmma, swmmac, ...), m, n, k, blocks; a "
             "list matches any of its values. product: adds each instruction's peak on "
             "that product. Equals --catalog --filter KEY=VALUE ... --json. Example: "
             "search_catalog({'type': 'fp8', 'arch': 'cdna3'}). " + RESULT),
        Tool(lds_plan, "The LDS load plan of an operand (A, B, K, SA, SB) from an LDS tile: "
             "the load instruction, each lane's addresses, phases and bank conflicts. "
             "tile: ROWSxCOLS elements; order: k (rows of K values, the default) or mn; "
             "pad: elements added to each row; swizzle: VEC,PER_PHASE,MAX_PHASE; base: "
             "the tile's byte address; load: a ds_read name (default: the widest that "
             "delivers the fragment); k_steps: K steps loaded at once; lds_type: the type "
             "stored when not the operand's; model: the bank model (default, rocroller, "
             "banks64); search: list the paddings and swizzles that make every load "
             "conflict-free. " + ARCHITECTURE + " Equals --lds-tile ... --json (docs/lds.md). "
             "Example: lds_plan('cdna3', 'v_mfma_f32_32x32x8_f16', 'A', '32x64'). " + RESULT),
        Tool(copy_plan, "The plan of copying an LDS tile from global memory into LDS. "
             "copy: LOAD or LOAD+WRITE (buffer_load_dwordx4, global_load_lds_dword, "
             "global_load_async_to_lds_b128, tensor_load_to_lds, "
             "global_load_dwordx4+ds_write_b128); global_order: row or col; ld: the global "
             "leading dimension; waves: waves sharing the copy; wave_split: block or "
             "interleave; tdm_pad_interval/tdm_pad_amount: tensor_load_to_lds padding in "
             "dwords; tile, order, pad, swizzle as in lds_plan. " + ARCHITECTURE + " Equals "
             "--lds-tile T --copy C --json (docs/lds_copy.md). Example: copy_plan('cdna3', "
             "'v_mfma_f32_32x32x8_f16', 'A', '32x64', 'global_load_dwordx4+ds_write_b128')."
             " " + RESULT),
        Tool(convert_plan, "How to move one instruction's result (INSTRUCTION:D or :C) into "
             "the next instruction's operand (INSTRUCTION:A or :B) of the same architecture: "
             "the lane moves (permutes, swizzles) each register needs. source, target: "
             "INSTRUCTION:MATRIX. transpose: the next instruction reads the transposed "
             "result. Equals -a ARCH --convert SOURCE TARGET --json (docs/chaining.md). "
             "Example: convert_plan('cdna3', 'v_mfma_f32_32x32x8_f16:D', "
             "'v_mfma_f32_32x32x8_f16:A'). " + RESULT),
        Tool(budget, "The kernel budget of a block tile of the instruction: VGPRs, LDS, "
             "occupancy and arithmetic intensity; with product (mi355x, mi300x, ...) the "
             "roofline. wave_tile: MxN instruction tiles per wave (default 1x1); "
             "waves_per_group: N or MxN waves per workgroup; lds_buffers: 1, 2 (default) or "
             "3; modifiers: the operand formats (cbsz/blgp on CDNA4, matrix_a_fmt/"
             "matrix_b_fmt on gfx1250) as in locate_element. " + ARCHITECTURE + " Equals "
             "--budget --json (docs/budget.md). Example: budget('mi355x', "
             "'v_mfma_scale_f32_32x32x64_f8f6f4', product='mi355x', wave_tile='2x2', "
             "waves_per_group='2x2', modifiers={'cbsz': 4, 'blgp': 4}). " + RESULT),
        Tool(emit_code, "Code for kernel writers. language: hip (with matrix: that "
             "operand's load/store functions; without: an example kernel of the "
             "instruction), probe (a self-checking program that runs the instruction on "
             "the GPU and checks every element's place), linear-layout (the layout as "
             "linear-layout bases, structured), cute (with matrix: the operand as a CuTe "
             "layout, C++) or gluon (with matrix: Python binding a Triton Gluon layout; "
             "docs/exports.md). ld: fixed leading dimension; order: row or "
             "col; prefix: function name prefix; lds: the tiles are in LDS. "
             + ARCHITECTURE + " " + MATRIX + " Equals --emit hip|probe|cute|gluon "
             "(docs/hip.md). "
             "Result: {'text': the code}, or the --linear-layout --json document."),
        Tool(calculate, "Any other command line of the calculator, answered as the command "
             "line answers it (for what the typed tools do not cover: --compare, "
             "--preshuffle, --store-d, --list-products, --json-schema, -o, ...). command: "
             "the arguments as one string, e.g. '-a cdna3 -i v_mfma_f32_32x32x8_f16 -R -A "
             "--format csv' (a leading matrix-calculator is dropped); add --json for a "
             "structured result, else the result is {'text': output}. --batch, --serve "
             "and --mcp are refused. Run 'calculate(\"-h\")' for every option."),
    )


# ---- the server (the SDK, imported at the --mcp boundary)

P = ParamSpec("P")


def _reporting(function: Callable[P, Result], error: type[Exception]) -> Callable[P, Result]:
    """`function` with CommandFailed raised as the SDK's tool error `error` (its message
    reaches the agent; any other exception would reach it as a bare failure)."""
    @wraps(function)
    def tool(*args: P.args, **kwargs: P.kwargs) -> Result:
        try:
            return function(*args, **kwargs)
        except CommandFailed as failed:
            raise error(str(failed)) from None
    return tool  # (wraps keeps the signature, which the SDK reads)


INSTRUCTIONS = ("Where every element of a GPU matrix instruction's A, B, C and "
                "D lives (VGPR, lane, bits), the instruction's facts, LDS and copy plans, "
                "budgets and code. Each tool is one command line of matrix-calculator; "
                "docs/agents.md has a worked session.")


def serve(words: Sequence[str]) -> int:
    """--mcp: the MCP server on standard input and output, until the client closes it;
    without the SDK, one line on how to install it (status 2)."""
    extra = [w for w in words if w != "--mcp"]
    if extra:
        sys.stderr.write(error_line(f"--mcp takes no other option, not {extra[0]!r}") + "\n")
        return 2
    try:  # the --mcp boundary: the SDK loads only here
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        sys.stderr.write(error_line(INSTALL) + "\n")
        return 2
    server = MCPServer("matrix-calculator", version=__version__, instructions=INSTRUCTIONS,
                       log_level="WARNING")
    for tool in tools():
        server.add_tool(_reporting(tool.function, ToolError), name=tool.function.__name__,
                        description=tool.description)
    server.run("stdio")
    return 0
