"""The explorer's server: --serve, the assets it serves (and nothing else),
/api answers equal to the command line's for the same query, its errors, and a bounded
loopback load test. The page itself is tested in a browser: test_explorer_browser.py."""
import http.client
import json
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

import pytest

from instructions.modifiers import MODIFIERS
from matrix_frontends.cli import command as matrix_cli
from matrix_frontends.cli import respond as cli_respond
from matrix_frontends.explorer import app as matrix_explorer
from tests.helpers import REPO, call
from tests.helpers.explorer_client import get, serving

ROOT = Path(__file__).resolve().parents[2]
M32 = "v_mfma_f32_32x32x8_f16"


@pytest.fixture(scope="module")
def server():
    yield from serving()


def api(server, endpoint, **query):
    return get(server, f"/api/{endpoint}?{urlencode(query)}")


def cli(argv):
    status, out, err = call(argv)
    return status, out, err


# ---- /api/json is --json: (query, the command line a user would type), written out here
# rather than derived, so that the explorer's translation is checked too.
SAMPLES = [
    ({"arch": "cdna3", "inst": M32, "matrix": "A", "mode": "g", "i": "5", "k": "6"},
     ["-a", "cdna3", "-i", M32, "-g", "-A", "-I", "5", "-K", "6"]),
    ({"arch": "cdna3", "inst": M32, "matrix": "B", "mode": "m", "register": "1", "lane": "3"},
     ["-a", "cdna3", "-i", M32, "-m", "-B", "-r", "1", "-l", "3"]),
    ({"arch": "cdna3", "inst": M32, "matrix": "C", "mode": "R"},
     ["-a", "cdna3", "-i", M32, "-R", "-C"]),
    ({"arch": "cdna3", "inst": M32, "matrix": "D", "mode": "M"},
     ["-a", "cdna3", "-i", M32, "-M", "-D"]),
    ({"arch": "cdna3", "inst": M32, "mode": "d"}, ["-a", "cdna3", "-i", M32, "-d"]),
    ({"arch": "rdna3", "mode": "L"}, ["-a", "rdna3", "-L"]),
    ({"arch": "cdna3", "inst": "v_mfma_f32_4x4x4_16b_f16", "matrix": "A", "mode": "R",
      "cbsz": "2", "abid": "1"},
     ["-a", "cdna3", "-i", "v_mfma_f32_4x4x4_16b_f16", "-R", "-A", "--cbsz", "2",
      "--abid", "1"]),
    ({"arch": "cdna3", "inst": "v_mfma_f32_4x4x4_16b_f16", "matrix": "B", "mode": "g",
      "blgp": "3", "j": "2", "k": "1", "block": "5"},
     ["-a", "cdna3", "-i", "v_mfma_f32_4x4x4_16b_f16", "-g", "-B", "--blgp", "3", "-J", "2",
      "-K", "1", "-b", "5"]),
    ({"arch": "rdna3", "inst": "v_wmma_f32_16x16x16_f16", "matrix": "A", "mode": "M",
      "wave": "64", "neg-hi": "1"},
     ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-M", "-A", "-w", "64", "--neg-hi",
      "1"]),
    ({"arch": "rdna4", "inst": "v_wmma_f32_16x16x16_f16", "matrix": "D", "mode": "g",
      "i": "9", "j": "3", "wave": "32"},
     ["-a", "rdna4", "-i", "v_wmma_f32_16x16x16_f16", "-g", "-D", "-I", "9", "-J", "3",
      "-w", "32"]),
    ({"arch": "cdna4", "inst": "v_mfma_f32_16x16x128_f8f6f4", "matrix": "A", "mode": "g",
      "cbsz": "4", "i": "3", "k": "100"},
     ["-a", "cdna4", "-i", "v_mfma_f32_16x16x128_f8f6f4", "-g", "-A", "--cbsz", "4", "-I",
      "3", "-K", "100"]),
    ({"arch": "gfx1250", "inst": "v_wmma_f32_16x16x128_f8f6f4", "matrix": "B", "mode": "R",
      "matrix-a-fmt": "fp4", "matrix-b-fmt": "fp6"},
     ["-a", "gfx1250", "-i", "v_wmma_f32_16x16x128_f8f6f4", "-R", "-B", "--matrix-a-fmt",
      "fp4", "--matrix-b-fmt", "fp6"]),
    ({"mode": "catalog", "type": "fp8", "kind": "wmma"},
     ["--catalog", "--filter", "type=fp8", "--filter", "kind=wmma"]),
    ({"arch": "cdna3", "mode": "catalog", "shape": "32x32x*"},
     ["-a", "cdna3", "--catalog", "--filter", "shape=32x32x*"]),
    # The budget panel's two questions
    ({"arch": "cdna4", "mode": "products"}, ["-a", "cdna4", "--list-products"]),
    ({"arch": "cdna3", "inst": M32, "mode": "budget", "wave-tile": "2x2",
      "waves-per-group": "2x2", "k-steps": "2", "lds-buffers": "3", "product": "MI300X"},
     ["-a", "cdna3", "-i", M32, "--budget", "--wave-tile", "2x2", "--waves-per-group", "2x2",
      "--k-steps", "2", "--lds-buffers", "3", "--product", "MI300X"]),
]


@pytest.mark.parametrize("query, argv", SAMPLES, ids=[str(n) for n in range(len(SAMPLES))])
def test_every_api_answer_is_what_json_prints(server, query, argv):
    status, out, err = cli(argv + ["--json"])
    assert status == 0 and err == "", err
    code, headers, body = api(server, "json", **query)
    assert (code, body) == (200, out)
    assert headers["Content-Type"].startswith("application/json")
    assert json.loads(body)["schema_version"] == 1
    shown = shlex.split(headers["X-Command-Line"])
    assert shown[0] == matrix_cli.program_name()
    assert cli(shown[1:]) == (0, out, "")  # the command line shown gives the same answer


def test_svg_text_and_hip_are_what_the_command_line_prints(server):
    base = {"arch": "cdna3", "inst": "v_mfma_f32_4x4x4_16b_f16", "matrix": "A", "cbsz": "2",
            "abid": "1"}
    argv = ["-a", "cdna3", "-i", "v_mfma_f32_4x4x4_16b_f16", "-A", "--cbsz", "2", "--abid", "1"]
    for view in ("R", "M"):
        code, headers, body = api(server, "svg", view=view, **base)
        assert (code, body) == (200, cli(argv + [f"-{view}", "--format", "svg"])[1])
        assert headers["Content-Type"].startswith("image/svg+xml")
        assert body.count('<rect class="cell"') > 16
    code, _, body = api(server, "hip", **base)
    assert (code, body) == (200, cli(argv + ["--emit", "hip"])[1])
    assert "__device__" in body
    code, _, body = api(server, "text", mode="d", arch="cdna3", inst=M32)
    assert (code, body) == (200, cli(["-a", "cdna3", "-i", M32, "-d"])[1])


# ---- conversions: mode=convert is --convert FROM TO with FROM = inst:matrix
M16 = "v_mfma_f32_16x16x16_f16"
CONVERSIONS = [
    ({"arch": "cdna3", "inst": M16, "matrix": "D", "convert": f"{M16}:B"},
     ["-a", "cdna3", "--convert", f"{M16}:D", f"{M16}:B"], "in-lane"),
    ({"arch": "cdna3", "inst": M16, "matrix": "D", "convert": f"{M16}:A"},
     ["-a", "cdna3", "--convert", f"{M16}:D", f"{M16}:A"], "cross-lane"),
    ({"arch": "cdna3", "inst": M16, "matrix": "D", "convert": f"{M16}:A", "transpose": "1"},
     ["-a", "cdna3", "--convert", f"{M16}:D", f"{M16}:A", "--transpose"], "in-lane"),
    ({"arch": "rdna3", "inst": "v_wmma_f32_16x16x16_f16", "matrix": "C", "wave": "64",
      "convert": "v_wmma_f32_16x16x16_f16:A"},
     ["-a", "rdna3", "--convert", "v_wmma_f32_16x16x16_f16:C", "v_wmma_f32_16x16x16_f16:A",
      "-w", "64"], None),
]


@pytest.mark.parametrize("query, argv, kind", CONVERSIONS,
                         ids=[str(n) for n in range(len(CONVERSIONS))])
def test_a_conversion_is_what_convert_prints(server, query, argv, kind):
    status, out, err = cli(argv + ["--json"])
    assert status == 0 and err == "", err
    code, headers, body = api(server, "json", mode="convert", **query)
    assert (code, body) == (200, out)
    plan = json.loads(body)
    assert plan["mode"] == "convert" and (kind is None or plan["class"] == kind)
    assert shlex.split(headers["X-Command-Line"])[1:] == argv + ["--json"]
    code, _, text = api(server, "text", mode="convert", **query)
    assert (code, text) == (200, cli(argv)[1]) and f"Class: {plan['class']}" in text
    code, headers, hip = api(server, "hip", **query)
    assert (code, hip) == (200, cli(argv + ["--emit", "hip"])[1]) and "__device__" in hip
    assert shlex.split(headers["X-Command-Line"])[1:] == argv + ["--emit", "hip"]


@pytest.mark.parametrize("query, argv", [
    ({"arch": "cdna3", "inst": M16, "matrix": "A", "convert": f"{M16}:A"},
     ["-a", "cdna3", "--convert", f"{M16}:A", f"{M16}:A"]),
    ({"arch": "cdna3", "inst": M16, "matrix": "D", "convert": f"{M32}:A"},
     ["-a", "cdna3", "--convert", f"{M16}:D", f"{M32}:A"]),
    ({"arch": "cdna3", "inst": M16, "matrix": "D", "convert": "v_nope:A"},
     ["-a", "cdna3", "--convert", f"{M16}:D", "v_nope:A"]),
    ({"arch": "cdna3", "inst": M16, "matrix": "D", "convert": f"{M16}:A", "cbsz": "9"},
     ["-a", "cdna3", "--convert", f"{M16}:D", f"{M16}:A", "--cbsz", "9"]),
], ids=["source A", "shapes", "unknown", "modifier"])
def test_a_bad_conversion_gets_400_and_the_command_lines_message(server, query, argv):
    status, out, err = cli(argv + ["--json"])
    assert status == 2 and out == "" and err.count("\n") == 1
    code, _, body = api(server, "json", mode="convert", **query)
    assert (code, body) == (400, err.rstrip("\n"))


@pytest.mark.parametrize("path, wanted", [
    (f"/api/json?arch=cdna3&inst={M16}&matrix=D&mode=convert", "convert= is missing"),
    (f"/api/json?arch=cdna3&inst={M16}&matrix=D&mode=R&convert={M16}:A",
     "unknown query name 'convert' (convert= goes with mode=convert)"),
    (f"/api/json?arch=cdna3&inst={M16}&matrix=D&mode=convert&convert={M16}:A&i=1",
     "unknown query name 'i'"),
    (f"/api/hip?arch=cdna3&inst={M16}&matrix=D&convert={M16}:A&transpose=maybe", "is a flag"),
])
def test_conversion_queries_the_explorer_cannot_translate(server, path, wanted):
    code, _, body = get(server, path)
    assert code == 400 and wanted in body and "\n" not in body


BAD = [
    ({"arch": "cdna3x", "mode": "L"}, ["-a", "cdna3x", "-L"]),
    ({"arch": "cdna3", "inst": "v_mfma_nope", "matrix": "A", "mode": "R"},
     ["-a", "cdna3", "-i", "v_mfma_nope", "-R", "-A"]),
    ({"arch": "cdna3", "inst": M32, "matrix": "A", "mode": "g", "i": "99"},
     ["-a", "cdna3", "-i", M32, "-g", "-A", "-I", "99"]),
    ({"arch": "cdna3", "inst": M32, "matrix": "A", "mode": "g", "i": "-1"},
     ["-a", "cdna3", "-i", M32, "-g", "-A", "--I-coordinate=-1"]),
    ({"arch": "cdna3", "inst": M32, "matrix": "A", "mode": "R", "cbsz": "2"},
     ["-a", "cdna3", "-i", M32, "-R", "-A", "--cbsz", "2"]),
    ({"arch": "cdna3", "inst": M32, "matrix": "A", "mode": "R", "neg": "1"},
     ["-a", "cdna3", "-i", M32, "-R", "-A", "--neg", "1"]),
    ({"arch": "rdna3", "inst": "v_wmma_f32_16x16x16_f16", "matrix": "A", "mode": "R",
      "wave": "48"},
     ["-a", "rdna3", "-i", "v_wmma_f32_16x16x16_f16", "-R", "-A", "-w", "48"]),
    ({"mode": "catalog", "type": "fp8", "shape": "16x"},
     ["--catalog", "--filter", "type=fp8", "--filter", "shape=16x"]),
    ({"arch": "cdna3", "inst": M32, "mode": "g"}, ["-a", "cdna3", "-i", M32, "-g"]),
]


@pytest.mark.parametrize("query, argv", BAD, ids=[str(n) for n in range(len(BAD))])
def test_bad_input_gets_400_and_the_command_lines_message(server, query, argv):
    status, out, err = cli(argv + ["--json"])
    assert status == 2 and out == "" and err.count("\n") == 1
    code, headers, body = api(server, "json", **query)
    assert (code, body) == (400, err.rstrip("\n"))
    assert headers["Content-Type"].startswith("text/plain")


@pytest.mark.parametrize("path, wanted", [
    ("/api/json?arch=cdna3&inst=x&mode=Q",
     "mode= takes L, d, g, m, R, M, catalog, convert, budget, products, lds, preshuffle, "
     "store, not 'Q'"),
    ("/api/json?arch=cdna3&mode=L&colour=red", "unknown query name 'colour'"),
    ("/api/json?arch=cdna3&arch=cdna2&mode=L", "arch= is given twice"),
    ("/api/svg?arch=cdna3&inst=x&matrix=A&view=Z", "view= takes R or M, not 'Z'"),
    ("/api/svg?arch=cdna3&inst=x&matrix=Q", "matrix= takes A, B, C, D, K, SA, SB, not 'Q'"),
    ("/api/svg?arch=gfx1250&inst=x&matrix=A&matrix-a-reuse=maybe", "is a flag"),
    ("/api/svg?arch=cdna3&inst=x&mode=R", "unknown query name 'mode'"),
])
def test_queries_the_explorer_cannot_translate_get_400_and_one_line(server, path, wanted):
    code, _, body = get(server, path)
    assert code == 400 and wanted in body and "\n" not in body
    assert body.startswith(f"{matrix_cli.program_name()}: error: ")


def test_the_page_and_its_assets_are_served_from_the_package(server):
    folder = ROOT / "formats" / "explorer"
    for path, name, kind in [("/", "index.html", "text/html"),
                             ("/index.html", "index.html", "text/html"),
                             ("/explorer.js", "explorer.js", "text/javascript"),
                             ("/explorer_plans.js", "explorer_plans.js", "text/javascript"),
                             ("/engine.js", "engine.js", "text/javascript"),
                             ("/sw.js", "sw.js", "text/javascript"),
                             ("/explorer.css", "explorer.css", "text/css")]:
        code, headers, body = get(server, path)
        assert code == 200 and headers["Content-Type"].startswith(kind)
        assert body == (folder / name).read_text(encoding="utf-8")
    page = (folder / "index.html").read_text(encoding="utf-8")
    # (relative: the static site's page may live below a folder, /REPOSITORY/ on Pages)
    assert re.findall(r'(?:src|href)="([^"]+)"', page) == [
        "data:,", "explorer.css", "engine.js", "explorer.js", "explorer_plans.js"]
    assert '<meta name="matrix-engine" content="server">' in page  # (--serve: ask /api)
    # offline: no CDN, no web
    for name in ("index.html", "explorer.js", "explorer_plans.js", "explorer.css",
                 "engine.js", "sw.js"):
        assert not re.search(r"https?:|//[a-z]", (folder / name).read_text(encoding="utf-8")
                             .replace("http://www.w3.org", "")), name


@pytest.mark.parametrize("path", [
    "/nope", "/api", "/api/", "/api/jsonx", "/api/json/../../matrix_cli.py",
    "/../matrix_cli.py", "/%2e%2e/matrix_cli.py", "/..%2fmatrix_cli.py",
    "/explorer.js/../../../matrix_cli.py", "//etc/passwd", "/formats/explorer/index.html",
    "/formats/output.schema.json", "/matrix_explorer.py", "/%2Fetc%2Fpasswd",
    "/explorer.js%00.html", "/.", "/..", "/index.html/",
])
def test_nothing_but_the_assets_is_served(server, path):
    code, _, body = get(server, path)
    assert code == 404, body
    assert "import" not in body and "root:" not in body


def test_the_modifiers_offered_are_the_modifier_tables(server):
    code, _, body = get(server, "/api/options")
    offered = json.loads(body)
    assert code == 200 and [m["name"] for m in offered] == [s.name for s in MODIFIERS]
    spellings = set(matrix_cli.spellings())
    for spec, table in zip(offered, MODIFIERS):
        assert spec["option"] == "--" + spec["key"] and spec["option"] in table.options
        assert spec["option"] in spellings  # (the command line takes it)
        assert (spec["help"], spec["names"], spec["flag"]) == \
            (table.help, list(table.names), table.flag)
    by_key = {m["key"]: m for m in offered}
    assert by_key["matrix-a-fmt"]["names"] == ["fp8", "bf8", "fp6", "bf6", "fp4"]
    assert by_key["neg-hi"]["option"] == "--neg-hi"
    assert by_key["matrix-a-reuse"]["flag"] and not by_key["cbsz"]["flag"]


def test_importing_the_explorer_loads_no_server_or_argparse():
    """The explorer's options are rows of the command line's option table (cli_options);
    importing the explorer loads neither the HTTP server nor argparse until it serves."""
    code = ("import sys, matrix_calculator; from matrix_frontends.explorer "
            "import app as matrix_explorer; print(sorted(m for m in ("
            "'argparse', 'http.server') if m in sys.modules)); "
            "print(len(matrix_explorer.CLI_OPTIONS))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout == "[]\n3\n"
    dests = [row[0] for row in matrix_explorer.CLI_OPTIONS]
    assert dests == ["serve", "port", "host"]
    for dest, spelling, metavar, text in matrix_explorer.CLI_OPTIONS:  # (the table's rows)
        assert spelling == f"--{dest}" and text
        assert (metavar is None) == (dest == "serve")


def test_200_concurrent_api_calls_are_all_answered_correctly(server):
    """A bounded loopback load test: 200 calls at once, from 200 threads, on 127.0.0.1."""
    assert server.server_address[0] == "127.0.0.1"
    queries = SAMPLES[:12]
    expected = [cli(argv + ["--json"])[1] for _, argv in queries]
    start = threading.Barrier(200, timeout=30)

    def one(n):
        query, _ = queries[n % len(queries)]
        start.wait()
        return n, api(server, "json", **query)

    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=200) as pool:
        answers = list(pool.map(one, range(200), timeout=90))
    took = time.monotonic() - began
    assert len(answers) == 200
    wrong = [n for n, (code, _, body) in answers
             if (code, body) != (200, expected[n % len(queries)])]
    assert wrong == []
    assert took < 90


# ---- the command: --serve [--port N] [--host H]

def test_serve_prints_its_url_first_and_stops_cleanly_on_ctrl_c():
    """(Run with Python's fault handler: a server that has not ended 60 s after Ctrl-C is
    sent SIGABRT, and the test fails with where each of its threads was.)"""
    proc = subprocess.Popen([sys.executable, "-X", "faulthandler",
                             str(ROOT / "matrix_calculator.py"), "--serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = proc.stdout.readline()
        match = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\n", line)
        assert match, line
        connection = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=30)
        connection.request("GET", "/api/json?arch=cdna3&mode=L")
        response = connection.getresponse()
        assert response.status == 200 and b'"mode": "list"' in response.read()
        connection.close()
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)
            out, err = proc.communicate(timeout=60)
            pytest.fail(f"the server did not end within 60 s of Ctrl-C:\n{err}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=60)
    assert (proc.returncode, out, err) == (0, "", "")


@pytest.mark.parametrize("argv, wanted", [
    (["--serve", "--port", "http"], "--port takes a port number 0 to 65535"),
    (["--serve", "--port", "70000"], "--port takes a port number 0 to 65535"),
    (["--serve", "--port"], "the --port option needs a value"),
    (["--serve", "-a", "cdna3"], "takes only --port N and --host H, not '-a'"),
])
def test_serve_refuses_bad_options_in_one_line(argv, wanted):
    status, out, err = cli(argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and wanted in err


def test_a_port_in_use_is_one_line_and_status_2(server):
    """(status 2, as every error the command line can mend)"""
    port = server.server_address[1]
    status, out, err = cli(["--serve", "--port", str(port)])
    assert status == 2 and out == "" and err.count("\n") == 1
    assert f"cannot listen on 127.0.0.1 port {port}" in err
    page = " ".join((REPO / "docs" / "explorer.md").read_text(encoding="utf-8").split())
    assert f"already in use gives a one-line error and exit status {status}" in page


def test_a_defect_is_one_line_with_status_500_not_a_traceback(monkeypatch):
    def broken(_words):
        raise KeyError("oops")
    monkeypatch.setattr(cli_respond, "respond", broken)  # (the explorer answers through it)
    status, body, command = matrix_explorer.answer("json", {"arch": "cdna3", "mode": "L"})
    assert status == 500 and "\n" not in body and "internal error (KeyError" in body
    assert command.split()[1:] == ["-a", "cdna3", "-L", "--json"]


@pytest.mark.parametrize("value", ["cdna3\r\nX-Injected: 1", "cdna3\n", "cdna€", "\x00"])
def test_odd_values_get_the_command_lines_message_and_no_extra_header(server, value):
    code, headers, body = api(server, "json", arch=value, mode="L")
    status, out, err = cli(["-a", value, "-L", "--json"])
    assert (code, body) == (400, err.rstrip("\n")) and "\n" not in body
    assert "X-Injected" not in headers
    assert headers["X-Command-Line"].isascii() and "\n" not in headers["X-Command-Line"]


def test_help_lists_the_explorers_options():
    status, out, err = cli(["-h"])
    assert status == 0 and err == ""
    lines = out.splitlines()
    at = lines.index("layout explorer:")
    assert [line.split()[0] for line in lines[at + 1:] if line.startswith("  --")][:3] == \
        ["--serve", "--port", "--host"]
    said = " ".join(line.strip() for line in lines[at + 1:at + 8])
    for row in matrix_explorer.CLI_OPTIONS:
        assert " ".join(row[3].split()) in said
