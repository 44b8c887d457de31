"""--mcp, the MCP server for coding agents (matrix_frontends/mcp_server.py), driven with
the SDK's own stdio client: the tools listed, each called with a valid and an invalid
argument, the point and layout tools equal to the command line's --json on a sample of
every architecture, 100 calls from concurrent sessions, a client that leaves mid-call,
and the session docs/agents.md shows. Without the SDK, --mcp says how to install it."""
import json
import re
import subprocess
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from matrix_frontends import mcp_server
from tests.helpers import call, missing

ROOT = Path(__file__).resolve().parents[2]
M32 = "v_mfma_f32_32x32x8_f16"
SCALED = "v_mfma_scale_f32_32x32x64_f8f6f4"
TOOLS = ("list_architectures", "list_instructions", "instruction_facts", "locate_element",
         "register_contents", "layout", "search_catalog", "lds_plan", "copy_plan",
         "convert_plan", "budget", "emit_code", "calculate")
CDNA3 = {"architecture": "cdna3", "instruction": M32}

# tool: (valid arguments, invalid arguments, a part of the invalid call's error line)
CALLS = {
    "list_architectures": ({}, {"format": "no-such-format"}, "no-such-format"),
    "list_instructions": ({"architecture": "cdna4", "filters": {"type": "fp4"}},
                          {"architecture": "cdna9"}, "cdna9"),
    "instruction_facts": ({"architecture": "mi355x", "instruction": SCALED,
                           "product": "mi355x"},
                          {"architecture": "cdna3", "instruction": "v_mfma_f32_32x32x8f16"},
                          "did you mean v_mfma_f32_32x32x8_f16"),
    "locate_element": ({**CDNA3, "matrix": "A", "i": 5, "k": 6},
                       {**CDNA3, "matrix": "A", "i": 500, "k": 6}, "use 0 to 31"),
    "register_contents": ({**CDNA3, "matrix": "B", "register": 1, "lane": 3},
                          {**CDNA3, "matrix": "B", "register": 1, "lane": 64}, "lane"),
    "layout": ({"architecture": "rdna3", "instruction": "v_wmma_f32_16x16x16_f16",
                "matrix": "C", "format": "markdown"},
               {**CDNA3, "matrix": "A", "format": "no-such-format"}, "no-such-format"),
    "search_catalog": ({"filters": {"type": ["fp8", "bf8"], "arch": "cdna3"}},
                       {"filters": {"colour": "red"}}, "unknown filter 'colour'"),
    "lds_plan": ({**CDNA3, "matrix": "A", "tile": "32x64"},
                 {**CDNA3, "matrix": "A", "tile": "32xx64"}, "--lds-tile"),
    "copy_plan": ({**CDNA3, "matrix": "A", "tile": "32x64",
                   "copy": "global_load_dwordx4+ds_write_b128"},
                  {**CDNA3, "matrix": "A", "tile": "32x64", "copy": "global_load_dwordx9"},
                  "global_load_dwordx9"),
    "convert_plan": ({"architecture": "cdna3", "source": f"{M32}:D", "target": f"{M32}:A"},
                     {"architecture": "cdna3", "source": f"{M32}:Q", "target": f"{M32}:A"},
                     "the source of a conversion is C or D, not 'Q'"),
    "budget": ({"architecture": "mi355x", "instruction": SCALED, "product": "mi355x",
                "wave_tile": "2x2", "waves_per_group": "2x2",
                "modifiers": {"cbsz": 4, "blgp": 4}},
               {"architecture": "mi355x", "instruction": SCALED, "product": "mi999"},
               "mi999"),
    "emit_code": ({**CDNA3, "language": "hip", "matrix": "A"},
                  {**CDNA3, "language": "fortran"}, "fortran"),
    "calculate": ({"command": f"-a cdna3 -i {M32} -g -A -I 5 -K 6 --json"},
                  {"command": "--batch -"}, "--batch is a command of its own"),
}


def sdk():
    """The SDK's client pieces; missing() where the mcp package is not installed."""
    try:
        import anyio
        from mcp.client.session import ClientSession
        from mcp.client.stdio import StdioServerParameters, stdio_client
    except ImportError:
        missing('the MCP SDK is not installed: pip install "matrix-calculator[mcp]"')
    return anyio, ClientSession, StdioServerParameters, stdio_client


PARAMETERS = {"command": sys.executable, "args": [str(ROOT / "matrix_calculator.py"), "--mcp"],
              "cwd": str(ROOT)}


async def open_session(stack, ClientSession, StdioServerParameters, stdio_client):
    streams = await stack.enter_async_context(stdio_client(StdioServerParameters(**PARAMETERS)))
    session = await stack.enter_async_context(ClientSession(*streams))
    await session.initialize()
    return session


class Client:
    """One server process and its session, held open for the module's tests by a task of
    anyio's blocking portal (a thread running the client's event loop)."""

    def __init__(self):
        self.anyio, *self.pieces = sdk()
        from anyio.from_thread import start_blocking_portal
        self.portals = start_blocking_portal()
        self.portal = self.portals.__enter__()
        self.held, (self.session, self.done) = self.portal.start_task(self.hold)

    async def hold(self, task_status):
        done = self.anyio.Event()
        async with AsyncExitStack() as stack:
            session = await open_session(stack, *self.pieces)
            task_status.started((session, done))
            await done.wait()

    def tools(self):
        return self.portal.call(self.session.list_tools).tools

    def call(self, name, arguments):
        return self.portal.call(self.session.call_tool, name, arguments)

    def close(self):
        self.portal.call(self.done.set)
        self.held.result(timeout=30)
        self.portals.__exit__(None, None, None)


@pytest.fixture(scope="module")
def client():
    opened = Client()
    yield opened
    opened.close()


def command_json(words):
    status, out, err = call([*words, "--json"])
    assert (status, err) == (0, ""), err
    return json.loads(out)


def result(answer):
    """The structured result of a successful call."""
    assert not answer.is_error, answer.content[0].text
    return answer.structured_content


# ---- the tools


def test_the_server_lists_every_tool_with_a_description_an_agent_can_act_on(client):
    tools = {tool.name: tool for tool in client.tools()}
    assert set(TOOLS) <= set(tools)
    for name in TOOLS:
        assert len(tools[name].description) > 150, name
    locate = tools["locate_element"]
    assert {"architecture", "instruction", "matrix", "i", "j", "k", "block", "wave",
            "modifiers"} <= set(locate.input_schema["properties"])
    assert "Example: locate_element(" in locate.description
    for text in ("CDNA modifiers", "RDNA modifiers", "gfx1250", "cbsz", "matrix_a_fmt"):
        assert text in locate.description, text


@pytest.mark.parametrize("name", TOOLS)
def test_each_tool_answers_a_valid_call_and_reports_an_invalid_one(client, name):
    valid, invalid, error = CALLS[name]
    answered = result(client.call(name, valid))
    assert answered.get("schema_version") == 1 or answered.get("text")
    failed = client.call(name, invalid)
    assert failed.is_error
    text = failed.content[0].text
    assert "Traceback" not in text and "\n" not in text.strip()
    if error:
        assert error in text, text


def test_locate_element_gives_what_g_json_gives(client):
    answered = result(client.call("locate_element", CALLS["locate_element"][0]))
    words = ["-a", "cdna3", "-i", M32, "-g", "-A", "-I", "5", "-K", "6"]
    assert answered == command_json(words)
    assert answered["locations"][0]["text"] == "v1{37}.[15:0]"


def test_a_misspelled_instruction_is_a_tool_error_with_the_did_you_mean_text(client):
    failed = client.call("locate_element", {"architecture": "cdna3", "instruction":
                                            "v_mfma_f32_32x32x8f16", "matrix": "A", "i": 5})
    assert failed.is_error
    status, _, err = call(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8f16", "-g", "-A", "-I", "5"])
    assert status == 2
    assert err.strip() in failed.content[0].text
    assert "did you mean v_mfma_f32_32x32x8_f16" in failed.content[0].text


def sample():
    """Two instructions of every architecture (the first and the last it lists; each
    has a D operand, which the sample queries)."""
    cases = []
    for arch in (a["name"].lower() for a in command_json(["--list-architectures"])
                 ["architectures"]):
        listed = command_json(["-a", arch, "-L"])["instructions"]
        cases += [(arch, inst) for inst in dict.fromkeys((listed[0], listed[-1]))]
    return cases


@pytest.mark.parametrize("arch, inst", sample())
def test_point_and_layout_tools_equal_the_command_lines_json(client, arch, inst):
    base = {"architecture": arch, "instruction": inst}
    words = ["-a", arch, "-i", inst]
    assert result(client.call("locate_element", {**base, "matrix": "D", "i": 1, "j": 0})) == \
        command_json([*words, "-g", "-D", "-I", "1", "-J", "0"])
    assert result(client.call("register_contents", {**base, "matrix": "D", "register": 0,
                                                    "lane": 1})) == \
        command_json([*words, "-m", "-D", "-r", "0", "-l", "1"])
    assert result(client.call("layout", {**base, "matrix": "D"})) == \
        command_json([*words, "-R", "-D"])
    status, out, _ = call([*words, "-M", "-D", "--format", "csv"])
    assert result(client.call("layout", {**base, "matrix": "D", "view": "matrix",
                                         "format": "csv"})) == {"text": out}


def test_a_text_answer_is_the_command_lines_output(client):
    status, out, _ = call(["-a", "cdna3", "-i", M32, "--emit", "hip", "-A"])
    assert status == 0
    code = result(client.call("emit_code", {**CDNA3, "matrix": "A"}))["text"]
    assert code.splitlines()[1:] == out.splitlines()[1:]  # (line 1 records the command)


def test_calculate_answers_any_command_line_and_refuses_the_servers(client):
    assert result(client.call("calculate", {"command": "matrix-calculator -a cdna3 -L"})) \
        == {"text": call(["-a", "cdna3", "-L"])[1]}
    for command in ("--bat x", "--serve", "--mcp", "-a cdna3 -L --batch=-"):
        failed = client.call("calculate", {"command": command})
        assert failed.is_error, command
    failed = client.call("calculate", {"command": "-a 'cdna3"})
    assert failed.is_error and "cannot split" in failed.content[0].text


def test_modifiers_are_the_command_lines_with_their_names_checked(client):
    scaled = {"architecture": "mi355x", "instruction": SCALED, "matrix": "A", "i": 3, "k": 40}
    assert result(client.call("locate_element", {**scaled, "modifiers": {"cbsz": 4}})) == \
        command_json(["-a", "mi355x", "-i", SCALED, "-g", "-A", "-I", "3", "-K", "40",
                      "--cbsz", "4"])
    failed = client.call("locate_element", {**scaled, "modifiers": {"cbzs": 4}})
    assert failed.is_error and "unknown modifier 'cbzs'" in failed.content[0].text


# ---- concurrency and disconnects


def test_100_calls_from_concurrent_sessions_all_answer():
    anyio, *pieces = sdk()
    cases = [(name, CALLS[name][0 if n % 3 else 1]) for n, name in
             enumerate(("locate_element", "register_contents", "layout", "lds_plan",
                        "instruction_facts") * 20)]
    answers = {}

    async def session_calls(number):
        async with AsyncExitStack() as stack:
            session = await open_session(stack, *pieces)
            async with anyio.create_task_group() as group:
                for at in range(number, len(cases), 3):
                    group.start_soon(one, session, at)

    async def one(session, at):
        answers[at] = await session.call_tool(*cases[at])

    async def run():
        async with anyio.create_task_group() as group:
            for number in range(3):
                group.start_soon(session_calls, number)

    anyio.run(run)
    assert len(answers) == 100
    for at, (name, arguments) in enumerate(cases):
        assert answers[at].is_error == (arguments is CALLS[name][1]), (name, arguments)


def test_the_server_survives_a_client_that_leaves_mid_call():
    sdk()
    messages = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "test", "version": "0"}}},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                    "name": "search_catalog", "arguments": {"product": "mi355x"}}}]
    proc = subprocess.run([sys.executable, str(ROOT / "matrix_calculator.py"), "--mcp"],
                          input="".join(json.dumps(m) + "\n" for m in messages),
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr


# ---- without the SDK, and the command line around --mcp


def test_without_the_sdk_mcp_says_how_to_install_it(monkeypatch):
    for name in ("mcp", "mcp.server", "mcp.server.mcpserver",
                 "mcp.server.mcpserver.exceptions"):
        monkeypatch.setitem(sys.modules, name, None)
    status, out, err = call(["--mcp"])
    assert (status, out) == (2, "")
    assert 'pip install "matrix-calculator[mcp]"' in err and len(err.splitlines()) == 1


def test_mcp_takes_no_other_option_and_is_refused_where_a_line_is_answered():
    status, _, err = call(["--mcp", "-a", "cdna3"])
    assert status == 2 and "--mcp takes no other option" in err
    with pytest.raises(mcp_server.CommandFailed, match="run it as a command of its own"):
        mcp_server.answer(["--mcp"])
    status, out, err = call(["-h"])
    assert "--mcp" in out


# ---- the worked session of docs/agents.md


def documented_calls():
    """(tool, arguments, the result excerpt) of each call docs/agents.md shows."""
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    return [(name, json.loads(arguments), json.loads(excerpt)) for name, arguments, excerpt in
            re.findall(r"^```text\ncall (\w+) (\{[^\n]*\})\n```\n+```json\n(.*?)^```", text,
                       re.S | re.M)]


def within(excerpt, whole):
    """The excerpt's keys have the whole's values (lists: a leading part of them)."""
    if isinstance(excerpt, dict):
        return isinstance(whole, dict) and all(k in whole and within(v, whole[k])
                                               for k, v in excerpt.items())
    if isinstance(excerpt, list):
        return isinstance(whole, list) and len(excerpt) <= len(whole) and \
            all(within(e, w) for e, w in zip(excerpt, whole))
    return excerpt == whole


def test_the_documented_session_is_what_the_tools_answer(client):
    calls = documented_calls()
    assert {"instruction_facts", "locate_element", "lds_plan", "budget"} <= \
        {name for name, _, _ in calls}
    for name, arguments, excerpt in calls:
        answered = result(client.call(name, arguments))
        assert within(excerpt, answered), (name, arguments)


def test_the_documented_tool_error_is_the_servers(client):
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    arguments, shown = re.search(r"^call instruction_facts (\{[^\n]*\})\n```\n\n((?:    .*\n)+)",
                                 text, re.M).groups()
    failed = client.call("instruction_facts", json.loads(arguments))
    assert failed.is_error
    # (the installed command is named matrix-calculator; the tests run the clone's script)
    assert " ".join(shown.split()) == \
        failed.content[0].text.replace("matrix_calculator.py:", "matrix-calculator:")
