// The explorer's engine: what answers the page's questions. The page names it in
// <meta name="matrix-engine">: "server" (matrix-calculator --serve) asks the server's
// /api, which runs the command line; "pyodide" (the static site that
// matrix-calculator --export-site writes) runs the calculator itself in the page, in
// Pyodide, through the same functions (matrix_frontends/explorer/browser.py: the server's
// api_answer, and the command's main for window.matrixCalculator.run).
"use strict";

const ENGINE = (() => {
  const meta = document.querySelector('meta[name="matrix-engine"]');
  const kind = meta ? meta.getAttribute("content") : "server";
  const listeners = [];
  let said = "";
  const say = (text) => {
    said = text;
    for (const listener of listeners) listener(text);
  };
  const onProgress = (listener) => {
    listeners.push(listener);
    listener(said);
  };

  if (kind !== "pyodide") {
    const ask = async (path, text) => {  // (relative: the page may live below a folder)
      const response = await fetch(path.replace(/^\//, "") + (text ? "?" + text : ""));
      return { status: response.status, body: await response.text(),
        command: response.headers.get("X-Command-Line") || "" };
    };
    const run = async () => {
      throw new Error("matrixCalculator.run answers in the static site " +
        "(matrix-calculator --export-site DIR); this page asks the server's /api");
    };
    return { kind, ready: Promise.resolve(), ask, run, onProgress, timings: {} };
  }

  const base = new URL(meta.dataset.pyodide, document.baseURI).href;
  const timings = {};
  let python = null;
  const ready = (async () => {
    const started = performance.now();
    say("Loading Python (Pyodide) and the calculator…");
    const bundle = fetch(meta.dataset.bundle).then((response) => {
      if (!response.ok) throw new Error(`${meta.dataset.bundle}: HTTP ${response.status}`);
      return response.arrayBuffer();
    });
    const { loadPyodide } = await import(base + "pyodide.mjs");
    const pyodide = await loadPyodide({ indexURL: base });
    timings.pyodide = performance.now() - started;
    say("Starting the calculator…");
    pyodide.unpackArchive(await bundle, "zip", { extractDir: "/calculator" });
    pyodide.runPython("import sys\nsys.path.insert(0, '/calculator')\nsys.argv = ['matrix-calculator']");
    python = pyodide.pyimport("matrix_frontends.explorer.browser");
    timings.ready = performance.now() - started;
    say("");
  })();
  ready.catch((problem) => say(`The calculator could not be loaded: ${problem.message}`));
  if ("serviceWorker" in navigator && window.isSecureContext) {
    // (offline once loaded: sw.js keeps the site's files, files.json, in the cache)
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
  const ask = async (path, text) => {
    await ready;
    const [status, body, , command] = JSON.parse(python.ask(path, text || ""));
    return { status, body, command };
  };
  const run = async (argv) => {
    if (!Array.isArray(argv) || !argv.every((word) => typeof word === "string")) {
      throw new TypeError("matrixCalculator.run takes an array of strings, the words of " +
        "a command line after matrix-calculator");
    }
    await ready;
    return JSON.parse(python.run(JSON.stringify(argv)));
  };
  return { kind, ready, ask, run, onProgress, timings };
})();

// The page's API, for tests and for pages that embed the explorer:
//   await matrixCalculator.run(["-a", "cdna3", "-i", "v_mfma_f32_32x32x8_f16", "-g", "-A"])
// gives {status, stdout, stderr}: what matrix-calculator prints for those words.
window.matrixCalculator = Object.freeze({
  engine: ENGINE.kind, ready: ENGINE.ready, run: ENGINE.run, timings: ENGINE.timings });
