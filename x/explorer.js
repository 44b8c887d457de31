// The explorer's page: every answer is the command line's (matrix-calculator), asked of
// its engine (engine.js: the server's /api, or the calculator itself in the page, in
// Pyodide, in the static site). The state lives in the address:
// arch, inst, matrix, view, wave, each modifier by its long option name, the catalog
// filters type, shape and kind, convert= and transpose= (a conversion plan, --convert),
// the budget's tile (wave-tile, waves-per-group, k-steps, lds-buffers, product: --budget),
// the plan panels' options (explorer_plans.js: lds-tile=, preshuffle=1, store-d=1, ...)
// and compare= (the second pane's differences).
"use strict";

const CORE = ["arch", "inst", "matrix", "view", "wave"];
const FILTERS = ["type", "shape", "kind"];
const CONVERT = ["convert", "transpose"];  // --convert's TO (INSTRUCTION:MATRIX), --transpose
const SOURCES = ["C", "D"];  // a conversion starts from the pane's C or D
const BUDGET = ["wave-tile", "waves-per-group", "k-steps", "lds-buffers", "product"];
const DEFAULTS = { arch: "cdna3", matrix: "A", view: "R" };
const MATRIX_NAMES = { A: "A", B: "B", C: "C", D: "D", K: "K (sparse indices)",
  SA: "SA (A scales)", SB: "SB (B scales)" };

let MODIFIERS = [];      // [{name, key, option, help, names, flag}] from /api/options
let ARCHITECTURES = [];  // architecture names, lower case, from the catalog
let TYPES = [];          // type keys of the catalog, for the type filter
let KINDS = [];          // instruction kinds of the catalog
let PLANS = [];          // the plan panels' modes and fields, from /api/plans
const panes = [];

function query(state) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(state)) {
    if (value !== "" && value !== undefined && value !== null) params.append(key, value);
  }
  return params.toString();
}

async function fetchText(path, state) {  // (the engine's answer for an /api path)
  const answer = await ENGINE.ask(path, query(state));
  return { ok: answer.status === 200, body: answer.body, command: answer.command };
}

async function fetchJSON(path, state) {
  const answer = await fetchText(path, state);
  if (!answer.ok) throw new Error(answer.body);
  return JSON.parse(answer.body);
}

const answers = new Map();  // catalog and -d answers do not change while the server runs

function remembered(path, state) {
  const key = path + "?" + query(state);
  if (!answers.has(key)) {
    answers.set(key, fetchJSON(path, state).catch((problem) => {
      answers.delete(key);
      throw problem;
    }));
  }
  return answers.get(key);
}

function parseState(text) {
  const state = {};
  for (const [key, value] of new URLSearchParams(text)) state[key] = value;
  return state;
}

function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function controlsForm(...children) {  // (submitting it does nothing: no inline handler)
  const form = element("form", { class: "controls" }, ...children);
  form.addEventListener("submit", (event) => event.preventDefault());
  return form;
}

let pictureCount = 0;
const REFERENCES = '[fill^="url(#"], [stroke^="url(#"], [clip-path], [mask], [filter], ' +
  '[href^="#"]';

function showPicture(box, svg) {
  // Each picture's ids are made its own (picture3-neg): two pictures on one page (the
  // panes, the plan panels) each define the same ids, and a page control may bear one.
  box.innerHTML = svg;
  const prefix = `picture${++pictureCount}-`;
  const renamed = new Set();
  for (const node of box.querySelectorAll("[id]")) {
    renamed.add(node.id);
    node.id = prefix + node.id;
  }
  if (!renamed.size) return;
  const local = (match, id) => (renamed.has(id) ? match.replace(`#${id}`, `#${prefix}${id}`)
    : match);
  for (const node of box.querySelectorAll(REFERENCES)) {
    for (const attribute of [...node.attributes]) {
      const value = attribute.value.replace(/url\(#([^)]+)\)/g, local)
        .replace(/^#(.+)$/, local);
      if (value !== attribute.value) node.setAttribute(attribute.name, value);
    }
  }
}

function showCommand(code, text) {  // (lines break between words, never inside an option)
  const words = text.split(" ").filter(Boolean);
  code.replaceChildren(...words.flatMap((word, at) => [...(at ? [" "] : []),
    element("span", { class: "word", text: word })]));
}

function labelled(text, control) {
  return element("label", {}, element("span", { text }), control);
}

function fillSelect(select, choices, chosen) {
  select.replaceChildren(...choices.map(([value, text]) => {
    const option = element("option", { value, text });
    if (value === chosen) option.selected = true;
    return option;
  }));
}

class Pane {
  constructor(number, state) {
    this.number = number;
    this.state = Object.assign({}, state);
    this.serial = 0;
    const id = (name) => (number === 1 ? name : `${name}-${number}`);
    this.id = id;
    this.arch = element("select", { id: id("arch"), name: "arch" });
    this.type = element("input", { id: id("type"), name: "type", list: "types",
      placeholder: "any", size: "8" });
    this.shape = element("input", { id: id("shape"), name: "shape", placeholder: "MxNxK",
      size: "9" });
    this.kind = element("select", { id: id("kind"), name: "kind" });
    this.inst = element("select", { id: id("inst"), name: "inst" });
    this.matrix = element("select", { id: id("matrix"), name: "matrix" });
    this.view = element("select", { id: id("view"), name: "view" });
    fillSelect(this.view, [["R", "register layout (-R)"], ["M", "matrix layout (-M)"]], "R");
    this.wave = element("select", { id: id("wave"), name: "wave" });
    this.mods = element("fieldset", { class: "modifiers", id: id("modifiers") },
      element("legend", { text: "Modifiers" }));
    this.error = element("p", { class: "error", id: id("error"), role: "alert" });
    this.command = element("code", { id: id("command") });
    this.picture = element("div", { class: "picture", id: id("picture"), tabindex: "0",
      "aria-label": "layout picture: arrow keys move between cells" });
    this.readout = element("p", { class: "readout", id: id("readout"), "aria-live": "polite",
      text: "Hover a cell (or focus the picture and use the arrow keys)." });
    this.detail = element("pre", { class: "detail", id: id("detail") });
    this.hip = element("pre", { class: "hip", id: id("hip") });
    this.conversionPanel(id);
    this.budgetPanel(id);
    this.plans = PLANS.map((spec) => new PlanPanel(this, spec));
    const copyHip = element("button", { type: "button", id: id("copy-hip"),
      text: "Copy the HIP code" });
    const copyCommand = element("button", { type: "button", id: id("copy-command"),
      text: "Copy" });
    copyHip.addEventListener("click", () => copy(this.hip.textContent, copyHip));
    copyCommand.addEventListener("click", () => copy(this.command.textContent, copyCommand));
    this.root = element("section", { class: "pane", id: id("pane"),
      "aria-label": `pane ${number}` },
      controlsForm(
        labelled("Architecture", this.arch),
        element("fieldset", { class: "filters" }, element("legend", { text: "Filter" }),
          labelled("type", this.type), labelled("shape", this.shape),
          labelled("kind", this.kind)),
        labelled("Instruction", this.inst), labelled("Matrix", this.matrix),
        labelled("View", this.view), labelled("Wave", this.wave), this.mods),
      this.error,
      element("p", { class: "command" }, element("span", { text: "Command line: " }),
        this.command, copyCommand),
      this.picture, this.readout,
      element("details", { open: "" }, element("summary", { text: "Facts (-d)" }),
        this.detail),
      element("details", { open: "" }, element("summary", { text: "HIP code (--emit hip)" }),
        copyHip, this.hip),
      this.conv.root, this.budget.root, ...this.plans.map((plan) => plan.root));
    for (const name of ["arch", "kind", "inst", "matrix", "view", "wave"]) {
      this[name].addEventListener("change", () => this.set(name, this[name].value));
    }
    for (const name of ["type", "shape"]) {
      this[name].addEventListener("change", () => this.set(name, this[name].value.trim()));
    }
    this.picture.addEventListener("mouseover", (event) => {
      if (event.target.classList && event.target.classList.contains("cell")) {
        this.show(event.target);
      }
    });
    this.picture.addEventListener("focus", () => { if (!this.current) this.move(0, 0); });
    this.picture.addEventListener("keydown", (event) => this.key(event));
  }

  set(name, value) {
    if (value === "") delete this.state[name];
    else this.state[name] = value;
    if (name === "arch" || FILTERS.includes(name)) delete this.state.inst;
    if (name === "arch") for (const key of [...CONVERT, "product"]) delete this.state[key];
    if (name === "arch" || name === "inst" || FILTERS.includes(name)) {
      for (const spec of MODIFIERS) delete this.state[spec.key];
      delete this.state.wave;
      this.fresh = true;  // a matrix the new instruction lacks falls back to its first
    }
    this.render();
  }

  fail(message) {
    this.error.textContent = message;
    this.error.hidden = false;
  }

  async render() {
    const serial = ++this.serial;
    this.root.dataset.busy = "yes";
    try {
      await this.draw(serial);
    } finally {
      if (serial === this.serial) {
        if (panes.includes(this)) writeAddress();
        this.root.dataset.busy = "no";
      }
    }
  }

  async draw(serial) {
    const stale = () => serial !== this.serial;
    const s = this.state;
    this.error.hidden = true;
    this.error.textContent = "";
    for (const [key, value] of Object.entries(DEFAULTS)) if (!s[key]) s[key] = value;
    fillSelect(this.arch, ARCHITECTURES.map((a) => [a, a]), s.arch.toLowerCase());
    if (!ARCHITECTURES.includes(s.arch.toLowerCase())) {
      this.arch.append(element("option", { value: s.arch, text: s.arch, selected: "" }));
    }
    this.type.value = s.type || "";
    this.shape.value = s.shape || "";
    fillSelect(this.kind, [["", "any"], ...KINDS.map((k) => [k, k])], s.kind || "");
    fillSelect(this.view, [["R", "register layout (-R)"], ["M", "matrix layout (-M)"]], s.view);
    let names = [];
    let showcase = "";
    try {
      const filters = { mode: "catalog", arch: s.arch };
      for (const key of FILTERS) if (s[key]) filters[key] = s[key];
      const rows = (await remembered("/api/json", filters)).instructions;
      names = rows.map((row) => row.mnemonic.toLowerCase());
      // Opened without an instruction: a plain one-block dense f16 instruction, the kind
      // most kernels start from, rather than whatever the table lists first (xf32).
      const plain = rows.find((row) => row.blocks === 1 && !row.sparse &&
        row.types.A.key === "f16" && row.types.B.key === "f16");
      if (plain) showcase = plain.mnemonic.toLowerCase();
    } catch (problem) {
      if (stale()) return;
      this.fail(problem.message);
    }
    if (stale()) return;
    if (!s.inst && names.length) s.inst = showcase || names[0];
    const choices = names.map((n) => [n, n]);
    if (s.inst && !names.includes(s.inst.toLowerCase())) choices.unshift([s.inst, s.inst]);
    fillSelect(this.inst, choices, s.inst && names.includes(s.inst.toLowerCase())
      ? s.inst.toLowerCase() : s.inst);
    if (!s.inst) {
      this.clear();
      if (!this.error.textContent) this.fail("No instruction passes these filters.");
      return;
    }
    let facts;
    try {
      facts = (await remembered("/api/json", { mode: "d", arch: s.arch, inst: s.inst })).facts;
    } catch (problem) {
      if (stale()) return;
      this.clear();
      this.fail(problem.message);
      return;
    }
    if (stale()) return;
    const matrices = Object.keys(Object.values(facts.registers)[0]);
    if (this.fresh && !matrices.includes(s.matrix)) s.matrix = matrices[0];
    this.fresh = false;
    fillSelect(this.matrix, matrices.map((m) => [m, MATRIX_NAMES[m] || m]), s.matrix);
    if (!matrices.includes(s.matrix)) {
      this.matrix.append(element("option", { value: s.matrix, text: s.matrix, selected: "" }));
    }
    const waves = [["", `default (wave${facts.waves[0]})`],
      ...facts.waves.map((w) => [String(w), `wave${w}`])];
    fillSelect(this.wave, waves, s.wave || "");
    if (s.wave && !facts.waves.map(String).includes(s.wave)) {
      this.wave.append(element("option", { value: s.wave, text: s.wave, selected: "" }));
    }
    this.modifierControls(facts.modifiers);
    const picked = this.query(["view"]);
    const [picture, detail, hip] = await Promise.all([
      fetchText("/api/svg", picked),
      // (-d honours the modifiers that pick formats: CBSZ/BLGP on CDNA4, matrix-a-fmt ...)
      fetchText("/api/text", Object.assign({ mode: "d" }, this.query([]), { matrix: "" })),
      fetchText("/api/hip", this.query([]))]);
    if (stale()) return;
    showCommand(this.command, picture.command);
    this.current = null;
    if (picture.ok) {
      showPicture(this.picture, picture.body);
      this.cells = Array.from(this.picture.querySelectorAll("rect.cell"));
    } else {
      this.clear();
      this.fail(picture.body);
    }
    this.detail.textContent = detail.body;
    this.hip.textContent = hip.body;
    await this.drawConversion(stale);
    await this.drawBudget(stale);
    await Promise.all(this.plans.map((plan) => plan.draw(stale)));
  }

  budgetPanel(id) {
    const b = {};
    const text = (key, hint) => element("input", { type: "text", id: id(key), name: key,
      size: "6", placeholder: hint });
    b.controls = { "wave-tile": text("wave-tile", "1x1"),
      "waves-per-group": text("waves-per-group", "1x1"), "k-steps": text("k-steps", "1"),
      "lds-buffers": element("select", { id: id("lds-buffers"), name: "lds-buffers" }),
      product: element("select", { id: id("product"), name: "product" }) };
    fillSelect(b.controls["lds-buffers"], [["", "2 (default)"], ["1", "1"], ["2", "2"],
      ["3", "3"]], "");
    b.error = element("p", { class: "error", id: id("budget-error"), role: "alert" });
    b.error.hidden = true;
    b.command = element("code", { id: id("budget-command") });
    b.text = element("pre", { class: "plan", id: id("budget") });
    b.root = element("details", { class: "budget", id: id("budget-panel") },
      element("summary", { text: "Budget (--budget): registers, LDS, occupancy, roofline" }),
      controlsForm(
        ...Object.entries(b.controls).map(([key, control]) => labelled(`--${key}`, control))),
      b.error, element("p", { class: "command" },
        element("span", { text: "Command line: " }), b.command), b.text);
    for (const [key, control] of Object.entries(b.controls)) {
      control.addEventListener("change", () => this.set(key, control.value.trim()));
    }
    b.root.addEventListener("toggle", () => { if (b.root.open) this.render(); });
    this.budget = b;
  }

  async drawBudget(stale) {  // (asked for only while the panel is open)
    const b = this.budget;
    const s = this.state;
    if (BUDGET.some((key) => s[key])) b.root.open = true;
    if (!b.root.open) return;
    let products = [];
    try {
      products = (await remembered("/api/json", { mode: "products", arch: s.arch })).products
        .map((p) => p.name);
    } catch (problem) {
      products = [];  // (the pane already shows the architecture's message)
    }
    if (stale()) return;
    for (const key of ["wave-tile", "waves-per-group", "k-steps"]) {
      b.controls[key].value = s[key] || "";
    }
    fillSelect(b.controls["lds-buffers"], [["", "2 (default)"], ["1", "1"], ["2", "2"],
      ["3", "3"]], s["lds-buffers"] || "");
    const choices = [["", "none"], ...products.map((name) => [name, name])];
    if (s.product && !products.includes(s.product)) choices.push([s.product, s.product]);
    fillSelect(b.controls.product, choices, s.product || "");
    const answer = await fetchText("/api/text",
      Object.assign({ mode: "budget" }, this.query(BUDGET), { matrix: "" }));
    if (stale()) return;
    showCommand(b.command, answer.command);
    b.text.textContent = answer.ok ? answer.body : "";
    b.error.textContent = answer.ok ? "" : answer.body;
    b.error.hidden = answer.ok;
  }

  conversionPanel(id) {
    const c = {};
    c.inst = element("select", { id: id("convert-inst"), name: "convert-inst" });
    c.matrix = element("select", { id: id("convert-matrix"), name: "convert-matrix" });
    fillSelect(c.matrix, [["A", "A"], ["B", "B"]], "A");
    c.transpose = element("input", { type: "checkbox", id: id("transpose"), name: "transpose",
      title: "the source instruction was issued with A and B swapped (it computed D^T)" });
    c.note = element("p", { class: "note", id: id("convert-note") });
    c.error = element("p", { class: "error", id: id("convert-error"), role: "alert" });
    c.error.hidden = true;
    c.kind = element("strong", { class: "plan-class", id: id("convert-class") });
    c.command = element("code", { id: id("convert-command") });
    c.text = element("pre", { class: "plan", id: id("convert-plan") });
    c.steps = element("table", { class: "steps", id: id("convert-steps") });
    c.moves = element("table", { class: "moves", id: id("convert-moves") });
    c.movesBox = element("details", { id: id("convert-moves-box") },
      element("summary", { text: "Moves" }), c.moves);
    c.hip = element("pre", { class: "hip", id: id("convert-hip") });
    const copyCommand = element("button", { type: "button", id: id("copy-convert-command"),
      text: "Copy" });
    const copyHip = element("button", { type: "button", id: id("copy-convert-hip"),
      text: "Copy the HIP code" });
    copyCommand.addEventListener("click", () => copy(c.command.textContent, copyCommand));
    copyHip.addEventListener("click", () => copy(c.hip.textContent, copyHip));
    c.result = element("div", { class: "plan-result", id: id("convert-result") },
      element("p", {}, element("span", { text: "Class: " }), c.kind),
      element("p", { class: "command" }, element("span", { text: "Command line: " }),
        c.command, copyCommand),
      c.text, c.steps, c.movesBox,
      element("details", { open: "" },
        element("summary", { text: "HIP code (--convert ... --emit hip)" }), copyHip, c.hip));
    c.root = element("details", { open: "", class: "conversion", id: id("conversion") },
      element("summary", { text: "Conversion (--convert): this C or D into an A or B" }),
      controlsForm(
        labelled("Into instruction", c.inst), labelled("its matrix", c.matrix),
        labelled("--transpose", c.transpose)),
      c.note, c.error, c.result);
    const chosen = () => {
      if (c.inst.value) this.state.convert = `${c.inst.value}:${c.matrix.value}`;
      else delete this.state.convert;
      if (c.transpose.checked) this.state.transpose = "1";
      else delete this.state.transpose;
      this.render();
    };
    for (const control of [c.inst, c.matrix, c.transpose]) {
      control.addEventListener("change", chosen);
    }
    c.movesBox.addEventListener("toggle", () => this.fillMoves());
    this.conv = c;
  }

  async drawConversion(stale) {
    const c = this.conv;
    const s = this.state;
    const [target, matrix] = s.convert ? [s.convert.slice(0, s.convert.lastIndexOf(":")),
      s.convert.slice(s.convert.lastIndexOf(":") + 1)] : ["", "A"];
    let names = [];
    try {
      names = (await remembered("/api/json", { mode: "catalog", arch: s.arch })).instructions
        .map((row) => row.mnemonic.toLowerCase());
    } catch (problem) {
      names = [];  // (the pane already shows the catalog's message)
    }
    if (stale()) return;
    const choices = [["", "none"], ...names.map((n) => [n, n])];
    if (target && !names.includes(target.toLowerCase())) choices.push([target, target]);
    fillSelect(c.inst, choices, names.includes(target.toLowerCase()) ? target.toLowerCase()
      : target);
    const matrices = [["A", "A"], ["B", "B"]];
    if (!["A", "B"].includes(matrix)) matrices.push([matrix, matrix]);
    fillSelect(c.matrix, matrices, matrix);
    c.transpose.checked = ["1", "true", "yes", "on"].includes((s.transpose || "").toLowerCase());
    c.error.hidden = true;
    c.result.hidden = true;
    this.plan = null;
    if (!SOURCES.includes(s.matrix)) {
      c.note.textContent = "A conversion starts from this instruction's C or D: choose " +
        "matrix C or D above, then the instruction and matrix (A or B) it feeds.";
      return;
    }
    if (!s.convert) {
      c.note.textContent = `Choose the instruction whose A or B this ${s.matrix} feeds: ` +
        "the plan says which moves (none, in-lane or cross-lane) and instructions that takes.";
      return;
    }
    c.note.textContent = "";
    const asked = Object.assign(this.query([]), { convert: s.convert });
    if (c.transpose.checked) asked.transpose = "1";
    const [json, text, hip] = await Promise.all([
      fetchText("/api/json", Object.assign({ mode: "convert" }, asked)),
      fetchText("/api/text", Object.assign({ mode: "convert" }, asked)),
      fetchText("/api/hip", asked)]);
    if (stale()) return;
    if (!json.ok) {
      c.error.textContent = json.body;
      c.error.hidden = false;
      return;
    }
    this.plan = JSON.parse(json.body);
    c.kind.textContent = this.plan.class;
    c.kind.dataset.class = this.plan.class;
    showCommand(c.command, text.command);
    c.text.textContent = text.body;
    c.steps.replaceChildren(element("caption", { text: "Steps (per wave)" }),
      element("tr", {}, ...["instruction", "count", "purpose"].map(
        (h) => element("th", { scope: "col", text: h }))),
      ...this.plan.steps.map((step) => element("tr", {},
        element("td", { text: step.instruction }), element("td", { text: String(step.count) }),
        element("td", { text: step.purpose }))));
    c.movesBox.querySelector("summary").textContent =
      `Moves: where each of the ${this.plan.moves.length} destination slots comes from`;
    c.moves.replaceChildren();
    this.fillMoves();
    c.hip.textContent = hip.body;
    c.result.hidden = false;
  }

  fillMoves() {  // (built when opened: a plan may have thousands of slots)
    const c = this.conv;
    if (!c.movesBox.open || !this.plan || c.moves.rows.length) return;
    const where = (m) => [`#${m.fragment}`, String(m.lane), `v${m.register}`,
      `${m.bits[1]}:${m.bits[0]}`];
    const head = ["element", "fragment", "lane", "register", "bits", "from fragment",
      "lane", "register", "bits"];
    c.moves.append(element("tr", {}, ...head.map((h) => element("th", { scope: "col",
      text: h }))), ...this.plan.moves.map((m) => element("tr", {},
      ...[m.element, ...where(m), ...where(m.from)].map((t) => element("td", { text: t })))));
  }

  clear() {
    for (const plan of this.plans) plan.clear();
    this.conv.result.hidden = true;
    this.conv.note.textContent = "";
    this.plan = null;
    this.picture.replaceChildren();
    this.cells = [];
    this.detail.textContent = "";
    this.hip.textContent = "";
    this.command.textContent = "";
  }

  query(extra) {
    const s = this.state;
    const picked = {};
    for (const key of ["arch", "inst", "matrix", "wave", ...extra]) if (s[key]) picked[key] = s[key];
    for (const spec of MODIFIERS) if (s[spec.key]) picked[spec.key] = s[spec.key];
    return picked;
  }

  modifierControls(supported) {
    const legend = this.mods.querySelector("legend");
    const controls = [];
    for (const spec of MODIFIERS) {
      if (!supported.includes(spec.name)) continue;
      const value = this.state[spec.key] || "";
      let control;
      if (spec.flag) {
        control = element("input", { type: "checkbox", name: spec.key, id: this.id(spec.key) });
        control.checked = ["1", "true", "yes", "on"].includes(value.toLowerCase());
        control.addEventListener("change", () => this.set(spec.key, control.checked ? "1" : ""));
      } else if (spec.names.length) {
        control = element("select", { name: spec.key, id: this.id(spec.key) });
        const choices = spec.names.map((n, code) => [code ? n : "", `${n} (${code})`]);
        const chosen = /^\d+$/.test(value) && Number(value) > 0 ? spec.names[Number(value)]
          : (value.toLowerCase() === spec.names[0] ? "" : value);
        fillSelect(control, choices, chosen || "");
        if (chosen && !spec.names.includes(chosen)) {
          control.append(element("option", { value: chosen, text: chosen, selected: "" }));
        }
        control.addEventListener("change", () => this.set(spec.key, control.value));
      } else {
        control = element("input", { type: "number", min: "0", step: "1", name: spec.key,
          id: this.id(spec.key), placeholder: "0", size: "4" });
        control.value = value;
        control.addEventListener("change", () => this.set(spec.key,
          control.value === "0" ? "" : control.value));
      }
      control.title = spec.help;
      controls.push(labelled(spec.option, control));
    }
    if (!controls.length) controls.push(element("span", { class: "none", text: "none" }));
    this.mods.replaceChildren(legend, ...controls);
  }

  show(cell) {
    for (const old of this.picture.querySelectorAll("rect.cell.hl")) old.classList.remove("hl");
    this.current = cell;
    const names = (cell.dataset.e || "").split(" ").filter(Boolean);
    const wanted = new Set(names);
    let copies = 0;
    for (const other of this.cells) {
      const others = (other.dataset.e || "").split(" ");
      if (others.some((n) => wanted.has(n))) {
        other.classList.add("hl");
        copies += 1;
      }
    }
    this.readout.replaceChildren(
      element("span", { class: "r-element", text: names.join(", ") || "(nothing)" }),
      " in register ", element("span", { class: "r-register", text: cell.dataset.reg || "" }),
      ", lane ", element("span", { class: "r-lane", text: cell.dataset.lane || "" }),
      ", bits ", element("span", { class: "r-bits", text: cell.dataset.bits || "" }),
      " (", element("span", { class: "r-location", text: cell.dataset.v || "" }), "); ",
      element("span", { class: "r-copies", text: String(copies) }),
      copies === 1 ? " cell holds it" : " cells hold it (all highlighted)");
  }

  move(dx, dy) {
    if (!this.cells || !this.cells.length) return;
    const at = this.current ? this.cells.indexOf(this.current) : -1;
    let next = at < 0 ? 0 : at;
    if (at >= 0 && dx) next = Math.min(this.cells.length - 1, Math.max(0, at + dx));
    if (at >= 0 && dy) {
      const here = this.current;
      const x = Number(here.getAttribute("x"));
      const y = Number(here.getAttribute("y"));
      let best = null;
      for (const cell of this.cells) {
        const cy = Number(cell.getAttribute("y"));
        if (dy > 0 ? cy <= y : cy >= y) continue;
        const score = [Math.abs(cy - y), Math.abs(Number(cell.getAttribute("x")) - x)];
        if (!best || score[0] < best[0][0] || (score[0] === best[0][0] && score[1] < best[0][1])) {
          best = [score, cell];
        }
      }
      if (best) next = this.cells.indexOf(best[1]);
    }
    this.show(this.cells[next]);
  }

  key(event) {
    const moves = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
    if (!(event.key in moves)) return;
    event.preventDefault();
    this.move(...moves[event.key]);
  }
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.dataset.copied = "yes";
  } catch (problem) {  // no clipboard permission: select the text to copy by hand
    const range = document.createRange();
    range.selectNodeContents(button.parentElement.querySelector("pre, code"));
    window.getSelection().removeAllRanges();
    window.getSelection().addRange(range);
    button.dataset.copied = "selected";
  }
}

function ordered(state) {
  const keys = [...CORE, ...MODIFIERS.map((m) => m.key), ...CONVERT, ...BUDGET, ...FILTERS];
  const result = {};
  for (const key of keys) if (state[key]) result[key] = state[key];
  for (const key of Object.keys(state)) if (!(key in result) && state[key]) result[key] = state[key];
  return result;
}

function writeAddress() {
  const first = ordered(panes[0].state);
  let text = query(first);
  if (panes[1]) {
    const second = panes[1].state;
    const diff = [];
    for (const key of Object.keys(ordered(Object.assign({}, first, second)))) {
      const a = first[key] || "";
      const b = second[key] || "";
      if (a !== b) diff.push(`${encodeURIComponent(key)}=${encodeURIComponent(b)}`);
    }
    text += (text ? "&" : "") + "compare=" + encodeURIComponent(diff.join("&"));
  }
  history.replaceState(null, "", "?" + text);
}

function secondState(first, compare) {
  const state = Object.assign({}, first);
  for (const [key, value] of Object.entries(parseState(compare))) {
    if (value === "") delete state[key];
    else state[key] = value;
  }
  return state;
}

function setCompare(on) {
  const button = document.getElementById("compare-toggle");
  const holder = document.getElementById("panes");
  if (on && !panes[1]) {
    panes.push(new Pane(2, panes[0].state));
    holder.append(panes[1].root);
    panes[1].render();
  } else if (!on && panes[1]) {
    panes.pop().root.remove();
  }
  holder.classList.toggle("two", on);
  button.setAttribute("aria-pressed", String(on));
  button.textContent = on ? "Close the second pane" : "Compare side by side";
  writeAddress();
}

async function start() {
  const holder = document.getElementById("panes");
  const first = parseState(location.search);
  const compare = first.compare;
  delete first.compare;
  const status = document.getElementById("engine-status");
  ENGINE.onProgress((text) => {
    status.textContent = text;
    status.hidden = !text;
  });
  try {
    await ENGINE.ready;
    MODIFIERS = await fetchJSON("/api/options", {});
    PLANS = await fetchJSON("/api/plans", {});
    const rows = (await fetchJSON("/api/json", { mode: "catalog" })).instructions;
    ARCHITECTURES = [...new Set(rows.map((row) => row.architecture.toLowerCase()))];
    const types = new Set();
    for (const row of rows) {
      for (const t of Object.values(row.types)) if (t) types.add(t.key);
    }
    TYPES = [...types].sort();
    KINDS = [...new Set(rows.map((row) => row.kind))].sort();
  } catch (problem) {
    holder.append(element("p", { class: "error", role: "alert", text: problem.message }));
    return;
  }
  document.body.append(element("datalist", { id: "types" },
    ...TYPES.map((t) => element("option", { value: t }))));
  panes.push(new Pane(1, first));
  holder.append(panes[0].root);
  const renders = [panes[0].render()];
  if (compare !== undefined) {
    panes.push(new Pane(2, secondState(first, compare)));
    holder.append(panes[1].root);
    holder.classList.add("two");
    const button = document.getElementById("compare-toggle");
    button.setAttribute("aria-pressed", "true");
    button.textContent = "Close the second pane";
    renders.push(panes[1].render());
  }
  await Promise.all(renders);
  writeAddress();
  document.body.dataset.ready = "yes";
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("compare-toggle").addEventListener("click", () => {
    setCompare(!panes[1]);
  });
  start();
});
