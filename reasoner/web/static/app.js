// The analyst's page: talks only to this server's JSON API; every text from it goes in as text, never as markup.
"use strict";

const state = { request: null, ordinances: [], schema: null, clauses: {}, asked: 0, labels: { status: {}, kinds: {} },
  choices: {}, readings: {} };  // GET /readings by "ordinance.interpretation"; the readings chosen instead of the defaults

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const words = (name) => String(name).replaceAll("_", " ");
const number = (value) => (typeof value === "number" ? value.toLocaleString("en-US") : value);

async function api(method, path, body) {
  const response = await fetch(path, {
    method, headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({ message: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw Object.assign(new Error(data.message || response.statusText), { data, status: response.status });
  return data;
}

// ---------------------------------------------------------------- tabs (arrow keys move between them)

function tabs(list, onChange) {
  const buttons = [...list.querySelectorAll('[role="tab"]')];
  const select = (chosen) => {
    for (const button of buttons) {
      const on = button === chosen;
      button.setAttribute("aria-selected", on);
      button.tabIndex = on ? 0 : -1;
      document.getElementById(button.getAttribute("aria-controls")).hidden = !on;
    }
    if (onChange) onChange(chosen);
  };
  for (const button of buttons) {
    button.addEventListener("click", () => select(button));
    button.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = buttons[(buttons.indexOf(button) + step + buttons.length) % buttons.length];
      next.focus();
      select(next);
    });
  }
  return select;
}

// ---------------------------------------------------------------- the form, generated from the event schema

function resolve(schema) {
  if (schema && schema.$ref) return state.schema.$defs[schema.$ref.split("/").pop()];
  return schema;
}

// Fields of an object of which an event states one form or another: the form a user picks is shown, the
// others hidden and left out of the event (the event model refuses two forms at once).
const ALTERNATIVES = {
  schedule: [
    { name: "span", label: "one span, from start to end", fields: ["start", "end", "start_occurrence", "end_occurrence"] },
    { name: "daily", label: "the same hours each day", fields: ["daily"] },
    { name: "sessions", label: "sessions, each with its own start and end", fields: ["sessions"] },
  ],
};

let itemCount = 0;  // ids of list items stay unique as items come and go

function field(path, schema, required, name) {
  schema = resolve(schema);
  const id = "f-" + path.join("-");
  const label = name || words(path[path.length - 1]);
  const title = schema.description || "";
  const variants = (schema.anyOf || []).map(resolve);
  const nonNull = variants.filter((v) => v.type !== "null");
  if (nonNull.length === 1 && variants.length === 2) {
    return field(path, { ...nonNull[0], description: nonNull[0].description || title }, required, name);
  }
  if (schema.type === "object" && schema.properties) {
    const set = el("fieldset", { class: "group", id }, el("legend", {}, label),
      title && path.length > 1 ? el("p", { class: "hint" }, title) : null);
    const fields = Object.fromEntries(Object.entries(schema.properties).map(([key, sub]) =>
      [key, field([...path, key], sub, (schema.required || []).includes(key))]));
    const forms = ALTERNATIVES[path[path.length - 1]];
    if (forms) set.append(...alternatives(id, forms, fields));
    set.append(...Object.values(fields));
    return set;
  }
  if (schema.type === "array" && schema.items && resolve(schema.items).type === "object") {
    return listField(path, label, title, resolve(schema.items));
  }
  if (schema.type === "object" && schema.propertyNames) {  // provisions: an amount per obligation
    const set = el("fieldset", { class: "group amounts" }, el("legend", {}, label), title && el("p", { class: "hint" }, title));
    for (const name of resolve(schema.propertyNames).enum) {
      const sub = `${id}-${name}`;
      set.append(el("div", { class: "row" }, el("label", { for: sub }, words(name)),
        el("input", { id: sub, type: "number", min: 0, "data-path": JSON.stringify([...path, name]), "data-type": "integer" })));
    }
    return set;
  }
  if (schema.type === "array" && schema.items && resolve(schema.items).enum) {
    const set = el("fieldset", { class: "group choices" }, el("legend", {}, label), title && el("p", { class: "hint" }, title));
    for (const name of resolve(schema.items).enum) {
      const sub = `${id}-${name}`;
      set.append(el("div", { class: "choice" },
        el("input", { id: sub, type: "checkbox", value: name, "data-path": JSON.stringify(path), "data-type": "set" }),
        el("label", { for: sub }, words(name))));
    }
    return set;
  }
  let input;
  const common = { id, "data-path": JSON.stringify(path), "aria-describedby": title ? id + "-hint" : null };
  if (schema.enum) {
    input = el("select", { ...common, "data-type": "string" }, el("option", { value: "" }, "(not stated)"),
      schema.enum.map((v) => el("option", { value: v, selected: v === schema.default }, words(v))));
  } else if (schema.type === "boolean") {
    input = el("select", { ...common, "data-type": "boolean" }, el("option", { value: "" }, "(not stated)"),
      el("option", { value: "true" }, "yes"), el("option", { value: "false" }, "no"));
  } else if (schema.type === "integer") {
    input = el("input", { ...common, type: "number", min: schema.minimum ?? null, max: schema.maximum ?? null,
      "data-type": "integer", required: required || null });
  } else if (nonNull.some((v) => v.type === "integer")) {  // a number, a range or unknown
    input = el("input", { ...common, type: "text", inputmode: "numeric", "data-type": "amount",
      placeholder: "3500, 1500..2500 or unknown", required: required || null });
  } else if (schema.format === "date-time") {
    input = el("input", { ...common, type: "datetime-local", "data-type": "string", required: required || null });
  } else if (schema.format === "date") {
    input = el("input", { ...common, type: "date", "data-type": "string" });
  } else if (schema.format === "time") {
    input = el("input", { ...common, type: "time", "data-type": "string" });
  } else if (schema.type === "array") {
    input = el("input", { ...common, type: "text", "data-type": "list", placeholder: "comma-separated" });
  } else {
    input = el("input", { ...common, type: "text", "data-type": "string", required: required || null });
  }
  return el("div", { class: "row" }, el("label", { for: id }, label, required ? " (required)" : ""), input,
    title && el("span", { class: "hint", id: id + "-hint" }, title));
}

function alternatives(id, forms, fields) {
  // One radio per form; the fields of the forms not chosen are moved into hidden groups.
  const choice = el("fieldset", { class: "forms" }, el("legend", {}, "given as"));
  const groups = forms.map((form, index) => {
    const group = el("div", { class: "alternative", id: `${id}-as-${form.name}`, hidden: index > 0 },
      form.fields.map((key) => fields[key]));
    for (const key of form.fields) delete fields[key];
    const radio = el("input", { type: "radio", name: `${id}-as`, id: `${id}-as-${form.name}-choice`, value: form.name,
      checked: index === 0, "aria-controls": group.id });
    radio.addEventListener("change", () => groups.forEach((g, i) => { g.hidden = forms[i].name !== radio.value; }));
    choice.append(el("div", { class: "choice" }, radio, el("label", { for: radio.id }, form.label)));
    return group;
  });
  return [choice, ...groups];
}

function listField(path, label, title, item) {
  // A list of objects (schedule.sessions): an item per "add", each with its own "remove".
  const id = "f-" + path.join("-");
  const one = label.replace(/s$/, "");
  const items = el("div", { class: "items" });
  const renumber = () => [...items.children].forEach((entry, index) => {
    entry.querySelector("legend").textContent = `${one} ${index + 1}`;
    entry.querySelector("button.remove").setAttribute("aria-label", `remove ${one} ${index + 1}`);
  });
  const add = el("button", { type: "button", class: "add", id: `${id}-add` }, `add a ${one}`);
  add.addEventListener("click", () => {
    itemCount += 1;
    const entry = field([...path, itemCount], { ...item, description: "" }, false, one);  // the list's hint says it once
    entry.classList.add("item");
    entry.dataset.item = String(path.length);  // where the item's index goes in its fields' paths
    const remove = el("button", { type: "button", class: "remove", id: `${id}-${itemCount}-remove` }, "remove");
    remove.addEventListener("click", () => { entry.remove(); renumber(); add.focus(); });
    entry.append(remove);
    items.append(entry);
    renumber();
    entry.querySelector("input, select").focus();
  });
  return el("fieldset", { class: "group list", id }, el("legend", {}, label),
    title && el("p", { class: "hint" }, title), items, add);
}

function buildForm(schema) {
  const root = document.getElementById("schema-form");
  root.replaceChildren(...Object.entries(schema.properties).map(
    ([name, sub]) => field([name], sub, (schema.required || []).includes(name))));
}

function put(target, path, value) {
  let node = target;
  path.slice(0, -1).forEach((key, i) => { node = node[key] ??= typeof path[i + 1] === "number" ? [] : {}; });
  node[path[path.length - 1]] = value;
}

function pathOf(input) {
  // A list item's fields carry its id in their path; the event gets its place in the list instead.
  const path = JSON.parse(input.dataset.path);
  const entry = input.closest(".item");
  if (entry) path[Number(entry.dataset.item)] = [...entry.parentNode.children].indexOf(entry);
  return path;
}

function compact(value) {
  // Items left empty leave holes in their list.
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  return value;
}

function formEvent() {
  const event = {};
  for (const input of document.querySelectorAll("#schema-form [data-path]")) {
    if (input.closest(".alternative[hidden]")) continue;  // a form of the schedule not chosen
    const path = pathOf(input);
    const type = input.dataset.type;
    if (type === "set") {
      if (!input.checked) continue;
      let node = event;
      for (const key of path.slice(0, -1)) node = node[key] ??= {};
      (node[path[path.length - 1]] ??= []).push(input.value);
      continue;
    }
    const text = input.value.trim();
    if (text === "") continue;
    let value = text;
    if (type === "integer") value = Number(text);
    else if (type === "boolean") value = text === "true";
    else if (type === "list") value = text.split(",").map((s) => s.trim()).filter(Boolean);
    else if (type === "amount") {
      const range = text.match(/^(\d+)\s*\.\.\s*(\d+)$/);
      value = range ? { min: Number(range[1]), max: Number(range[2]) } : /^\d+$/.test(text) ? Number(text) : text;
    }
    put(event, path, value);
  }
  return compact(event);
}

// ---------------------------------------------------------------- the law pane

async function showClause(ordinance, clause, origin) {
  const pane = document.getElementById("law-text");
  if (!state.clauses[ordinance]) {
    const [registry] = await api("GET", `/ordinances/${encodeURIComponent(ordinance)}/clauses`);
    state.clauses[ordinance] = registry;
  }
  const registry = state.clauses[ordinance];
  if (pane.dataset.ordinance !== ordinance) {
    pane.dataset.ordinance = ordinance;
    pane.replaceChildren(el("h3", {}, registry.jurisdiction), el("p", { class: "title" }, registry.title),
      ...registry.clauses.map((c) => el("article", { class: "clause", id: `clause-${ordinance}-${c.id}`, "data-clause": c.id },
        el("h4", {}, el("span", { class: "clause-id" }, c.id), " ", c.heading,
          c.numbering === "reconstructed" ? el("span", { class: "note" }, " (numbering ours)") : null),
        el("p", {}, c.text))));
  }
  document.getElementById("law-hint").hidden = true;
  uncite();
  const target = document.getElementById(`clause-${ordinance}-${clause}`);
  if (target) {
    target.classList.add("cited");
    // Reading the clause may take the reader far down a long page (the law sits below the answer on a narrow
    // screen): beside the words, a way back to the very place they asked from.
    if (origin) target.append(backLink(origin));
    target.tabIndex = -1;
    target.scrollIntoView({ block: "start", behavior: "smooth" });
    target.focus({ preventScroll: true });
  }
}

function backLink(origin) {
  return el("button", { type: "button", class: "back", onclick: () => {
    origin.scrollIntoView({ block: "center" });
    origin.focus({ preventScroll: true });
  } }, "↩ back to the answer");
}

function uncite() {
  for (const old of document.querySelectorAll("#law-text .cited")) old.classList.remove("cited");
  for (const old of document.querySelectorAll("#law-text .back")) old.remove();
}

function clauseLink(ordinance, clause) {
  return el("button", { type: "button", class: "clause-link", "data-ordinance": ordinance, "data-clause": clause,
    "aria-label": `show clause ${clause} of ${ordinance}`,
    onclick: (event) => { event.stopPropagation(); showClause(ordinance, clause, event.currentTarget); } }, clause);
}

// ---------------------------------------------------------------- results per ordinance

// the labels of statuses and kinds come from the server (GET /labels: reasoner/law/labels.py), never copied here
function amount(c) {
  if (c.range) return `${number(c.range[0])}–${number(c.range[1])}${c.unit && c.unit !== "count" ? " " + c.unit : ""}`;
  if (c.value === null || c.value === undefined) return "";
  if (c.unit === "usd") return "$" + number(c.value);
  if (c.unit === "date") return String(c.value);  // a deadline is its date; the unit adds nothing
  if (c.kind === "late" || c.kind === "on_time") return `${number(c.value)} day(s)`;
  if (c.unit && c.unit !== "count") return `${number(c.value)} ${c.unit}`;
  return number(c.value);
}

function conclusionLine(record, c) {
  if (c.kind === "reason") {  // why the status is what it is: the condition in words, holding or not
    return el("span", { class: c.holds ? "reason holds" : "reason fails" }, `${c.holds ? "✓" : "✗"} ${c.text}`,
      c.certainty ? el("span", { class: `certainty ${c.certainty}` }, c.certainty) : null);
  }
  const parts = [el("span", { class: "name" }, words(c.name))];
  const value = amount(c);
  if (value !== "") parts.push(": ", el("strong", { class: "value" }, value));
  if (c.kind === "shortfall") parts.push(el("span", { class: "short" }, ` (required ${number(c.required)}, provided ${number(c.provided)})`));
  if (c.kind === "penalty" && (c.min !== undefined || c.max !== undefined)) {
    parts.push(` ${c.min !== null && c.min !== undefined ? "$" + number(c.min) : ""}–${c.max !== null && c.max !== undefined ? "$" + number(c.max) : ""}`);
  }
  if (c.modality === "may") parts.push(el("span", { class: "modality" }, " may"));
  if (c.alternative) {
    const other = c.alternative;
    parts.push(el("span", { class: "hint" }, ` (or ${words(other.name)}${other.value !== null && other.value !== undefined ? ": " + amount(other) : ""})`));
  }
  if (c.certainty) parts.push(el("span", { class: `certainty ${c.certainty}` }, c.certainty));
  return parts;
}

function renderRecord(record) {
  const status = state.labels.status[record.status] || words(record.status);
  const section = el("section", { class: `panel status-${record.status}`, id: `panel-${record.ordinance}`,
    "aria-labelledby": `panel-title-${record.ordinance}` },
    el("h3", { id: `panel-title-${record.ordinance}` }, record.jurisdiction,
      el("span", { class: "ordinance-name" }, ` (${record.ordinance})`)),
    el("p", { class: "title" }, record.title),
    el("p", { class: "status" }, el("span", { class: "badge" }, status)));
  const groups = new Map();
  for (const c of record.conclusions) {
    if (!groups.has(c.kind)) groups.set(c.kind, []);
    groups.get(c.kind).push(c);
  }
  for (const [kind, items] of groups) {
    const list = el("ul", { class: "conclusions" });
    for (const c of items) {
      const holder = el("div", { class: "explanation", hidden: true });
      const toggle = el("button", { type: "button", class: "conclusion", "aria-expanded": "false",
        "data-kind": c.kind, "data-name": c.name }, conclusionLine(record, c));
      toggle.addEventListener("click", () => unfold(toggle, holder, record, c));
      list.append(el("li", { class: `kind-${c.kind}` }, el("div", { class: "line" }, toggle,
        el("span", { class: "clauses" }, c.clauses.map((id) => clauseLink(record.ordinance, id)))),
        c.text && c.kind !== "reason" ? el("p", { class: "interpretation" }, c.text) : null, holder));  // a reason's line is its text
    }
    section.append(el("h4", {}, state.labels.kinds[kind] || words(kind)), list);
  }
  if (record.unknown && record.unknown.length) {
    section.append(el("p", { class: "hint" }, `Unknown: ${record.unknown.join(", ")}`));
  }
  section.append(whatifPart(record));
  return section;
}

// ---------------------------------------------------------------- readings of the text (issue 29)

function readingValue(kind, value) {
  // An answer's value on one reading, as `reasoner readings` says it: none, holds, a status, an amount.
  const said = state.labels.readings;
  if (Array.isArray(value)) return value.map((v) => `${readingValue(kind, v.value)} (${v.certainty})`).join(", ");
  if (value === null || value === undefined) return said.absent;
  if (value === true) return said.present;
  if (kind === "status") return state.labels.status[value] || words(value);
  return typeof value === "string" ? words(value) : number(value);
}

function turnsOn(record, index) {
  // The answers of a record an alternative reading moves (evaluate's depends_on_readings): a mark beside each, and
  // per interpretation a choice of reading, which asks again with that reading applied.
  const said = state.labels.readings;
  const byInterpretation = new Map();
  const moved = new Map();
  for (const item of record.depends_on_readings || []) {
    for (const under of item.readings) {
      if (!byInterpretation.has(under.interpretation)) byInterpretation.set(under.interpretation, new Map());
      const readings = byInterpretation.get(under.interpretation);
      if (!readings.has(under.reading)) readings.set(under.reading, []);
      readings.get(under.reading).push({ item, value: under.value });
      const key = `${item.kind}/${item.name}`;
      if (!moved.has(key)) moved.set(key, []);
      if (!moved.get(key).includes(under.interpretation)) moved.get(key).push(under.interpretation);
    }
  }
  const selectId = (interpretation) => `reading-${index}-${record.ordinance}-${interpretation}`;
  const mark = (kind, name) => (moved.get(`${kind}/${name}`) || []).map((interpretation) => el("button", {
    type: "button", class: "turns", "data-interpretation": interpretation,
    "aria-label": `${said.mark}: ${words(interpretation)} (${said.go})`,
    title: words(interpretation),
    onclick: () => { const choice = document.getElementById(selectId(interpretation)); choice.scrollIntoView({ block: "center" }); choice.focus(); },
  }, `⚑ ${said.mark}`));
  if (!byInterpretation.size) return { mark, section: null };
  const section = el("div", { class: "readings", role: "group", "aria-labelledby": `readings-title-${index}` },
    el("h4", { id: `readings-title-${index}` }, said.section));
  for (const [interpretation, readings] of byInterpretation) {
    const key = `${record.ordinance}.${interpretation}`;
    const choice = state.choices[key];
    const id = selectId(interpretation);
    const applied = state.readings[key] || (choice ? choice.default : null);
    const all = choice ? [choice.default, ...choice.alternatives.map((a) => a.reading)] : [applied, ...readings.keys()];
    const select = el("select", { id, class: "reading-choice", "data-ordinance": record.ordinance,
      "data-interpretation": interpretation, "aria-describedby": `${id}-words` },
    all.map((reading) => el("option", { value: reading, selected: reading === applied },
      words(reading), choice && reading === choice.default ? ` (${said.default})` : "")));
    select.addEventListener("change", () => flipReading(key, select.value, choice ? choice.default : null, id));
    const textOf = (reading) => (!choice ? "" : reading === choice.default ? choice.text
      : (choice.alternatives.find((a) => a.reading === reading) || {}).text || "");
    const changes = el("ul", { class: "reading-changes" });
    for (const [reading, items] of readings) {
      const status = items.filter(({ item }) => item.kind === "status");
      const rest = items.filter(({ item }) => item.kind !== "status");
      const line = (entries) => entries.map(({ item, value }) =>
        `${item.kind === "status" ? words(item.kind) : words(item.name)}: ${readingValue(item.kind, item.default)} → ${readingValue(item.kind, value)}`);
      changes.append(el("li", {}, el("strong", {}, `${words(reading)}`), ` ${said.gives}: `, line(status).join("; "),
        rest.length ? el("details", {}, el("summary", {}, `${status.length ? "+ " : ""}${rest.length} ${said.changes}`),
          el("ul", {}, line(rest).map((text) => el("li", {}, text)))) : null));
    }
    section.append(el("div", { class: "reading-choice-row" },
      el("label", { for: id }, `${said.choose} `, el("span", { class: "atom" }, words(interpretation))),
      el("div", { class: "reading-select" }, select, choice ? clauseLink(record.ordinance, choice.clause) : null,
        state.readings[key] ? el("span", { class: "chosen" }, said.chosen) : null),
      el("p", { class: "hint", id: `${id}-words` }, textOf(applied)),
      changes));
  }
  return { mark, section };
}

function markReadings(records) {
  // Into the panels drawn from the same answer: the mark beside each answer a reading moves, and the choices.
  const panels = document.querySelectorAll("#panels > .panel");
  records.forEach((record, index) => {
    const panel = panels[index];
    const turns = turnsOn(record, index);
    if (!panel || !turns.section) return;
    const status = panel.querySelector("p.status");
    status.append(...turns.mark("status", "status"));
    status.after(turns.section);
    for (const toggle of panel.querySelectorAll("button.conclusion")) {
      const marks = turns.mark(toggle.dataset.kind, toggle.dataset.name);
      if (marks.length) toggle.closest(".line").querySelector(".clauses").prepend(...marks);
    }
  });
}

function flipReading(key, reading, byDefault, focusId) {
  // Another reading of one passage: the whole answer asked again with it applied (the default: none chosen).
  if (reading === byDefault) delete state.readings[key];
  else state.readings[key] = reading;
  return ask({ focus: focusId, near: `panel-${key.split(".")[0]}` });
}

function readingsApplied() {
  // Which readings the answer applies instead of the defaults, and the way back to the defaults.
  const said = state.labels.readings;
  const holder = document.getElementById("readings-applied");
  const chosen = Object.entries(state.readings);
  holder.hidden = !chosen.length;
  holder.replaceChildren(...(!chosen.length ? [] : [`${said.applied} `,
    ...chosen.map(([key, reading]) => el("span", { class: "atom" }, `${key}=${reading}`)).flatMap((n, i) => (i ? ["; ", n] : [n])),
    " ", el("button", { type: "button", class: "add", id: "readings-reset",
      onclick: () => { state.readings = {}; ask({ focus: "results-title" }); } }, said.reset)]));
}

// ---------------------------------------------------------------- what if (POST /whatif, as `reasoner whatif`)

function whatifPart(record) {
  // What may be flipped: the permit duty, each conclusion by name, and lateness (a kind) where a deadline applies.
  const names = ["permit_required", ...new Set(record.conclusions.filter((c) => c.kind !== "reason" && c.name !== "permit_required")
    .map((c) => c.name))];
  if (record.conclusions.some((c) => c.kind === "deadline" || c.kind === "late" || c.kind === "on_time")) names.push("late");
  const id = `whatif-${record.ordinance}`;
  const choice = el("select", { id: `${id}-flip` }, names.map((n) => el("option", { value: n }, words(n))));
  const answer = el("div", { class: "whatif-answer", id: `${id}-answer`, "aria-live": "polite" });
  const ask = el("button", { type: "button", class: "add", id: `${id}-ask` }, "Find the smallest changes");
  ask.addEventListener("click", async () => {
    const asked = state.asked;
    answer.replaceChildren(el("p", { class: "hint" }, "Searching…"));
    const { ordinances, ...request } = state.request;
    try {
      const report = await api("POST", "/whatif", { ...request, ordinance: record.ordinance, flip: choice.value,
        event_id: record.event });
      if (asked === state.asked) answer.replaceChildren(...renderWhatif(report, record.ordinance));
    } catch (error) {
      if (asked === state.asked) answer.replaceChildren(el("p", { class: "error" }, error.message));
    }
  });
  return el("details", { class: "whatif", id },
    el("summary", {}, "What would change it?"),
    el("div", { class: "row" }, el("label", { for: choice.id }, "The conclusion to change"), choice), ask, answer);
}

function renderWhatif(report, ordinance) {
  const name = words(report.conclusion);
  if ("certainty_now" in report) {  // over unknown facts: which answers decide it, then a search each way
    const parts = [el("p", { class: "certainty-line possible" }, `${name}: ${CERTAINTY_WORDS[report.certainty_now]}`),
      ...report.decided_by.map((entry) => el("p", { class: "decided-by" }, `decided by ${entry.fact}: `,
        entry.answers.map((a) => `${"from" in a ? piece(a.from, a.to) : answerWords(a.value)}: ${OUTCOME_WORDS[a.outcome]}`)
          .join("; ")))];
    for (const search of [report, report.otherwise].filter(Boolean)) {
      parts.push(el("p", { class: "because" }, `To make ${name} ${state.labels.whatif[search.wanted]}:`),
        proposals(search, ordinance, true));
    }
    return parts;
  }
  const goal = report.holds_now ? "stop holding" : "hold";
  return [el("p", { class: "because" }, `The smallest changes to make ${name} ${goal}:`),
    proposals(report, ordinance, false, report.holds_now)];
}

function proposals(search, ordinance, overCompletions, held) {
  // The smallest first, then the next smallest, ranked; each change of a fact, the clauses and whether it was checked.
  if (!search.found) {
    return el("p", { class: "hint" }, "No change of the facts allowed to change does it",
      search.gave_up ? ` (the ${search.tried} cheapest tried).` : ".");
  }
  const list = el("ol", { class: "proposals" });
  for (const proposal of [search, ...(search.alternatives || [])]) {
    list.append(el("li", {},
      el("ul", { class: "changes" }, proposal.changes.map((c) => el("li", {},
        el("span", { class: "atom" }, c.fact), `: ${answerWords(c.from)} → ${answerWords(c.to)}`))),
      proposal.clauses && proposal.clauses.length
        ? el("p", { class: "hint" }, "because of ", proposal.clauses.map((id) => clauseLink(ordinance, id))) : null,
      el("p", { class: proposal.verified ? "checked" : "error" }, state.labels.whatif[!proposal.verified ? "unconfirmed"
        : overCompletions ? "checked_every_completion" : held ? "checked_lost" : "checked_gained"])));
  }
  return list;
}

async function unfold(toggle, holder, record, c) {
  const open = toggle.getAttribute("aria-expanded") === "true";
  toggle.setAttribute("aria-expanded", String(!open));
  holder.hidden = open;
  if (open || holder.dataset.loaded) return;
  holder.replaceChildren(el("p", { class: "hint" }, "Explaining…"));
  try {
    const [report] = await api("POST", "/explain", { ...state.request, ordinances: [record.ordinance],
      conclusion: c.name, event_id: record.event });
    holder.replaceChildren(renderExplanation(report, record.ordinance, c));
    holder.dataset.loaded = "yes";
  } catch (error) {
    holder.replaceChildren(el("p", { class: "error" }, error.message));
  }
}

const CERTAINTY_WORDS = { certain: "Holds in every completion of the unknown facts.",
  possible: "Holds in some completions of the unknown facts only.", impossible: "Holds in no completion of the unknown facts." };
const OUTCOME_WORDS = { holds: "holds", fails: "does not hold", open: "still depends on other unknown facts" };

function renderExplanation(report, ordinance, c) {
  // Every conclusion by that name: an obligation's quantity (the arithmetic) first, then the duty and any shortfall.
  const trees = [...report.trees].sort((a, b) => a.atom.startsWith("quantity(") ? -1 : b.atom.startsWith("quantity(") ? 1 : 0);
  const root = el("div", { class: "tree" });
  if (report.certainty) root.append(el("p", { class: `certainty-line ${report.certainty}` }, CERTAINTY_WORDS[report.certainty]));
  else if (!report.holds) root.append(el("p", {}, "Does not hold."));
  // As the command line's tree: each derived step unfolded once, each reading said once, per explanation.
  const said = { steps: new Set(), readings: new Set() };
  const steps = [...trees, ...report.why_not].map((t) => (t.depends_on ? depending(t, ordinance, said) : node(t, ordinance, null, said)));
  if (!steps.length) steps.push(el("li", { class: "hint" }, `no rule of this ordinance concludes ${words(c.name)}`));
  root.append(el("ul", { role: "tree", "aria-label": `why ${words(c.name)}` }, steps));
  return root;
}

function depending(tree, ordinance, said) {
  // A conclusion some completions of the unknown facts derive: which answers decide it, then its steps.
  const item = el("li", { role: "treeitem", class: "step depends" }, el("div", { class: "step-head" },
    el("span", { class: "because" }, `possible: ${tree.text}`)));
  const lines = tree.depends_on.map((entry) => el("li", { class: "decided-by" },
    `decided by ${entry.fact}${entry.sampled ? " (at the values reasoned)" : ""}: `,
    entry.answers.map((a) => `${"from" in a ? piece(a.from, a.to) : answerWords(a.value)}: ${OUTCOME_WORDS[a.outcome]}`).join("; ")));
  if (!lines.length) lines.push(el("li", { class: "decided-by" }, "no single unknown fact decides it: it turns on several together"));
  item.append(el("ul", { role: "group" }, lines, node({ ...tree, depends_on: undefined }, ordinance, null, said)));
  return item;
}

const piece = (low, high) => (low === high ? number(low) : `${number(low)}–${number(high)}`);

const STEP_PREFIX = { not_derived: "does not hold: ", missing_fact: "not stated in the event file: ", comparison: "fails: " };

function node(tree, ordinance, parentClause, said) {
  const item = el("li", { role: "treeitem", class: `step ${tree.kind}` });
  // The law's words for people; the atom stays available to programs and as the step's tooltip.
  const head = el("div", { class: "step-head", title: tree.atom });
  head.append(el("span", { class: "because" }, STEP_PREFIX[tree.kind] || "", tree.because || tree.text || tree.atom));
  item.append(head);
  if (tree.kind === "derived" && said.steps.has(tree.atom)) {
    head.append(el("span", { class: "note" }, " (derived above)"));
    return item;
  }
  if (tree.kind === "derived") said.steps.add(tree.atom);
  if (tree.clause) head.append(" ", clauseLink(ordinance, tree.clause), tree.heading ? el("span", { class: "heading" }, ` ${tree.heading}`) : null);
  if (tree.reconstructed) head.append(el("span", { class: "note" }, " numbering ours"));
  if (tree.sun) head.append(el("span", { class: "note" }, ` from the sun: ${tree.sun}`));
  // Over unknown facts: the value this step assumes, and a step not in every completion.
  if (tree.unknown) head.append(el("span", { class: "certainty possible" }, `if ${tree.unknown} is ${answerWords(tree.assumed)}: unknown`));
  if (tree.certainty === "possible") head.append(el("span", { class: "certainty possible" }, "possible: not in every completion"));
  const conditions = tree.conditions_text || tree.conditions || [];
  if (conditions.length) item.append(el("p", { class: "conditions" }, "given ", conditions.join("; ")));
  // A registered reading of unclear text, said at the first step that rests on it.
  for (const reading of (tree.interpretations || []).filter((r) => !said.readings.has(r.id))) {
    said.readings.add(reading.id);
    item.append(el("p", { class: "reading" }, el("strong", {}, "Read as "), `(${reading.id}, `,
      clauseLink(ordinance, reading.clause), `): ${reading.text}`));
  }
  if (tree.words && tree.clause !== parentClause) {
    item.append(el("details", {}, el("summary", {}, `the words of ${tree.clause}`), el("blockquote", {}, tree.words)));
  }
  const clause = tree.clause || parentClause;
  // What holds below it, what must not hold (no exemption applies) and each rule that failed, with why.
  // The steps about the schedule, said in one sentence where the first stood (a request with `full` has none folded).
  const folded = tree.folded || { children: [] };
  const children = (tree.children || []).map((child, index) => (!folded.children.includes(index) ? node(child, ordinance, clause, said)
    : index === folded.children[0] ? el("li", { role: "treeitem", class: "step folded" }, `${folded.text} (${folded.steps} steps)`) : null))
    .filter(Boolean);
  const below = children.concat((tree.unless || []).map((child) => node(child, ordinance, clause, said)))
    .concat((tree.attempts || []).map((tried) => attempt(tried, ordinance, said)));
  if (below.length) item.append(el("ul", { role: "group" }, below));
  return item;
}

const answerWords = (value) => (typeof value === "boolean" ? (value ? "yes" : "no") : number(value));

function attempt(tried, ordinance, said) {
  const item = el("li", { role: "treeitem", class: "step attempt" });
  item.append(el("div", { class: "step-head" },
    ...(tried.clause ? ["a rule of ", clauseLink(ordinance, tried.clause)] : ["by the definition every ordinance shares"])));
  if (tried.would_mean) item.append(el("p", { class: "would-need" }, "would need: ", tried.would_mean));
  item.append(el("p", { class: "failed" }, "failed: ", tried.failed));
  for (const also of tried.also_failed || []) item.append(el("p", { class: "failed" }, "and failed: ", also.failed));
  const explanation = tried.explanation;
  if (explanation && ["derived", "not_derived", "fact", "given", "parameter"].includes(explanation.kind)) {
    item.append(el("ul", { role: "group" }, node(explanation, ordinance, tried.clause, said)));
  }
  return item;
}

// ---------------------------------------------------------------- questions and the comparison

function renderQuestions(report) {
  const list = document.getElementById("question-list");
  list.replaceChildren(...report.questions.map((q) => el("li", {},
    el("strong", {}, q.fact),
    q.settles_permit_for.length ? ` settles the permit duty for ${q.settles_permit_for.join(", ")}` : "",
    ` (${q.settled_by_any_answer} conclusion(s) settled by any answer)`,
    el("ul", {}, q.answers.map((a) => el("li", {},
      "from" in a ? `${number(a.from)}–${number(a.to)}` : String(a.value), " → ",
      Object.entries(a.permit).map(([o, s]) => `${o}: ${words(s)}`).join(", "),
      "settles" in a ? ` (settles ${a.settles})` : ""))))));
  document.getElementById("questions").hidden = report.questions.length === 0;
}

function verdict(row) {
  // As `compare --readings` says under its table: whether the ordinances differ because of a reading, and which
  // readings move the row, what each gives; a row that differs whatever the reading, no reading moving it, says nothing.
  const found = row.readings;
  if (!found || (found.verdict === "differ_whatever_the_reading" && !found.moved_by.length)) return null;
  const said = state.labels.readings;
  return el("span", { class: "verdict" }, state.labels.verdicts[found.verdict],
    found.moved_by.map((m) => el("span", { class: "moved" },
      `${m.ordinance} ${words(m.interpretation)} = ${words(m.reading)} ${said.gives} ${readingValue(row.kind, m.value)}`)));
}

function renderComparison(tables) {
  const root = document.getElementById("comparison");
  root.replaceChildren();
  for (const [n, table] of tables.entries()) {
    const names = table.ordinances.map((o) => o.column || o.ordinance);  // one ordinance: a column per reading
    // The caption stands outside the table's scroll, so that scrolling to the far ordinances never cuts it off.
    const caption = `comparison-caption-${n}`;
    root.append(el("p", { class: "comparison-caption", id: caption },
      `${table.event}: each ordinance side by side; ★ marks the strictest where they differ`),
    el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-labelledby": caption },
      el("table", { class: "comparison", "aria-labelledby": caption },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "conclusion"),
          table.ordinances.map((o) => el("th", { scope: "col" }, o.column || o.ordinance, el("span", { class: "hint" }, o.jurisdiction))))),
        el("tbody", {}, table.rows.map((row) => el("tr", {},
          el("th", { scope: "row" }, words(row.name), row.kind !== row.name ? el("span", { class: "hint" }, ` ${words(row.kind)}`) : null,
            verdict(row)),
          names.map((name) => {
            const cell = row.cells[name];
            return el("td", { class: `${cell.state}${cell.strictest ? " strictest" : ""}` },
              cell.strictest ? el("span", { class: "star", "aria-label": "strictest" }, "★ ") : null, cell.text);
          })))))));
  }
}

// ---------------------------------------------------------------- submitting

function currentRequest() {
  const filed = document.getElementById("filed").value;
  const ordinances = [...document.querySelectorAll("#ordinance-choices input:checked")].map((i) => i.value);
  const base = { ordinances, ...(filed ? { filed } : {}), readings: { ...state.readings } };
  if (document.getElementById("tab-form").getAttribute("aria-selected") === "true") return { ...base, event: formEvent() };
  const source = document.getElementById("source");
  return { ...base, source: source.value, filename: source.dataset.filename || "pasted event" };
}

function clearAnswer() {
  // Nothing of the previous answer stays on screen while a new one is asked for, nor when the new one fails.
  state.request = null;
  document.getElementById("error").replaceChildren();
  document.getElementById("results").hidden = true;
  document.getElementById("panels").replaceChildren();
  document.getElementById("comparison").replaceChildren();
  document.getElementById("question-list").replaceChildren();
  document.getElementById("questions").hidden = true;
  document.getElementById("report-status").textContent = "";
  uncite();
}

function refusal(failure) {
  // A refusal's message joins its problems; several are listed, each once, under one line that counts them.
  const problems = ((failure.data && failure.data.problems) || []).filter((p) => p.message);
  if (problems.length > 1) {
    return [el("p", {}, `The event has ${problems.length} problems:`),
      el("ul", {}, problems.map((p) => el("li", {}, p.field ? `${p.field}: ${p.message}` : p.message)))];
  }
  return [el("p", {}, failure.message || `the server refused the request (${failure.status || "no answer"})`)];
}

function submit(event) {
  event.preventDefault();
  return ask({ focus: "results-title" });
}

async function ask({ focus, near }) {
  // The answer to the event as the form gives it, on the readings chosen; `focus` (an id) is where the reader
  // is taken once it is in: the results' heading, or the choice of reading they just changed (drawn once the
  // answer says what turns on a reading; until then the reader waits at its panel, `near`).
  const status = document.getElementById("status");
  const error = document.getElementById("error");
  const asked = ++state.asked;
  const current = () => asked === state.asked;  // answers to an earlier request, arriving late, are dropped
  clearAnswer();
  const request = currentRequest();
  if (!request.ordinances.length) {
    error.append(el("p", {}, "Choose at least one ordinance."));
    return;
  }
  status.textContent = "Evaluating…";
  try {
    const records = await api("POST", "/evaluate", request);
    if (!current()) return;
    const { filed, ...rest } = request;  // explain, questions and compare take no filing date, as in the CLI
    state.request = rest;
    document.getElementById("panels").replaceChildren(...records.map(renderRecord));
    readingsApplied();
    document.getElementById("results").hidden = false;
    status.textContent = `${records.length} result(s).`;
    const events = new Set(records.map((r) => r.event));
    const waiting = (near && document.getElementById(near)) || document.getElementById("results-title");
    waiting.scrollIntoView({ block: "start" });
    if (waiting.id === "results-title") waiting.focus({ preventScroll: true });
    // Which answers turn on a reading of the text: an evaluation per alternative reading, so for one event only
    // (a file of many is for `reasoner batch --readings`).
    const single = events.size === 1;
    if (single) {
      api("POST", "/evaluate", { ...request, depends_on_readings: true }).then((marked) => {
        if (!current()) return;
        markReadings(marked);
        // a choice no answer turns on any more is gone: the way back to the default readings stands in for it
        const target = focus && focus !== "results-title"
          && (document.getElementById(focus) || document.getElementById("readings-reset"));
        if (target) {
          target.scrollIntoView({ block: "center" });
          target.focus({ preventScroll: true });
        }
      }).catch((e) => current() && (status.textContent += ` ${e.message}`));
    }
    const uncertain = records.some((r) => r.unknown && r.unknown.length);
    document.getElementById("questions").hidden = true;
    if (uncertain && events.size === 1) {
      api("POST", "/questions", { ...state.request }).then((report) => current() && renderQuestions(report)).catch(() => {});
    }
    document.getElementById("comparison").replaceChildren(el("p", { class: "hint" }, "Comparing…"));
    api("POST", "/compare", { ...state.request, depends_on_readings: single }).then((tables) => current() && renderComparison(tables)).catch((e) =>
      current() && document.getElementById("comparison").replaceChildren(el("p", { class: "error" }, e.message)));
  } catch (failure) {
    if (!current()) return;
    status.textContent = "";
    error.replaceChildren(...refusal(failure));
    error.scrollIntoView({ block: "center" });  // the page shrank with the old answer gone: show why
  }
}

async function downloadReport(event) {
  // POST /report: `reasoner report`'s page for the event just evaluated, saved under the name the server gives it.
  const said = document.getElementById("report-status");
  const asked = state.asked;
  said.textContent = "Writing the report…";
  try {
    const response = await fetch("/report", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...state.request, format: event.currentTarget.dataset.format }) });
    if (!response.ok) {
      const refusal = await response.json().catch(() => ({ message: `${response.status} ${response.statusText}` }));
      throw new Error(refusal.message);
    }
    const name = (response.headers.get("content-disposition") || "").match(/filename="([^"]+)"/);
    const url = URL.createObjectURL(await response.blob());
    if (asked !== state.asked) return;
    const link = el("a", { href: url, download: name ? name[1] : "report" });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    said.textContent = `Saved ${name ? name[1] : "the report"}.`;
  } catch (error) {
    if (asked === state.asked) said.textContent = error.message;
  }
}

async function start() {
  tabs(document.querySelector("#input .tabs"));
  tabs(document.querySelector("#results .tabs"));
  document.getElementById("input").addEventListener("submit", submit);
  for (const id of ["report-html", "report-markdown"]) document.getElementById(id).addEventListener("click", downloadReport);
  document.getElementById("upload").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    const source = document.getElementById("source");
    source.value = await file.text();
    source.dataset.filename = file.name;
  });
  document.getElementById("source").addEventListener("input", (event) => { delete event.target.dataset.filename; });
  const [ordinances, schema, labels, choices] = await Promise.all([api("GET", "/ordinances"), api("GET", "/schema"),
    api("GET", "/labels"), api("GET", "/readings")]);
  state.schema = schema;
  state.labels = labels;
  state.choices = Object.fromEntries(choices.map((c) => [`${c.ordinance}.${c.interpretation}`, c]));
  document.getElementById("ordinance-choices").replaceChildren(...ordinances.map((o) => el("div", { class: "choice" },
    el("input", { type: "checkbox", id: `o-${o.name}`, value: o.name, checked: true }),
    el("label", { for: `o-${o.name}` }, el("strong", {}, o.name), ` — ${o.jurisdiction}`))));
  buildForm(schema);
}

document.addEventListener("DOMContentLoaded", start);
