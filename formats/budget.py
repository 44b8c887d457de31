"""Renderers of the products and budgets answers: the product list (--list-products:
text, a table format, JSON), an instruction's peak on a product (-d --product, --catalog --product)
and a block tile's budget (--budget: text and JSON). Every figure is printed with the
source it comes from (instructions/products.py SOURCES)."""
from __future__ import annotations

from instructions.model import Instruction
from instructions.products import LIMITS, SOURCES

from formats import LEGACY, documents, render
from formats.catalog import HEADER, row
from formats.json_output import dump
from matrix_library import api
from matrix_library.api import Budget, Facts, GpuProduct, Limits, Peak

Json = dict[str, object]

PRODUCT_HEADER = ["product", "architecture", "target", "CUs", "peak clock (MHz)",
                  "memory (GB)", "memory", "bandwidth (GB/s)", "sources", "notes"]
LIMIT_HEADER = ["architecture", "unit", "SIMDs/unit", "waves/SIMD", "VGPRs/SIMD (granule)",
                "AGPRs", "addressable VGPRs", "LDS/unit (KiB)", "LDS/workgroup (KiB)",
                "workgroups/unit"]


def _blank(value: object) -> object:
    return "" if value is None else value


def _number(value: float) -> str:
    return f"{value:g}"


def product_rows(products: tuple[GpuProduct, ...]) -> list[list[object]]:
    return [[p.name, p.arch.lower(), p.target, _blank(p.cus), _blank(p.clock), p.memory,
             p.memory_kind, _number(p.bandwidth), " ".join(p.sources), p.notes]
            for p in products]


def _vgprs(limits: Limits) -> str:
    return ", ".join(f"w{w}: {total} ({granule})" for w, total, granule in limits.vgprs)


def limit_rows() -> list[list[object]]:
    return [[lim.arch.lower(), lim.unit, lim.simds, lim.waves, _vgprs(lim), lim.agprs,
             lim.addressable, lim.lds // 1024, lim.lds_group // 1024, lim.barriers]
            for lim in LIMITS]


def products_text(products: tuple[GpuProduct, ...]) -> str:
    """--list-products as text: the products, the architectures' limits, the sources."""
    lines = ["Products (figures from the sources named; --json for all fields):",
             render("grid", PRODUCT_HEADER[:-1], [r[:-1] for r in product_rows(products)]),
             "", "Notes:"]
    lines += [f"  {p.name}: {p.notes}" for p in products if p.notes]
    lines += ["", "Limits per architecture (LLVM 22's occupancy model; VGPRs per SIMD and "
              "allocation granule per wave size; workgroups/unit: of more than one wave):",
              render("grid", LIMIT_HEADER, limit_rows()), "", "Sources:"]
    lines += [f"  {key}: {text}" for key, text in SOURCES.items()]
    return "\n".join(lines) + "\n"


def products_table(fmt: str, products: tuple[GpuProduct, ...]) -> str:
    """--list-products --format FMT: the product table (csv, tsv, markdown, ...)."""
    rows = product_rows(products)
    if fmt in LEGACY:
        return render(fmt, PRODUCT_HEADER, rows) + "\n"
    return documents.render(fmt, documents.Query(None, catalog=(PRODUCT_HEADER, rows)))


def products_json(products: tuple[GpuProduct, ...]) -> str:
    return dump("products", products=[_product(p) for p in products],
                limits=[_limits(lim) for lim in LIMITS], sources=dict(SOURCES))


def _product(p: GpuProduct) -> Json:
    return {"name": p.name, "architecture": p.arch, "target": p.target, "cus": p.cus,
            "clock_mhz": p.clock, "memory_gb": p.memory, "memory_kind": p.memory_kind,
            "bandwidth_gbs": p.bandwidth, "sources": list(p.sources), "notes": p.notes or None}


def _limits(lim: Limits) -> Json:
    return {"architecture": lim.arch, "unit": lim.unit, "simds": lim.simds,
            "waves_per_simd": lim.waves,
            "vgprs": [{"wave": w, "per_simd": t, "granule": g} for w, t, g in lim.vgprs],
            "agprs": lim.agprs, "addressable": lim.addressable, "lds": lim.lds,
            "lds_per_workgroup": lim.lds_group, "workgroups": lim.barriers,
            "cus_per_unit": lim.cus_per_unit, "notes": lim.notes or None}


# ---- peaks

def scaled(flops: float) -> str:
    """FLOP/s in TFLOP/s (and PFLOP/s from 1000 T on)."""
    tera = flops / 1e12
    text = f"{tera:.1f} TFLOP/s"
    return text + f" ({tera / 1000:.2f} PFLOP/s)" if tera >= 1000 else text


def peak_text(inst: Instruction, peak: Peak) -> str:
    """The -d lines of the peak on a product."""
    product = api.find_product(peak.product)
    ops = "OPs" if inst.a_type.is_int else "FLOPs"
    kind = "effective (sparse: K counts the skipped zeros)" if peak.sparse else "dense"
    return (f"    Peak on {peak.product} ({kind}):\n"
            f"        {ops}/{peak.unit}/cycle x {peak.unit}s x clock: {peak.flops_per_cycle}"
            f" x {peak.units} x {peak.clock_mhz} MHz = {scaled(peak.flops)}\n"
            f"        Sources: {', '.join(product.sources)} (--list-products)\n")


def peak_json(peak: Peak) -> Json:
    return {"product": peak.product, "flops_per_cycle": peak.flops_per_cycle,
            "unit": peak.unit, "units": peak.units, "clock_mhz": peak.clock_mhz,
            "flops": peak.flops, "sparse": peak.sparse}


def row_peak(fact: Facts, product: GpuProduct) -> float | None:
    """The peak (FLOP/s) of a catalog row on `product`; None for another architecture's
    instruction or a figure that is missing."""
    rate = fact["flops_per_cycle"]
    if fact["architecture"] != product.arch or rate is None or product.cus is None \
            or product.clock is None:
        return None
    units = product.cus // api.architecture_limits(product.arch).cus_per_unit
    return float(rate) * units * product.clock * 1e6


def catalog_text(fmt: str, facts: list[Facts], product: GpuProduct,
                 peaks: list[float | None]) -> str:
    """--catalog --product: the catalog with a last column, the peak on the product."""
    header = [*HEADER, f"peak on {product.name} (TFLOP/s)"]
    rows = [[*row(f), "" if p is None else f"{p / 1e12:.1f}"] for f, p in zip(facts, peaks)]
    if fmt in LEGACY:
        return render(fmt, header, rows) + "\n"
    return documents.render(fmt, documents.Query(None, catalog=(header, rows)))


# ---- budgets

def budget_text(inst: Instruction, wave: int, result: Budget,
                product: GpuProduct | None) -> str:
    """--budget as text: the tile, each register and LDS item, occupancy, intensity and
    the roofline against a product."""
    m, n, k = result.block
    occ = result.occupancy
    files = {"v": "VGPRs", "a": "AGPRs", "lds": "bytes LDS"}
    lines = [f"Budget of a {m}x{n} block tile of {inst.name} (wave{wave}, {result.threads} "
             f"threads), K {k} per LDS stage:", "    Per wave:"]
    for part in result.parts:
        note = f"  ({part.note})" if part.note else ""
        lines.append(f"        {part.name}: {part.copies} x {part.each} = {part.total} "
                     f"{files[part.file]}{note}")
    regs = f"{result.vgprs} VGPRs" + (f" + {result.agprs} AGPRs" if result.agprs else "")
    lines += [f"    Registers: {regs} (estimate; the data alone needs {result.least}), "
              f"allocated {result.allocated}",
              f"    LDS: {result.lds} bytes per workgroup",
              f"    Occupancy: {occ.waves} waves per SIMD, bound by "
              f"{' and '.join(occ.binding)}; {occ.groups} workgroups = "
              f"{occ.waves_per_unit} waves per {api.architecture_limits(inst.arch).unit}",
              "        limits: " + ", ".join(f"{name} {n}" for name, n in occ.limits),
              *([] if occ.resident else [
                  f"        A workgroup of {result.threads} threads needs more waves per SIMD "
                  "than that: it cannot be resident (LLVM may find no registers)"]),
              f"    Arithmetic intensity: {result.intensity_global:.1f} FLOPs per byte from "
              f"global memory, {result.intensity_lds:.1f} per byte read from LDS"]
    if result.roofline is not None and product is not None:
        compute, memory = (value for _, value in result.roofline)
        lines += [f"    Roofline on {product.name}: compute {scaled(compute)}, memory "
                  f"{_number(product.bandwidth)} GB/s x {result.intensity_global:.1f} = "
                  f"{scaled(memory)}: {result.bound}-bound",
                  f"        Sources: {', '.join(product.sources)} (--list-products)"]
    lines.append("    The limits: LLVM 22 (clang-22) and instructions/products.py "
                 "(--list-products); docs/budget.md")
    return "\n".join(lines) + "\n"


def budget_json(inst: Instruction, wave: int, result: Budget,
                product: GpuProduct | None) -> str:
    occ = result.occupancy
    return dump("budget", architecture=inst.arch, instruction=inst.name, wave=wave,
                product=None if product is None else product.name,
                block={"m": result.block[0], "n": result.block[1], "k": result.block[2]},
                threads=result.threads,
                parts=[{"name": p.name, "count": p.copies, "each": p.each, "total": p.total,
                        "file": p.file, "note": p.note or None} for p in result.parts],
                vgprs=result.vgprs, agprs=result.agprs, least=result.least,
                allocated=result.allocated, lds=result.lds,
                occupancy={"waves_per_simd": occ.waves, "binding": list(occ.binding),
                           "limits": dict(occ.limits),
                           "workgroups": occ.groups, "waves_per_unit": occ.waves_per_unit,
                           "resident": occ.resident},
                intensity={"global": result.intensity_global, "lds": result.intensity_lds},
                roofline=None if result.roofline is None else
                dict(result.roofline, bound=result.bound))
