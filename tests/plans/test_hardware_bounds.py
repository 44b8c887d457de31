"""Every whole-number option of an LDS or copy plan, and a budget's waves per workgroup,
is bounded by the hardware: the largest value that fits the architecture's limit is
planned, one more is refused with one line naming the option and the limit it breaks
(LDS bytes, VGPRs, a workgroup's work-items, a descriptor field's width, a row's
chunks)."""
import pytest

from layouts.core import CalcError
from matrix_library import api as mc
from matrix_library.bounds import WORKGROUP_ITEMS
from tests.helpers import call

CDNA3 = ["-a", "cdna3", "-i", "v_mfma_f32_16x16x16_f16", "-A"]
SMALL = [*CDNA3, "--lds-tile", "16x16"]
TDM = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16", "-A", "--lds-tile", "16x32",
       "--copy", "tensor_load_to_lds"]
ASYNC = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16", "-A", "--lds-tile", "16x32",
         "--copy", "global_load_async_to_lds_b128"]
BUFFER = [*SMALL, "--copy", "buffer_load_dwordx4"]
BUDGET = ["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "--budget", "--wave-tile", "2x2",
          "--product", "mi300x"]
BUDGET32 = ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x32_f16", "--budget"]

# (the plan at the limit, the same one past it, what the refusal says)
CASES = {
    "lds-tile": ([*CDNA3, "--lds-tile", "16x2048"], [*CDNA3, "--lds-tile", "16x2064"],
                 ("--lds-tile:", "65536 bytes of LDS")),
    "lds-pad": ([*SMALL, "--lds-pad", "2032"], [*SMALL, "--lds-pad", "2033"],
                ("--lds-tile:", "65536 bytes of LDS")),
    "lds-base": ([*SMALL, "--lds-base", "65024"], [*SMALL, "--lds-base", "65025"],
                 ("--lds-base:", "65536 bytes of LDS")),
    "k-steps": ([*CDNA3, "--lds-tile", "16x2048", "--k-steps", "128"],
                [*SMALL, "--k-steps", "257"], ("--k-steps:", "514 VGPRs", "512 one CDNA3")),
    "waves, wave64": ([*BUFFER, "--waves", "16"], [*BUFFER, "--waves", "17"],
                      ("--waves", "1 to 16 waves", "1,024 work-items")),
    "waves, wave32": ([*ASYNC, "--waves", "32"], [*ASYNC, "--waves", "33"],
                      ("--waves", "1 to 32 waves", "32 lanes")),
    "waves-per-group, wave64": ([*BUDGET, "--waves-per-group", "4x4"],
                                [*BUDGET, "--waves-per-group", "8x8"],
                                ("--waves-per-group: 8x8 waves", "4,096 work-items",
                                 "the 1,024 a workgroup holds", "at most 16 waves of 64")),
    "waves-per-group, one number": ([*BUDGET, "--waves-per-group", "16"],
                                    [*BUDGET, "--waves-per-group", "17"],
                                    ("--waves-per-group: 17x1 waves", "1,088 work-items")),
    "waves-per-group, wave32": ([*BUDGET32, "--waves-per-group", "4x8"],
                                [*BUDGET32, "--waves-per-group", "4x9"],
                                ("--waves-per-group: 4x9", "1,152 work-items",
                                 "at most 32 waves of 32 lanes")),
    "tdm-pad-interval": ([*TDM, "--tdm-pad-interval", "256", "--tdm-pad-amount", "1"],
                         [*TDM, "--tdm-pad-interval", "512", "--tdm-pad-amount", "1"],
                         ("--tdm-pad-interval:", "2 to 256 dwords")),
    "tdm-pad-amount": ([*TDM, "--tdm-pad-interval", "256", "--tdm-pad-amount", "128"],
                       [*TDM, "--tdm-pad-interval", "256", "--tdm-pad-amount", "129"],
                       ("--tdm-pad-amount:", "1 to 128 dwords")),
    "lds-swizzle": ([*SMALL, "--lds-swizzle", "4,1,4"], [*SMALL, "--lds-swizzle", "4,1,5"],
                    ("--lds-swizzle:", "4 chunks of 4", "at most 4")),
}


@pytest.mark.parametrize("case", CASES)
def test_the_hardware_limit_is_planned_and_one_past_it_refused(case):
    fits, over, texts = CASES[case]
    status, out, err = call(fits)
    assert status == 0 and out and not err, (status, err)
    status, out, err = call(over)
    assert status == 2 and out == "" and err.count("\n") == 1, (status, out[:200], err)
    for text in texts:
        assert text in err, err


@pytest.mark.parametrize("arch, name, wave", [("cdna3", "v_mfma_f32_16x16x16_f16", 64),
                                              ("gfx1250", "v_wmma_f32_16x16x32_f16", 32)])
def test_the_library_bounds_a_copys_waves_by_a_workgroups_work_items(arch, name, wave):
    inst = mc.find_instruction(arch, name)
    copy = "buffer_load_dwordx4" if wave == 64 else "global_load_async_to_lds_b128"
    tile = "16x16" if wave == 64 else "16x32"
    most = WORKGROUP_ITEMS // wave
    assert mc.lds_copy(inst, "A", tile=tile, copy=copy, waves=most).copy is not None
    with pytest.raises(CalcError) as refused:
        mc.lds_copy(inst, "A", tile=tile, copy=copy, waves=most + 1)
    assert refused.value.argument == "waves" and f"1 to {most} waves" in str(refused.value)


@pytest.mark.parametrize("arch, name, wave", [("cdna3", "v_mfma_f32_32x32x8_f16", 64),
                                              ("gfx1250", "v_wmma_f32_16x16x32_f16", 32)])
def test_the_library_bounds_a_budgets_waves_by_a_workgroups_work_items(arch, name, wave):
    inst = mc.find_instruction(arch, name)
    most = WORKGROUP_ITEMS // wave
    assert mc.budget(inst, waves=(most, 1)).tile.waves == (most, 1)
    assert mc.budget(inst, waves=most).tile.waves == (most, 1)
    for over in ((most + 1, 1), (2, most // 2 + 1), most + 1):
        with pytest.raises(CalcError) as refused:
            mc.budget(inst, waves=over)
        assert refused.value.argument == "waves"
        assert f"at most {most} waves of {wave} lanes" in str(refused.value)


def test_the_explorer_and_the_mcp_server_refuse_a_budget_past_the_workgroup():
    from matrix_frontends import mcp_server
    from matrix_frontends.explorer import app
    query = {"arch": "cdna3", "inst": "v_mfma_f32_32x32x8_f16", "mode": "budget",
             "waves-per-group": "8x8"}
    status, body, _ = app.answer("json", query)
    assert status == 400 and "\n" not in body.strip()
    assert "--waves-per-group: 8x8 waves per workgroup are 4,096 work-items" in body
    with pytest.raises(mcp_server.CommandFailed) as refused:
        mcp_server.budget("cdna3", "v_mfma_f32_32x32x8_f16", waves_per_group="8x8")
    assert "4,096 work-items, over the 1,024 a workgroup holds" in str(refused.value)
