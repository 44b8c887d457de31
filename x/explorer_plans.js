// The explorer's plan panels: the LDS read and copy plans and
// --lds-search (mode=lds), preshuffled operands (mode=preshuffle) and epilogue stores
// (mode=store). Each panel's fields come from /api/plans, which reads them from the
// command line's option table; every answer is the command line's (/api/text, /api/svg,
// /api/json, /api/hip with mode=), and the panel shows the command line it equals.
// The settings live in the address as the command line names them (lds-tile=16x64,
// lds-swizzle=4,1,16, copy=..., preshuffle=1, store-d=1, store-type=bf16, ...).
"use strict";

const PLAN_TITLES = {
  lds: "LDS plan (--lds-tile): the fragment's loads from an LDS tile, its copy from global " +
    "memory (--copy), and the paddings and swizzles that make it conflict-free (--lds-search)",
  preshuffle: "Preshuffled operand (--preshuffle): the global buffer that gives every lane " +
    "contiguous loads",
  store: "Epilogue store (--store-d): D into a global tile, directly or through LDS",
};

class PlanPanel {
  constructor(pane, spec) {
    this.pane = pane;
    this.spec = spec;
    const id = (name) => pane.id(`${spec.mode}-${name}`);
    this.controls = {};
    this.offered = [];  // datalists of the fields completion offers words for
    const boxes = new Map();  // a field's option -> the fieldset of the fields that go with it
    const main = [];
    for (const field of spec.fields) {
      const control = this.control(field, id(field.key));
      const label = labelled(field.option + (field.metavar ? ` ${field.metavar}` : ""), control);
      // (with the panel's own option: the panel's main row; with another field's: its box)
      const owner = field.with !== spec.option &&
        spec.fields.find((other) => other.option === field.with);
      if (owner) {
        if (!boxes.has(owner.option)) {
          boxes.set(owner.option, element("fieldset", { id: id(`${owner.key}-options`) },
            element("legend", { text: `with ${owner.option}` })));
        }
        boxes.get(owner.option).append(label);
      } else {
        main.push(label);
      }
    }
    this.note = element("p", { class: "note", id: id("note") });
    this.error = element("p", { class: "error", id: id("error"), role: "alert" });
    this.error.hidden = true;
    this.command = element("code", { id: id("command") });
    this.text = element("pre", { class: "plan", id: id("plan") });
    // The pictures: the whole plan's, and for an option with options of its own (--copy,
    // the tile's trip from global memory) the plan's without it (the reads from LDS).
    this.pictures = [this.pictureOf(id("picture"), "Picture: ", null)];
    for (const owner of spec.fields.filter((f) => boxes.has(f.option))) {
      this.pictures.push(this.pictureOf(id(`picture-without-${owner.key}`),
        `Picture without ${owner.option}: `, owner));
    }
    this.json = element("pre", { class: "plan", id: id("json") });
    this.jsonBox = element("details", { id: id("json-box") },
      element("summary", { text: "JSON (--json)" }), this.json);
    this.hip = element("pre", { class: "hip", id: id("hip") });
    this.hipBox = element("details", { id: id("hip-box") },
      element("summary", { text: "HIP code (--emit hip)" }), this.hip);
    const copyCommand = element("button", { type: "button", id: id("copy-command"),
      text: "Copy" });
    copyCommand.addEventListener("click", () => copy(this.command.textContent, copyCommand));
    this.result = element("div", { class: "plan-result", id: id("result") },
      element("p", { class: "command" }, element("span", { text: "Command line: " }),
        this.command, copyCommand), this.text);
    if (spec.picture) for (const picture of this.pictures) this.result.append(picture.root);
    this.result.append(this.jsonBox);
    if (spec.hip) this.result.append(this.hipBox);
    this.root = element("details", { class: "plan-panel", id: id("panel") },
      element("summary", { text: PLAN_TITLES[spec.mode] || spec.option }),
      controlsForm(...main,
        ...boxes.values()),
      this.note, this.error, this.result, ...this.offered);
    this.root.addEventListener("toggle", () => this.toggled());
    this.jsonBox.addEventListener("toggle", () => this.fillLazy(this.jsonBox, this.json, "json"));
    this.hipBox.addEventListener("toggle", () => this.fillLazy(this.hipBox, this.hip, "hip"));
  }

  pictureOf(name, label, without) {
    const picture = { without, command: element("code", { id: `${name}-command` }),
      note: element("p", { class: "note", id: `${name}-note` }),
      box: element("div", { class: "picture", id: name }) };
    picture.root = element("div", { id: `${name}-part` }, element("p", { class: "command" },
      element("span", { text: label }), picture.command), picture.note, picture.box);
    return picture;
  }

  withoutOf(asked, owner) {  // the question without an option and the options with it
    const fewer = Object.assign({}, asked);
    for (const field of this.spec.fields) {
      if (field === owner || field.with === owner.option) delete fewer[field.key];
    }
    return fewer;
  }

  control(field, name) {
    let control;
    // (a change to the value the address holds already, such as the browser's own change
    // event when a field typed into loses the focus, asks nothing again)
    const set = (value) => {
      if ((this.pane.state[field.key] || "") !== value) this.pane.set(field.key, value);
    };
    if (field.flag) {
      control = element("input", { type: "checkbox", id: name, name: field.key });
      control.addEventListener("change", () => set(control.checked ? "1" : ""));
    } else if (field.choices.length) {
      control = element("select", { id: name, name: field.key });
      fillSelect(control, [["", "default"], ...field.choices.map((c) => [c, c])], "");
      control.addEventListener("change", () => set(control.value));
    } else {
      control = element("input", { type: "text", id: name, name: field.key, size: "10",
        placeholder: field.metavar });
      if (field.offered.length) {  // (what completion offers: every architecture's names)
        control.setAttribute("list", `${name}-offered`);
        this.offered.push(element("datalist", { id: `${name}-offered` },
          ...field.offered.map((word) => element("option", { value: word }))));
      }
      control.addEventListener("change", () => set(control.value.trim()));
    }
    control.title = field.help;
    this.controls[field.key] = control;
    return control;
  }

  toggled() {
    const s = this.pane.state;
    const key = this.spec.key;
    if (this.root.open && this.spec.flag && !s[key]) this.pane.set(key, "1");
    else if (!this.root.open && s[key]) this.pane.set(key, "");
    else if (this.root.open && !this.drawn) this.pane.render();
  }

  query() {  // the pane's instruction and modifiers, this plan's options, mode=
    const s = this.pane.state;
    const asked = Object.assign({ mode: this.spec.mode }, this.pane.query([]));
    if (!this.spec.matrix) delete asked.matrix;
    for (const field of this.spec.fields) if (s[field.key]) asked[field.key] = s[field.key];
    return asked;
  }

  async draw(stale) {  // (asked for only while the panel is open)
    const s = this.pane.state;
    const spec = this.spec;
    if (s[spec.key]) this.root.open = true;
    this.drawn = this.root.open;
    if (!this.root.open) return;
    for (const field of spec.fields) {
      const control = this.controls[field.key];
      const value = s[field.key] || "";
      if (control === document.activeElement) continue;  // (never under the user's typing)
      if (field.flag) {
        control.checked = ["1", "true", "yes", "on"].includes(value.toLowerCase());
      } else if (field.choices.length) {
        const choices = [["", "default"], ...field.choices.map((c) => [c, c])];
        if (value && !field.choices.includes(value)) choices.push([value, value]);
        fillSelect(control, choices, value);
      } else {
        control.value = value;
      }
    }
    this.error.hidden = true;
    this.result.hidden = true;
    if (!s[spec.key]) {
      this.note.textContent = `Give the tile (${spec.option} ROWSxCOLS of the operand's ` +
        "elements) and the options above: the plan is the command line's answer.";
      return;
    }
    this.note.textContent = "";
    const asked = this.query();
    const shown = spec.picture ? this.pictures.filter((p) => !p.without || asked[p.without.key])
      : [];
    const [text, ...pictures] = await Promise.all([fetchText("/api/text", asked),
      ...shown.map((p) => fetchText("/api/svg", p.without ? this.withoutOf(asked, p.without)
        : asked))]);
    if (stale()) return;
    showCommand(this.command, text.command);
    if (!text.ok) {
      this.error.textContent = text.body;
      this.error.hidden = false;
      return;
    }
    this.text.textContent = text.body;
    for (const picture of this.pictures) picture.root.hidden = !shown.includes(picture);
    shown.forEach((picture, at) => {
      const answer = pictures[at];
      showCommand(picture.command, answer.command);
      if (answer.ok) {
        showPicture(picture.box, answer.body);
        picture.note.textContent = "";
      } else {  // (no picture for this plan: the command line says why)
        picture.box.replaceChildren();
        picture.note.textContent = answer.body;
      }
    });
    if (query(asked) !== query(this.asked || {})) {  // (a new question: new JSON and HIP)
      this.json.textContent = "";
      this.hip.textContent = "";
    }
    this.asked = asked;
    this.result.hidden = false;
    this.fillLazy(this.jsonBox, this.json, "json");
    this.fillLazy(this.hipBox, this.hip, "hip");
  }

  async fillLazy(box, target, kind) {  // JSON and HIP: fetched when opened
    if (!box.open || target.textContent || !this.asked) return;
    const asked = this.asked;
    const answer = await fetchText(`/api/${kind}`, asked);
    if (asked === this.asked) target.textContent = answer.body;
  }

  clear() {
    this.result.hidden = true;
    this.asked = null;
  }
}
