"""Text of the small modes: -L, --list-architectures and
--linear-layout as text (their JSON documents: json_output), rendered from the library's answers."""
from __future__ import annotations

from formats.queries import header

TYPE_CHECKING = False
if TYPE_CHECKING:
    from instructions import Architecture
    from instructions.model import Instruction

    from matrix_library.typed import LinearLayoutBases


def listing(arch: Architecture) -> str:
    lines = [f"Available instructions in the {arch.name} architecture:"]
    lines += [f"    {inst.mnemonic}" for inst in arch.instructions]
    return "\n".join(lines) + "\n"


def architecture_lines(indent: str = "  ") -> list[str]:
    """One line per architecture: its name, wave sizes and aliases, in aligned columns."""
    from instructions import ARCHITECTURES
    rows = [(a.name.lower(), "wave" + "/".join(map(str, a.waves)), ", ".join(a.aliases))
            for a in ARCHITECTURES]
    name_width = max(len(name) for name, _, _ in rows)
    wave_width = max(len(waves) for _, waves, _ in rows)
    return [f"{indent}{name:{name_width}}  {waves:{wave_width}}  {aliases}".rstrip()
            for name, waves, aliases in rows]


def target_lines(indent: str = "  ") -> list[str]:
    """One line per LLVM target the -a option reads that is not an alias, or is generic
    or provisional: what it answers with and its sources (instructions/targets.py)."""
    from instructions import ARCHITECTURES
    from instructions.targets import TARGETS
    aliases = {alias for arch in ARCHITECTURES for alias in (arch.name.lower(), *arch.aliases)}
    return [indent + t.summary() for t in TARGETS
            if t.name not in aliases or t.generic or t.provisional]


def architectures() -> str:
    return "\n".join(["Architectures (name, wave sizes, aliases):"]
                     + architecture_lines()
                     + ["", "LLVM targets beyond the aliases (a target ID's features, "
                        "as gfx942:sramecc+:xnack-, are read too):"]
                     + target_lines()) + "\n"


ARCHITECTURE_HEADER = ("architecture", "waves", "aliases", "instructions")


def architecture_rows() -> list[list[object]]:
    from instructions import ARCHITECTURES
    return [[a.name.lower(), "/".join(map(str, a.waves)), " ".join(a.aliases),
             len(a.instructions)] for a in ARCHITECTURES]


def architectures_table(fmt: str) -> str:
    """The architectures as a table in format `fmt` (legacy or --format)."""
    from formats import LEGACY, render
    header, rows = list(ARCHITECTURE_HEADER), architecture_rows()
    if fmt in LEGACY:
        return render(fmt, header, rows) + "\n"
    from formats import documents
    if fmt == "jsonl":  # JSON Lines: one architecture a line (the entries of --json)
        import json

        from instructions import ARCHITECTURES
        return "".join(json.dumps({"name": a.name, "waves": list(a.waves),
                                   "aliases": list(a.aliases),
                                   "instructions": len(a.instructions)},
                                  separators=(",", ":")) + "\n" for a in ARCHITECTURES)
    if fmt in documents.LONG_FORMS:
        from matrix_library.api import CalcError
        raise CalcError(f"--format {fmt} lists element locations: use it with -R or -M")
    return documents.render(fmt, documents.Query(None, catalog=(header, rows),
                                                 heading="Architectures"))


def linear_layout(inst: Instruction, matrix: str, wave: int,
                  result: LinearLayoutBases) -> str:
    """matrix_api.linear_layout's answer as text (--json: json_output.linear_layout)."""
    lines = [header(inst).rstrip("\n"), f"Matrix: {matrix} (wave{wave})",
             f"Out dims: {', '.join(result['out_dims'])}"]
    bases = result["bases"]
    if bases is None:
        lines.append(f"No linear layout: {result['reason']}")
    else:
        for name in result["in_dims"]:
            text = ", ".join("[" + ", ".join(map(str, b)) + "]"
                             for b in bases[name])
            lines.append(f"{name}: [{text}]")
    if result["note"]:
        lines.append(f"Note: {result['note']}")
    return "\n".join(lines) + "\n"
