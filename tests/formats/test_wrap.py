"""The -d line wrapper gives what textwrap gives, for every wrapped RDNA formula."""
import textwrap

from formats.detail import wrap
from formats.quirks import reference_formulas
from instructions import ARCHITECTURES
from layouts.formulas import formula_sections


def bodies():
    for arch in ARCHITECTURES:
        for inst in arch.instructions:
            if len(inst.wave_sizes) > 1:  # the RDNA texts are wrapped
                for forward, backward in (reference_formulas(inst)
                                          or formula_sections(inst)).values():
                    for label, text in forward + backward:
                        for body in (text,) if isinstance(text, str) else text[:2]:
                            yield f"    {label}: ", body


def test_wrap_equals_textwrap():
    checked = 0
    for lead, body in bodies():
        pad = " " * len(lead)
        for first in (lead, pad):
            for width in (40, 60, 96):
                assert wrap(body, width, first, pad) == textwrap.wrap(
                    body, width, initial_indent=first, subsequent_indent=pad), (body, width)
                checked += 1
    assert checked > 1000
