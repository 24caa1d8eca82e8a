// The Spindrift effect editor's page (docs/editor.md). Plain JavaScript, no framework, nothing
// loaded from anywhere but the server that serves it. The document is a JSON value held here;
// every edit goes through edit() (one undo step per gesture), then the document is sent to the
// server, which validates it (diagnostics shown on the control at their JSON path) and plays it
// in the live preview (Spindrift's own runtime and renderer). The emitter form is generated from
// schema/effect.schema.json, so a new key of the format appears without editor code.
'use strict';

const $ = (id) => document.getElementById(id);
const state = {
  schema: null,
  file: '',          // path relative to the folder
  doc: null,         // the document (null while the text is not JSON)
  rawText: '',       // the text when doc is null
  mtime: 0,          // modified_ns of the file as last read or saved
  dirty: false,
  selected: 0,       // emitter index
  muted: new Set(),
  solo: '',
  undo: [],
  redo: [],
  gesture: null,
  diagnostics: [],
  stats: null,
  seeking: false,
  frameTimes: [],
};

// ---------------------------------------------------------------------------------------------
// Server calls

async function api(method, url, body) {
  const init = { method };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'Content-Type': 'application/json' };
  }
  const res = await fetch(url, init);
  let json = null;
  try { json = await res.json(); } catch (e) { json = { error: 'bad answer from the server' }; }
  return { ok: res.ok, status: res.status, json };
}

function q(params) {
  return Object.entries(params).map(([k, v]) => k + '=' + encodeURIComponent(v)).join('&');
}

function setStatus(text) { $('status').textContent = text; }

// ---------------------------------------------------------------------------------------------
// Document paths: ['emitters', 0, 'spawn', 'rate_per_s'] <-> "$.emitters[0].spawn.rate_per_s"

function pathText(keys) {
  let s = '$';
  for (const k of keys) s += typeof k === 'number' ? '[' + k + ']' : '.' + k;
  return s;
}

function getAt(keys) {
  let v = state.doc;
  for (const k of keys) { if (v == null) return undefined; v = v[k]; }
  return v;
}

function setAt(keys, value) {
  let v = state.doc;
  for (let i = 0; i < keys.length - 1; ++i) v = v[keys[i]];
  v[keys[keys.length - 1]] = value;
}

function deleteAt(keys) {
  let v = state.doc;
  for (let i = 0; i < keys.length - 1; ++i) v = v[keys[i]];
  const last = keys[keys.length - 1];
  if (Array.isArray(v)) v.splice(last, 1); else delete v[last];
}

// ---------------------------------------------------------------------------------------------
// Undo: a snapshot of the document before each gesture. A gesture is one drag, or the edits of
// one control while it keeps the focus; structural edits are a gesture each.

function edit(gestureKey, change, rebuild) {
  if (!state.doc) return;
  if (gestureKey === null || state.gesture !== gestureKey) {
    state.undo.push(JSON.stringify(state.doc));
    if (state.undo.length > 500) state.undo.shift();
    state.redo = [];
    state.gesture = gestureKey;
  }
  change();
  documentChanged(rebuild);
}

function endGesture() { state.gesture = null; }

function undo() {
  if (!state.undo.length) return;
  state.redo.push(JSON.stringify(state.doc));
  state.doc = JSON.parse(state.undo.pop());
  state.gesture = null;
  documentChanged(true);
}

function redo() {
  if (!state.redo.length) return;
  state.undo.push(JSON.stringify(state.doc));
  state.doc = JSON.parse(state.redo.pop());
  state.gesture = null;
  documentChanged(true);
}

function documentText() {
  return state.doc ? JSON.stringify(state.doc, null, 2) + '\n' : state.rawText;
}

let sendTimer = null;
function documentChanged(rebuild) {
  state.dirty = true;
  updateTitle();
  if (rebuild) renderAll();
  clearTimeout(sendTimer);
  sendTimer = setTimeout(sendDocument, 60);
}

let sendSeq = 0;
async function sendDocument() {
  if (!state.file) return;
  const seq = ++sendSeq;
  const r = await api('POST', '/api/preview/document?' + q({ path: state.file }), documentText());
  if (seq !== sendSeq) return; // a newer document was sent meanwhile
  if (!r.ok) { showDiagnostics([{ severity: 'error', path: '', message: r.json.error, text: r.json.error }]); return; }
  showDiagnostics(r.json.diagnostics || []);
  const banner = $('preview-state');
  if (r.json.previewing === 'last valid version') {
    banner.textContent = 'The document has errors: previewing the last valid version';
    banner.classList.add('shown');
  } else if (r.json.previewing === 'nothing') {
    banner.textContent = 'The document has errors: nothing to preview yet';
    banner.classList.add('shown');
  } else {
    banner.classList.remove('shown');
  }
}

function updateTitle() {
  document.title = (state.dirty ? '* ' : '') + (state.file || 'Spindrift editor');
  $('undo-btn').disabled = !state.undo.length;
  $('redo-btn').disabled = !state.redo.length;
}

// ---------------------------------------------------------------------------------------------
// Diagnostics, shown in the list and on the control at their JSON path (or the nearest control
// above it).

function showDiagnostics(list) {
  state.diagnostics = list;
  document.querySelectorAll('.field-error, .field-warning').forEach((e) => e.remove());
  document.querySelectorAll('.field.error').forEach((e) => e.classList.remove('error'));
  document.querySelectorAll('.bad').forEach((e) => e.classList.remove('bad'));
  const ul = $('diagnostics');
  ul.textContent = '';
  const emitterErrors = new Set();
  for (const d of list) {
    const li = document.createElement('li');
    li.className = d.severity;
    li.textContent = (d.line ? d.line + ':' + d.column + ' ' : '') + (d.path ? d.path + ': ' : '') + d.message;
    li.addEventListener('click', () => revealPath(d.path));
    ul.appendChild(li);
    const m = /^\$\.emitters\[(\d+)\]/.exec(d.path || '');
    if (m && d.severity === 'error') emitterErrors.add(Number(m[1]));
    attachToField(d);
  }
  document.querySelectorAll('#emitters li').forEach((li, i) => li.classList.toggle('has-error', emitterErrors.has(i)));
}

function fieldFor(path) {
  let p = path || '';
  while (p.length > 1) {
    const el = document.querySelector('.field[data-field="' + CSS.escape(p) + '"]');
    if (el) return el;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    if (cut <= 0) break;
    p = p.slice(0, cut);
  }
  return null;
}

function attachToField(d) {
  const field = fieldFor(d.path);
  if (!field) return;
  const msg = document.createElement('div');
  msg.className = d.severity === 'error' ? 'field-error' : 'field-warning';
  msg.textContent = d.message;
  if (d.severity === 'error') {
    field.classList.add('error');
    const input = field.querySelector(':scope > input, :scope > select, :scope > .control input');
    if (input) input.classList.add('bad');
  }
  field.appendChild(msg);
}

function revealPath(path) {
  const m = /^\$\.emitters\[(\d+)\]/.exec(path || '');
  if (m && Number(m[1]) !== state.selected) { state.selected = Number(m[1]); renderAll(); showDiagnostics(state.diagnostics); }
  const f = fieldFor(path);
  if (f) f.scrollIntoView({ block: 'center' });
}

// ---------------------------------------------------------------------------------------------
// The form, generated from the schema.

function refName(schema) { return schema && schema.$ref ? schema.$ref.split('/').pop() : ''; }

function resolve(schema) {
  let s = schema;
  let guard = 0;
  while (s && s.$ref && guard++ < 20) s = state.schema.$defs[refName(s)];
  return s || {};
}

function typeOf(v) {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  return typeof v;
}

// Whether a value fits a schema closely enough to pick that variant of an anyOf/oneOf.
function fits(schema, v) {
  const s = resolve(schema);
  if (s.const !== undefined) return v === s.const;
  if (s.oneOf || s.anyOf) {
    if (s.properties && s.properties.type && typeOf(v) === 'object') return true;
    return (s.oneOf || s.anyOf).some((x) => fits(x, v));
  }
  const t = typeOf(v);
  if (s.type === 'number' || s.type === 'integer') return t === 'number';
  if (s.type === 'boolean') return t === 'boolean';
  if (s.type === 'string') return t === 'string';
  if (s.type === 'array') {
    if (t !== 'array') return false;
    if (s.minItems !== undefined && v.length < s.minItems) return false;
    if (s.maxItems !== undefined && v.length > s.maxItems) return false;
    return true;
  }
  if (s.type === 'object') {
    if (t !== 'object') return false;
    if (s.properties && s.properties.type && s.properties.type.const !== undefined) return v.type === s.properties.type.const;
    if (s.required) return s.required.every((k) => k in v);
    return true;
  }
  return false;
}

// A value for a key just added.
function newValue(schema) {
  const s = resolve(schema);
  if (s.default !== undefined) return JSON.parse(JSON.stringify(s.default));
  if (s.const !== undefined) return s.const;
  if (s.oneOf || s.anyOf) {
    const v = (s.oneOf || s.anyOf)[0];
    if (s.properties && s.properties.type && s.properties.type.enum) return { type: s.properties.type.enum[0] };
    return newValue(v);
  }
  switch (s.type) {
    case 'number': case 'integer':
      return s.minimum !== undefined && s.minimum > -1e30 ? s.minimum : (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
    case 'boolean': return false;
    case 'string': return s.enum ? s.enum[0] : '';
    case 'array': {
      if (s.prefixItems) return s.prefixItems.map((x) => newValue(x));
      const n = s.minItems || 0;
      const out = [];
      for (let i = 0; i < n; ++i) out.push(newValue(s.items || {}));
      return out;
    }
    case 'object': {
      const o = {};
      for (const k of s.required || []) o[k] = newValue(s.properties[k]);
      return o;
    }
  }
  return 0;
}

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  if (props) for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v; else if (k === 'dataset') Object.assign(e.dataset, v); else e[k] = v;
  }
  for (const c of children) if (c != null) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

function numberInput(keys, value, gesturePrefix) {
  const input = el('input', { type: 'number', step: 'any', value: String(value) });
  input.dataset.path = pathText(keys);
  const key = (gesturePrefix || '') + pathText(keys);
  input.addEventListener('input', () => {
    const v = Number(input.value);
    if (input.value.trim() === '' || !Number.isFinite(v)) return;
    edit(key, () => setAt(keys, v), false);
    if (input.onvaluechange) input.onvaluechange();
  });
  input.addEventListener('change', endGesture);
  input.addEventListener('blur', endGesture);
  return input;
}

function isNumberTuple(s) {
  const r = resolve(s);
  if (r.type !== 'array') return false;
  if (r.prefixItems) return r.prefixItems.every((x) => resolve(x).type === 'number' || resolve(x).type === 'integer');
  const it = resolve(r.items || {});
  return (it.type === 'number' || it.type === 'integer') && r.maxItems !== undefined && r.maxItems <= 4;
}

// One control for the value at keys, described by schema. label: the key's name.
function buildField(keys, schema, label, removable) {
  const s = resolve(schema);
  const ref = refName(schema);
  const value = getAt(keys);
  const field = el('div', { class: 'field', title: s.description || '' });
  field.dataset.field = pathText(keys);
  const head = el('span', { class: 'label' }, label);
  field.appendChild(head);
  if (removable) {
    const rm = el('button', { class: 'remove', textContent: '\u00d7', title: 'Remove this key (back to its default)' });
    rm.addEventListener('click', () => edit(null, () => deleteAt(keys), true));
    field.appendChild(rm);
  }
  if (/^curve/.test(ref)) { field.appendChild(curveEditor(keys, value)); return field; }
  if (ref === 'gradient') { field.appendChild(gradientEditor(keys, value)); return field; }

  const variants = s.oneOf || s.anyOf;
  if (variants && !(s.properties && s.properties.type)) {
    let index = variants.findIndex((v) => fits(v, value));
    if (index < 0) index = 0;
    if (variants.length > 1) {
      const pick = el('select', { title: 'Kind of value' });
      variants.forEach((v, i) => pick.appendChild(el('option', { value: String(i), textContent: variantName(v) })));
      pick.value = String(index);
      pick.addEventListener('change', () => edit(null, () => setAt(keys, newValue(variants[Number(pick.value)])), true));
      field.appendChild(pick);
    }
    const inner = buildField(keys, variants[index], '', false);
    inner.classList.add('control');
    inner.querySelector('.label').remove();
    field.appendChild(inner);
    return field;
  }
  if (s.properties && s.properties.type && variants && typeOf(value) === 'object') {
    // A module: its type picks the variant.
    const pick = el('select');
    for (const t of s.properties.type.enum) pick.appendChild(el('option', { value: t, textContent: t }));
    pick.value = value.type;
    pick.dataset.path = pathText([...keys, 'type']);
    pick.addEventListener('change', () => edit(null, () => setAt(keys, { type: pick.value }), true));
    field.appendChild(pick);
    const variant = variants.find((v) => fits(v, value)) || variants[0];
    field.appendChild(objectChildren(keys, resolve(variant), ['type']));
    return field;
  }
  if (s.const !== undefined) { field.appendChild(el('span', { textContent: JSON.stringify(s.const) })); return field; }

  const t = s.type;
  if (t === 'number' || t === 'integer') {
    field.appendChild(numberInput(keys, value));
  } else if (t === 'boolean') {
    const box = el('input', { type: 'checkbox', checked: !!value });
    box.dataset.path = pathText(keys);
    box.addEventListener('change', () => edit(null, () => setAt(keys, box.checked), false));
    field.appendChild(box);
  } else if (t === 'string' && s.enum) {
    const sel = el('select');
    for (const v of s.enum) sel.appendChild(el('option', { value: v, textContent: v }));
    sel.value = value;
    sel.dataset.path = pathText(keys);
    sel.addEventListener('change', () => edit(null, () => setAt(keys, sel.value), true));
    field.appendChild(sel);
  } else if (t === 'string') {
    const input = el('input', { type: 'text', value: value == null ? '' : String(value) });
    input.dataset.path = pathText(keys);
    // References name another emitter (sub-emitter links) or a parameter: offer the names.
    const last = keys[keys.length - 1];
    if (last === 'emitter') input.setAttribute('list', 'emitter-names');
    if (last === 'param') input.setAttribute('list', 'parameter-names');
    input.addEventListener('input', () => edit(pathText(keys), () => setAt(keys, input.value), false));
    input.addEventListener('blur', endGesture);
    field.appendChild(input);
  } else if (t === 'array' && isNumberTuple(s) && typeOf(value) === 'array') {
    const row = el('span', { class: 'control' });
    value.forEach((x, i) => {
      if (typeOf(x) === 'number') row.appendChild(numberInput([...keys, i], x));
      else row.appendChild(el('span', { textContent: JSON.stringify(x) }));
    });
    if (ref === 'color') row.appendChild(colorPicker(keys, value));
    field.appendChild(row);
  } else if (t === 'array' && typeOf(value) === 'array') {
    field.appendChild(arrayChildren(keys, s));
  } else if (t === 'object' && typeOf(value) === 'object') {
    field.appendChild(objectChildren(keys, s, []));
  } else {
    field.appendChild(el('span', { textContent: JSON.stringify(value) }));
  }
  return field;
}

function variantName(v) {
  const r = resolve(v);
  const ref = refName(v);
  if (ref === 'param_ref') return 'parameter';
  if (ref) return ref;
  if (r.type === 'array') return r.minItems === 2 && r.maxItems === 2 ? 'range' : 'list';
  if (r.type === 'object') return 'keyed';
  return r.type || 'value';
}

function objectChildren(keys, s, skip) {
  const box = el('div', { class: 'children' });
  const value = getAt(keys);
  const props = s.properties || {};
  for (const [k, sub] of Object.entries(props)) {
    if (skip.includes(k) || !(k in value)) continue;
    box.appendChild(buildField([...keys, k], sub, k, !(s.required || []).includes(k)));
  }
  const absent = Object.keys(props).filter((k) => !skip.includes(k) && !(k in value));
  if (absent.length) {
    const add = el('select', { class: 'add-key', title: 'Add a key (it starts at its default)' });
    add.appendChild(el('option', { value: '', textContent: '+ key' }));
    for (const k of absent) add.appendChild(el('option', { value: k, textContent: k }));
    add.addEventListener('change', () => {
      const k = add.value;
      if (k) edit(null, () => setAt([...keys, k], newValue(props[k])), true);
    });
    box.appendChild(add);
  }
  return box;
}

function arrayChildren(keys, s) {
  const box = el('div', { class: 'children' });
  const value = getAt(keys);
  const itemSchema = s.items || {};
  value.forEach((item, i) => {
    const wrap = el('div', { class: 'list-item' });
    const tools = el('span', { class: 'row' });
    const up = el('button', { textContent: '\u2191', title: 'Move up', disabled: i === 0 });
    up.addEventListener('click', () => edit(null, () => { const a = getAt(keys); [a[i - 1], a[i]] = [a[i], a[i - 1]]; }, true));
    const down = el('button', { textContent: '\u2193', title: 'Move down', disabled: i === value.length - 1 });
    down.addEventListener('click', () => edit(null, () => { const a = getAt(keys); [a[i + 1], a[i]] = [a[i], a[i + 1]]; }, true));
    const rm = el('button', { textContent: '\u00d7', title: 'Remove' });
    rm.addEventListener('click', () => edit(null, () => getAt(keys).splice(i, 1), true));
    tools.append(up, down, rm);
    wrap.appendChild(tools);
    wrap.appendChild(buildField([...keys, i], itemSchema, '#' + i, false));
    box.appendChild(wrap);
  });
  const add = el('button', { textContent: '+ add', title: 'Add an item at the end' });
  add.addEventListener('click', () => edit(null, () => getAt(keys).push(newValue(itemSchema)), true));
  box.appendChild(add);
  return box;
}

function linearToHex(rgb) {
  const c = (x) => {
    const v = Math.max(0, Math.min(1, x));
    const s = v <= 0.0031308 ? v * 12.92 : 1.055 * Math.pow(v, 1 / 2.4) - 0.055;
    return Math.round(s * 255).toString(16).padStart(2, '0');
  };
  return '#' + c(rgb[0]) + c(rgb[1]) + c(rgb[2]);
}

function hexToLinear(hex) {
  const out = [];
  for (let i = 0; i < 3; ++i) {
    const s = parseInt(hex.substr(1 + 2 * i, 2), 16) / 255;
    out.push(Number((s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4)).toFixed(4)));
  }
  return out;
}

// A colour picker for [r, g, b, ...] at keys (first index `first`); HDR values above 1 keep
// their intensity: the picked hue is scaled by the largest channel.
function colorPicker(keys, value, first = 0) {
  const rgb = value.slice(first, first + 3);
  const peak = Math.max(1, ...rgb.filter((x) => typeof x === 'number'));
  const pick = el('input', { type: 'color', value: linearToHex(rgb.map((x) => x / peak)), title: 'Colour (HDR intensity kept)' });
  pick.addEventListener('input', () => {
    const lin = hexToLinear(pick.value).map((x) => Number((x * peak).toFixed(4)));
    edit('color' + pathText(keys), () => { const a = getAt(keys); for (let i = 0; i < 3; ++i) a[first + i] = lin[i]; }, false);
  });
  pick.addEventListener('change', () => { endGesture(); renderAll(); showDiagnostics(state.diagnostics); });
  return pick;
}

// ---------------------------------------------------------------------------------------------
// Curve editor: keys [t, value] on a canvas (drag them; double-click adds one), a table of
// numbers, the interpolation. A constant curve is a number until made keyed.

function curveEditor(keys, value) {
  const box = el('div', { class: 'control curve-editor' });
  if (typeOf(value) === 'number') {
    box.appendChild(numberInput(keys, value));
    const make = el('button', { textContent: 'curve\u2026', title: 'Make it a keyed curve' });
    make.addEventListener('click', () => edit(null, () => setAt(keys, { keys: [[0, value], [1, value]] }), true));
    box.appendChild(make);
    return box;
  }
  if (typeOf(value) !== 'object' || !Array.isArray(value.keys)) {
    box.appendChild(el('span', { textContent: JSON.stringify(value) }));
    return box;
  }
  const interp = el('select');
  for (const m of ['linear', 'smooth', 'step']) interp.appendChild(el('option', { value: m, textContent: m }));
  interp.value = value.interpolation || 'linear';
  interp.dataset.path = pathText([...keys, 'interpolation']);
  interp.addEventListener('change', () => edit(null, () => { getAt(keys).interpolation = interp.value; }, true));
  const flat = el('button', { textContent: 'constant', title: 'Make it a constant (the first key\'s value)' });
  flat.addEventListener('click', () => edit(null, () => setAt(keys, getAt(keys).keys[0][1]), true));
  box.append(interp, flat);

  const canvas = el('canvas', { class: 'curve', width: 300, height: 110 });
  box.appendChild(canvas);
  const W = canvas.width, H = canvas.height, pad = 8;
  let lo = 0, hi = 1;
  const range = () => {
    const vs = getAt(keys).keys.map((k) => k[1]);
    lo = Math.min(0, ...vs); hi = Math.max(1, ...vs);
    const m = (hi - lo) * 0.1; lo -= m; hi += m;
  };
  const toX = (t) => pad + t * (W - 2 * pad);
  const toY = (v) => H - pad - (v - lo) / (hi - lo) * (H - 2 * pad);
  const fromX = (x) => Math.max(0, Math.min(1, (x - pad) / (W - 2 * pad)));
  const fromY = (y) => lo + (H - pad - y) / (H - 2 * pad) * (hi - lo);
  const draw = () => {
    const c = canvas.getContext('2d');
    const ks = getAt(keys).keys;
    c.clearRect(0, 0, W, H);
    c.strokeStyle = '#333'; c.beginPath(); c.moveTo(pad, toY(0)); c.lineTo(W - pad, toY(0)); c.stroke();
    c.strokeStyle = '#6af'; c.beginPath();
    for (let i = 0; i <= 100; ++i) {
      const t = i / 100;
      const v = sampleCurve(ks, getAt(keys).interpolation || 'linear', t);
      if (i === 0) c.moveTo(toX(t), toY(v)); else c.lineTo(toX(t), toY(v));
    }
    c.stroke();
    c.fillStyle = '#fc4';
    for (const k of ks) c.fillRect(toX(k[0]) - 3, toY(k[1]) - 3, 6, 6);
  };
  range(); draw();
  let drag = -1;
  canvas.addEventListener('pointerdown', (e) => {
    const ks = getAt(keys).keys;
    drag = ks.findIndex((k) => Math.abs(toX(k[0]) - e.offsetX) < 6 && Math.abs(toY(k[1]) - e.offsetY) < 6);
    if (drag >= 0) canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (drag < 0) return;
    edit('curve-drag' + pathText(keys), () => {
      const ks = getAt(keys).keys;
      const tMin = drag > 0 ? ks[drag - 1][0] + 0.001 : 0;
      const tMax = drag < ks.length - 1 ? ks[drag + 1][0] - 0.001 : 1;
      ks[drag][0] = Number(Math.max(tMin, Math.min(tMax, fromX(e.offsetX))).toFixed(3));
      ks[drag][1] = Number(fromY(e.offsetY).toPrecision(4));
    }, false);
    draw();
  });
  canvas.addEventListener('pointerup', () => { if (drag >= 0) { drag = -1; endGesture(); renderAll(); showDiagnostics(state.diagnostics); } });
  canvas.addEventListener('dblclick', (e) => {
    const t = Number(fromX(e.offsetX).toFixed(3));
    edit(null, () => {
      const ks = getAt(keys).keys;
      if (ks.some((k) => Math.abs(k[0] - t) < 0.002) || ks.length >= 32) return;
      ks.push([t, Number(fromY(e.offsetY).toPrecision(4))]);
      ks.sort((a, b) => a[0] - b[0]);
    }, true);
  });
  const table = el('table', { class: 'keys' });
  getAt(keys).keys.forEach((k, i) => {
    const tIn = numberInput([...keys, 'keys', i, 0], k[0]);
    const vIn = numberInput([...keys, 'keys', i, 1], k[1]);
    tIn.onvaluechange = vIn.onvaluechange = () => { range(); draw(); };
    const rm = el('button', { textContent: '\u00d7', disabled: getAt(keys).keys.length <= 1 });
    rm.addEventListener('click', () => edit(null, () => getAt(keys).keys.splice(i, 1), true));
    const row = el('tr', null, el('td', null, 't'), el('td', null, tIn), el('td', null, 'v'), el('td', null, vIn), el('td', null, rm));
    const f = el('td');
    f.className = 'field';
    f.dataset.field = pathText([...keys, 'keys', i]);
    row.appendChild(f);
    table.appendChild(row);
  });
  box.appendChild(table);
  return box;
}

function sampleCurve(ks, mode, t) {
  if (t <= ks[0][0]) return ks[0][1];
  for (let i = 1; i < ks.length; ++i) {
    if (t <= ks[i][0]) {
      const a = ks[i - 1], b = ks[i];
      let u = (t - a[0]) / Math.max(1e-9, b[0] - a[0]);
      if (mode === 'step') u = 0; else if (mode === 'smooth') u = u * u * (3 - 2 * u);
      return a[1] + (b[1] - a[1]) * u;
    }
  }
  return ks[ks.length - 1][1];
}

// ---------------------------------------------------------------------------------------------
// Gradient editor: a bar of the gradient; colour keys (below) and alpha keys (above) dragged
// along it; numbers and a colour picker per key. HDR colours (channels above 1) are shown
// normalised and keep their intensity when picked.

function gradientEditor(keys, value) {
  const box = el('div', { class: 'control gradient-editor' });
  if (typeOf(value) !== 'object') { box.appendChild(el('span', { textContent: JSON.stringify(value) })); return box; }
  const g = () => getAt(keys);
  const colorKeys = () => g().color_keys || [[0, 1, 1, 1]];
  const alphaKeys = () => g().alpha_keys || [[0, 1]];
  const canvas = el('canvas', { class: 'gradient', width: 300, height: 46 });
  box.appendChild(canvas);
  const W = canvas.width, pad = 6;
  const toX = (t) => pad + t * (W - 2 * pad);
  const fromX = (x) => Math.max(0, Math.min(1, (x - pad) / (W - 2 * pad)));
  const draw = () => {
    const c = canvas.getContext('2d');
    c.clearRect(0, 0, W, 46);
    const ck = colorKeys(), ak = alphaKeys();
    const mode = g().interpolation || 'linear';
    for (let x = pad; x < W - pad; ++x) {
      const t = fromX(x);
      const rgb = [1, 2, 3].map((j) => sampleCurve(ck.map((k) => [k[0], k[j]]), mode, t));
      const peak = Math.max(1, ...rgb);
      const a = sampleCurve(ak, mode, t);
      c.fillStyle = linearToHex(rgb.map((v) => v / peak));
      c.globalAlpha = 0.25 + 0.75 * a;
      c.fillRect(x, 10, 1, 24);
    }
    c.globalAlpha = 1;
    c.fillStyle = '#fff';
    for (const k of ak) c.fillRect(toX(k[0]) - 3, 1, 6, 8);
    c.fillStyle = '#fc4';
    for (const k of ck) c.fillRect(toX(k[0]) - 3, 36, 6, 9);
  };
  draw();
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    const list = e.offsetY < 10 ? 'alpha_keys' : e.offsetY > 34 ? 'color_keys' : null;
    if (!list || !g()[list]) return;
    const i = g()[list].findIndex((k) => Math.abs(toX(k[0]) - e.offsetX) < 6);
    if (i >= 0) { drag = { list, i }; canvas.setPointerCapture(e.pointerId); }
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    edit('gradient-drag' + pathText(keys), () => {
      const ks = g()[drag.list];
      const tMin = drag.i > 0 ? ks[drag.i - 1][0] + 0.001 : 0;
      const tMax = drag.i < ks.length - 1 ? ks[drag.i + 1][0] - 0.001 : 1;
      ks[drag.i][0] = Number(Math.max(tMin, Math.min(tMax, fromX(e.offsetX))).toFixed(3));
    }, false);
    draw();
  });
  canvas.addEventListener('pointerup', () => { if (drag) { drag = null; endGesture(); renderAll(); showDiagnostics(state.diagnostics); } });

  const interp = el('select');
  for (const m of ['linear', 'smooth', 'step']) interp.appendChild(el('option', { value: m, textContent: m }));
  interp.value = g().interpolation || 'linear';
  interp.addEventListener('change', () => edit(null, () => { g().interpolation = interp.value; }, true));
  box.appendChild(interp);

  for (const list of ['color_keys', 'alpha_keys']) {
    const table = el('table', { class: 'keys' });
    table.appendChild(el('tr', null, el('td', null, list === 'color_keys' ? 'colour keys [t, r, g, b]' : 'alpha keys [t, a]')));
    (g()[list] || []).forEach((k, i) => {
      const row = el('tr');
      row.className = 'field';
      row.dataset.field = pathText([...keys, list, i]);
      k.forEach((x, j) => {
        const input = numberInput([...keys, list, i, j], x);
        input.onvaluechange = draw;
        row.appendChild(el('td', null, input));
      });
      if (list === 'color_keys') row.appendChild(el('td', null, colorPicker([...keys, list, i], k, 1)));
      const rm = el('button', { textContent: '\u00d7', disabled: g()[list].length <= 1 });
      rm.addEventListener('click', () => edit(null, () => g()[list].splice(i, 1), true));
      row.appendChild(el('td', null, rm));
      table.appendChild(row);
    });
    const add = el('button', { textContent: list === 'color_keys' ? '+ colour key' : '+ alpha key' });
    add.addEventListener('click', () => edit(null, () => {
      if (!g()[list]) g()[list] = list === 'color_keys' ? [[0, 1, 1, 1]] : [[0, 1]];
      const ks = g()[list];
      if (ks.length >= 16) return;
      const last = ks[ks.length - 1];
      if (last[0] >= 1) { // insert between the last two keys
        const prev = ks.length > 1 ? ks[ks.length - 2] : [0];
        const t = Number(((prev[0] + last[0]) / 2).toFixed(3));
        ks.splice(ks.length - 1, 0, [t, ...last.slice(1)]);
      } else {
        ks.push([1, ...last.slice(1)]);
      }
    }, true));
    box.append(table, add);
  }
  return box;
}

// ---------------------------------------------------------------------------------------------
// Emitter list and forms

function renderAll() {
  updateTitle();
  $('raw-box').hidden = !!state.doc;
  if (!state.doc) {
    $('raw-text').value = state.rawText;
    $('emitters').textContent = '';
    $('emitter-form').textContent = '';
    $('effect-form').textContent = '';
    return;
  }
  const emitters = Array.isArray(state.doc.emitters) ? state.doc.emitters : [];
  if (state.selected >= emitters.length) state.selected = Math.max(0, emitters.length - 1);
  const ul = $('emitters');
  ul.textContent = '';
  emitters.forEach((e, i) => {
    const name = e && typeof e.name === 'string' ? e.name : '(unnamed)';
    const li = el('li', { class: i === state.selected ? 'selected' : '' });
    li.dataset.index = String(i);
    const up = el('button', { textContent: '\u2191', title: 'Move up', disabled: i === 0 });
    up.addEventListener('click', (ev) => { ev.stopPropagation(); moveEmitter(i, -1); });
    const down = el('button', { textContent: '\u2193', title: 'Move down', disabled: i === emitters.length - 1 });
    down.addEventListener('click', (ev) => { ev.stopPropagation(); moveEmitter(i, 1); });
    const solo = el('button', { textContent: 'S', title: 'Solo (preview only)', class: state.solo === name ? 'on solo' : 'solo' });
    solo.addEventListener('click', (ev) => { ev.stopPropagation(); state.solo = state.solo === name ? '' : name; sendFilter(); renderAll(); });
    const mute = el('button', { textContent: 'M', title: 'Mute (preview only)', class: state.muted.has(name) ? 'on mute' : 'mute' });
    mute.addEventListener('click', (ev) => { ev.stopPropagation(); if (state.muted.has(name)) state.muted.delete(name); else state.muted.add(name); sendFilter(); renderAll(); });
    li.append(el('span', { class: 'name', textContent: name }), solo, mute, up, down);
    li.addEventListener('click', () => { state.selected = i; renderAll(); showDiagnostics(state.diagnostics); });
    li.addEventListener('dblclick', () => renameEmitter());
    ul.appendChild(li);
  });
  for (const [id, names] of [['emitter-names', emitters.map((e) => e && e.name)],
    ['parameter-names', (state.doc.parameters || []).map((p) => p && p.name)]]) {
    const list = $(id);
    list.textContent = '';
    for (const n of names) if (typeof n === 'string') list.appendChild(el('option', { value: n }));
  }
  const defs = state.schema.$defs;
  const rootSchema = { type: 'object', properties: {}, required: state.schema.required };
  for (const [k, v] of Object.entries(state.schema.properties)) if (k !== 'emitters') rootSchema.properties[k] = v;
  const ef = $('effect-form');
  ef.textContent = '';
  ef.appendChild(objectChildren([], rootSchema, ['emitters']));
  const form = $('emitter-form');
  form.textContent = '';
  if (emitters.length && typeOf(emitters[state.selected]) === 'object') {
    $('emitter-title').textContent = 'Emitter: ' + (emitters[state.selected].name || '');
    form.appendChild(buildField(['emitters', state.selected], defs.emitter, '', false));
  }
  drawTimeline();
}

function emitterNames() { return (state.doc.emitters || []).map((e) => e && e.name); }

function freshName(base) {
  const names = new Set(emitterNames());
  let n = base.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 56) || 'emitter';
  if (!names.has(n)) return n;
  for (let i = 2; ; ++i) if (!names.has(n + '_' + i)) return n + '_' + i;
}

function moveEmitter(i, d) {
  const j = i + d;
  edit(null, () => { const a = state.doc.emitters; [a[i], a[j]] = [a[j], a[i]]; }, false);
  state.selected = j;
  renderAll();
}

function renameEmitter() {
  const e = state.doc.emitters[state.selected];
  if (!e) return;
  const name = prompt('New name of the emitter', e.name);
  if (name === null || name === e.name) return;
  edit(null, () => {
    const old = e.name;
    e.name = name;
    // Sub-emitter links follow the rename.
    for (const other of state.doc.emitters) for (const s of (other && other.sub_emitters) || []) if (s.emitter === old) s.emitter = name;
  }, true);
}

function sendFilter() {
  api('POST', '/api/preview/control?action=filter', { muted: [...state.muted], solo: state.solo });
}

// ---------------------------------------------------------------------------------------------
// Files

async function refreshFileList(select) {
  const r = await api('GET', '/api/files');
  const sel = $('file-list');
  sel.textContent = '';
  sel.appendChild(el('option', { value: '', textContent: '(open a file)' }));
  for (const f of (r.json.files || [])) sel.appendChild(el('option', { value: f.path, textContent: f.path }));
  sel.value = select || state.file;
}

async function openFile(path) {
  const r = await api('GET', '/api/file?' + q({ path }));
  if (!r.ok) { setStatus(r.json.error); return false; }
  loadText(path, r.json.text, r.json.modified_ns);
  setStatus('opened ' + path);
  return true;
}

function loadText(path, text, mtime) {
  state.file = path;
  state.mtime = mtime;
  state.dirty = false;
  state.undo = [];
  state.redo = [];
  state.gesture = null;
  try { state.doc = JSON.parse(text); } catch (e) { state.doc = null; }
  state.rawText = text;
  if (state.doc !== null && typeOf(state.doc) !== 'object') state.doc = null;
  $('file-list').value = path;
  renderAll();
  sendDocument();
  updateTitle();
}

async function save() {
  if (!state.file) return;
  const r = await api('POST', '/api/file?' + q({ path: state.file }), documentText());
  if (!r.ok) {
    setStatus('not saved: ' + r.json.error);
    if (r.json.diagnostics) showDiagnostics(r.json.diagnostics);
    return;
  }
  state.mtime = r.json.modified_ns;
  state.dirty = false;
  state.doc = JSON.parse(r.json.text);
  renderAll();
  showDiagnostics(state.diagnostics);
  setStatus('saved ' + state.file);
}

async function newFromTemplate() {
  let name = $('new-name').value.trim();
  if (!name) { setStatus('name the new file first'); return; }
  if (!name.endsWith('.json')) name += '.json';
  if (state.dirty && !confirm('Discard the unsaved edits of ' + state.file + '?')) return;
  const t = await api('GET', '/api/template?' + q({ name: $('template-select').value }));
  if (!t.ok) { setStatus(t.json.error); return; }
  const doc = JSON.parse(t.json.text);
  doc.name = name.replace(/\.json$/, '').split('/').pop().replace(/[^A-Za-z0-9_-]/g, '_');
  const r = await api('POST', '/api/file?' + q({ path: name, create: '1' }), JSON.stringify(doc, null, 2));
  if (!r.ok) { setStatus('not created: ' + r.json.error); return; }
  await refreshFileList(name);
  loadText(name, r.json.text, r.json.modified_ns);
  setStatus('created ' + name + ' from ' + $('template-select').value);
}

// The file on disk changed: take it, unless there are unsaved edits (then the user chooses).
async function pollDisk() {
  if (!state.file) return;
  const r = await api('GET', '/api/file/stat?' + q({ path: state.file }));
  if (!r.ok || !r.json.exists || r.json.modified_ns === state.mtime) return;
  if (!state.dirty) {
    const path = state.file;
    if (await openFile(path)) setStatus('reloaded ' + path + ': it changed on disk');
  } else {
    $('external-bar').hidden = false;
  }
}

// ---------------------------------------------------------------------------------------------
// Preview: frames, transport, timeline, camera

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function frameLoop() {
  for (;;) {
    try {
      const res = await fetch('/api/preview/frame');
      if (res.status === 200) {
        const stats = JSON.parse(res.headers.get('X-Spindrift-Stats') || '{}');
        const blob = await res.blob();
        const img = $('preview');
        const old = img.src;
        img.src = URL.createObjectURL(blob);
        if (old.startsWith('blob:')) URL.revokeObjectURL(old);
        showStats(stats);
        if (!stats.playing) await sleep(120);
      } else {
        await sleep(300);
      }
    } catch (e) {
      await sleep(500);
    }
  }
}

function showStats(s) {
  state.stats = s;
  const now = performance.now();
  if (s.playing) {
    state.frameTimes.push(now);
    while (state.frameTimes.length > 30) state.frameTimes.shift();
  } else {
    state.frameTimes = [];
  }
  const fps = state.frameTimes.length > 1 ? (state.frameTimes.length - 1) * 1000 / (now - state.frameTimes[0]) : 0;
  $('play-btn').textContent = s.playing ? 'Pause' : 'Play';
  if (!state.seeking) $('time-readout').textContent = (s.time_s || 0).toFixed(3) + ' s';
  $('time-readout').dataset.time = String(s.time_s || 0);
  $('time-readout').dataset.live = String(s.live || 0);
  const body = $('stats').tBodies[0];
  body.textContent = '';
  for (const e of s.emitters || []) {
    const row = el('tr', null, el('td', null, e.name), el('td', null, e.backend), el('td', null, String(e.live)),
      el('td', null, String(e.births)), el('td', null, String(e.deaths)), el('td', null, String(e.drops)),
      el('td', null, (100 * e.capacity_use).toFixed(1) + ' % of ' + e.capacity));
    row.dataset.emitter = e.name;
    body.appendChild(row);
  }
  const ms = s.ms || {};
  $('stats-summary').textContent =
    'time ' + (s.time_s || 0).toFixed(4) + ' s, ' + (s.steps || 0) + ' fixed steps, live ' + (s.live || 0) +
    ', discarded ' + (s.discarded_steps || 0) + ' steps (' + (s.discarded_s || 0).toFixed(3) + ' s)\n' +
    'this frame: ' + (s.frame_steps || 0) + ' steps' + (s.frame_replayed_from_zero ? ' (replayed from 0)' : '') + '\n' +
    'backend ' + (s.backend || '') + ': ' + (s.backend_reason || '') + '\n' +
    'ms: simulate ' + (ms.simulate || 0).toFixed(1) + ', render ' + (ms.render || 0).toFixed(1) +
    ', encode ' + (ms.encode || 0).toFixed(1) + (fps ? '; ' + fps.toFixed(1) + ' frames/s' : '');
  drawTimeline();
  drawGizmos();
}

// ---------------------------------------------------------------------------------------------
// Gizmos: each emitter's shape and the effect's bounds, drawn over the image with the preview's
// camera (the renderer's look-at and vertical field of view; the effect stands at the origin).

function number(v, fallback) { return typeof v === 'number' && Number.isFinite(v) ? v : fallback; }

function vec3(v, fallback) {
  return Array.isArray(v) && v.length === 3 ? v.map((x, i) => number(x, fallback[i])) : fallback;
}

// parent_from_emitter = Rz * Ry * Rx (degrees), then the translation.
function emitterTransform(t) {
  const [ax, ay, az] = vec3(t && t.rotation_deg, [0, 0, 0]).map((d) => d * Math.PI / 180);
  const pos = vec3(t && t.position, [0, 0, 0]);
  return (p) => {
    let [x, y, z] = p;
    [y, z] = [y * Math.cos(ax) - z * Math.sin(ax), y * Math.sin(ax) + z * Math.cos(ax)];
    [x, z] = [x * Math.cos(ay) + z * Math.sin(ay), -x * Math.sin(ay) + z * Math.cos(ay)];
    [x, y] = [x * Math.cos(az) - y * Math.sin(az), x * Math.sin(az) + y * Math.cos(az)];
    return [x + pos[0], y + pos[1], z + pos[2]];
  };
}

// Polylines of a shape in emitter space.
function shapeLines(shape) {
  const s = shape || {};
  const r = number(s.radius, 0.5);
  const arc = number(s.arc_deg, 360) * Math.PI / 180;
  const ring = (radius, y, sweep = 2 * Math.PI, plane = 'xz') => {
    const pts = [];
    for (let i = 0; i <= 48; ++i) {
      const a = sweep * i / 48;
      // From +X toward -Z seen from above (docs/effect-format.md, arc_deg).
      if (plane === 'xz') pts.push([radius * Math.cos(a), y, -radius * Math.sin(a)]);
      else if (plane === 'xy') pts.push([radius * Math.cos(a), radius * Math.sin(a), 0]);
      else pts.push([0, radius * Math.sin(a), radius * Math.cos(a)]);
    }
    return pts;
  };
  const box = (h) => {
    const c = (i) => [(i & 1 ? 1 : -1) * h[0], (i & 2 ? 1 : -1) * h[1], (i & 4 ? 1 : -1) * h[2]];
    const lines = [];
    for (const [a, b] of [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]]) lines.push([c(a), c(b)]);
    return lines;
  };
  switch (s.type || 'point') {
    case 'line': { const l = number(s.length, 1) / 2; return [[[-l, 0, 0], [l, 0, 0]]]; }
    case 'box': return box(vec3(s.size, [1, 1, 1]).map((x) => x / 2));
    case 'sphere': return [ring(r, 0), ring(r, 0, 2 * Math.PI, 'xy'), ring(r, 0, 2 * Math.PI, 'yz')];
    case 'hemisphere': return [ring(r, 0), ring(r, 0, Math.PI, 'xy'), ring(r, 0, Math.PI, 'yz').map(([x, y, z]) => [x, y, z])];
    case 'circle': return [ring(r, 0, arc)];
    case 'torus': { const t = number(s.tube_radius, 0.1); return [ring(r, 0, arc), ring(r + t, 0, arc), ring(Math.max(0, r - t), 0, arc)]; }
    case 'cone': {
      const L = number(s.length, 1);
      const top = r + L * Math.tan(number(s.angle_deg, 25) * Math.PI / 180);
      const lines = [ring(r, 0, arc), ring(top, L, arc)];
      for (let i = 0; i < 4; ++i) {
        const a = arc * i / 4;
        lines.push([[r * Math.cos(a), 0, -r * Math.sin(a)], [top * Math.cos(a), L, -top * Math.sin(a)]]);
      }
      return lines;
    }
    case 'mesh': return [];
    default: return [[[-0.05, 0, 0], [0.05, 0, 0]], [[0, -0.05, 0], [0, 0.05, 0]], [[0, 0, -0.05], [0, 0, 0.05]]];
  }
}

function drawGizmos() {
  const canvas = $('gizmos');
  const c = canvas.getContext('2d');
  c.clearRect(0, 0, canvas.width, canvas.height);
  const s = state.stats;
  if (!$('gizmos-toggle').checked || !state.doc || !s || !s.camera || !s.camera.target) return;
  const cam = s.camera;
  const yaw = cam.yaw_deg * Math.PI / 180, pitch = cam.pitch_deg * Math.PI / 180;
  const t = cam.target;
  const eye = [t[0] + cam.distance_m * Math.cos(pitch) * Math.sin(yaw), t[1] + cam.distance_m * Math.sin(pitch),
    t[2] + cam.distance_m * Math.cos(pitch) * Math.cos(yaw)];
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  const norm = (a) => { const l = Math.hypot(...a) || 1; return a.map((x) => x / l); };
  const f = norm(sub(t, eye));
  const r = norm(cross(f, [0, 1, 0]));
  const u = cross(r, f);
  const W = canvas.width, H = canvas.height;
  const tanV = Math.tan((cam.fov_deg || 45) * Math.PI / 360);
  const near = cam.near_m || 0.05;
  const project = (p) => {
    const v = sub(p, eye);
    const z = dot(v, f);
    if (z < near) return null;
    return [W / 2 + dot(v, r) / (z * tanV * (W / H)) * W / 2, H / 2 - dot(v, u) / (z * tanV) * H / 2];
  };
  const stroke = (pts, color) => {
    c.strokeStyle = color;
    c.beginPath();
    let open = false;
    for (const p of pts) {
      const q = project(p);
      if (!q) { open = false; continue; }
      if (open) c.lineTo(q[0], q[1]); else c.moveTo(q[0], q[1]);
      open = true;
    }
    c.stroke();
  };
  const b = state.doc.bounds || {};
  const center = vec3(b.center, [0, 0, 0]);
  const half = vec3(b.half_extents, [1, 1, 1]);
  c.lineWidth = 1;
  c.setLineDash([4, 3]);
  for (const line of shapeLines({ type: 'box', size: half.map((x) => 2 * x) })) stroke(line.map((p) => [p[0] + center[0], p[1] + center[1], p[2] + center[2]]), 'rgba(255, 210, 80, 0.8)');
  c.setLineDash([]);
  (state.doc.emitters || []).forEach((e, i) => {
    if (!e || typeof e !== 'object' || e.enabled === false || state.muted.has(e.name) || (state.solo && state.solo !== e.name)) return;
    const place = emitterTransform(e.transform);
    const color = i === state.selected ? 'rgba(90, 220, 255, 0.95)' : 'rgba(120, 150, 255, 0.55)';
    c.lineWidth = i === state.selected ? 1.5 : 1;
    for (const line of shapeLines(e.shape)) stroke(line.map(place), color);
  });
}

function timelineEnd() {
  const s = state.stats || {};
  if (s.looping === false && s.end_s) return s.end_s;
  return s.duration_s || (state.doc && state.doc.duration_s) || 5;
}

function drawTimeline() {
  const canvas = $('timeline');
  const c = canvas.getContext('2d');
  const W = canvas.width, H = canvas.height, pad = 10;
  const end = timelineEnd();
  const toX = (t) => pad + Math.min(1, t / end) * (W - 2 * pad);
  c.clearRect(0, 0, W, H);
  c.fillStyle = '#3a3f48'; c.fillRect(pad, 18, W - 2 * pad, 8);
  c.fillStyle = '#999'; c.font = '10px sans-serif';
  for (let i = 0; i <= 10; ++i) {
    const t = end * i / 10;
    c.fillRect(toX(t), 28, 1, 4);
    if (i % 2 === 0) c.fillText(t.toFixed(2), toX(t) - 8, 42);
  }
  // Bursts: each emitter's burst times (delay_s plus time_s).
  c.fillStyle = '#f84';
  for (const e of (state.doc && state.doc.emitters) || []) {
    const spawn = (e && e.spawn) || {};
    for (const b of spawn.bursts || []) {
      const t = (spawn.delay_s || 0) + (b.time_s || 0);
      if (t <= end) c.fillRect(toX(t) - 1, 12, 3, 6);
    }
  }
  const t = state.stats ? state.stats.time_s || 0 : 0;
  c.fillStyle = '#6cf';
  c.fillRect(toX(t) - 2, 4, 4, 26);
}

let seekInFlight = false, seekPending = null;
async function seekTo(t) {
  seekPending = t;
  if (seekInFlight) return;
  seekInFlight = true;
  while (seekPending !== null) {
    const target = seekPending;
    seekPending = null;
    await api('POST', '/api/preview/control?' + q({ action: 'seek', t: target.toFixed(6) }));
  }
  seekInFlight = false;
}

function setupTimeline() {
  const canvas = $('timeline');
  const tAt = (e) => {
    const pad = 10;
    const u = Math.max(0, Math.min(1, (e.offsetX - pad) / (canvas.width - 2 * pad)));
    return u * timelineEnd();
  };
  canvas.addEventListener('pointerdown', (e) => {
    state.seeking = true;
    canvas.setPointerCapture(e.pointerId);
    const t = tAt(e);
    $('time-readout').textContent = t.toFixed(3) + ' s';
    seekTo(t);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!state.seeking) return;
    const t = tAt(e);
    $('time-readout').textContent = t.toFixed(3) + ' s';
    seekTo(t);
  });
  canvas.addEventListener('pointerup', () => { state.seeking = false; });
}

let camera = null, cameraInFlight = false, cameraPending = false;
async function sendCamera() {
  cameraPending = true;
  if (cameraInFlight) return;
  cameraInFlight = true;
  while (cameraPending) {
    cameraPending = false;
    await api('POST', '/api/preview/control?' + q({ action: 'camera', yaw: camera.yaw_deg, pitch: camera.pitch_deg, distance: camera.distance_m }));
  }
  cameraInFlight = false;
}

function setupPreview() {
  const img = $('preview');
  let drag = null;
  img.addEventListener('dragstart', (e) => e.preventDefault());
  img.addEventListener('pointerdown', (e) => {
    if (!state.stats || !state.stats.camera) return;
    camera = Object.assign({}, state.stats.camera);
    drag = { x: e.clientX, y: e.clientY };
    img.setPointerCapture(e.pointerId);
  });
  img.addEventListener('pointermove', (e) => {
    if (!drag) return;
    camera.yaw_deg -= (e.clientX - drag.x) * 0.4;
    camera.pitch_deg = Math.max(-85, Math.min(85, camera.pitch_deg + (e.clientY - drag.y) * 0.3));
    drag = { x: e.clientX, y: e.clientY };
    sendCamera();
  });
  img.addEventListener('pointerup', () => { drag = null; });
  img.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (!state.stats || !state.stats.camera) return;
    camera = camera || Object.assign({}, state.stats.camera);
    camera.distance_m = Math.max(0.05, Math.min(999, camera.distance_m * Math.pow(1.1, Math.sign(e.deltaY))));
    sendCamera();
  }, { passive: false });
  const control = (params) => api('POST', '/api/preview/control?' + q(params));
  $('play-btn').addEventListener('click', () => control({ action: state.stats && state.stats.playing ? 'pause' : 'play' }));
  $('restart-btn').addEventListener('click', () => control({ action: 'restart' }));
  $('step-btn').addEventListener('click', () => control({ action: 'step' }));
  $('frame-btn').addEventListener('click', () => { camera = null; control({ action: 'frame' }); });
  $('time-scale').addEventListener('change', () => control({ action: 'time_scale', value: $('time-scale').value }));
  $('ground').addEventListener('change', () => control({ action: 'ground', on: $('ground').checked ? '1' : '0' }));
  $('gizmos-toggle').addEventListener('change', drawGizmos);
  $('background').addEventListener('change', () => control({ action: 'background', name: $('background').value }));
  $('backend').addEventListener('change', async () => {
    const r = await control({ action: 'backend', name: $('backend').value });
    if (!r.ok) { setStatus(r.json.error); $('backend').value = state.stats ? state.stats.backend_request : 'cpu'; }
    else setStatus('preview backend: ' + $('backend').value);
  });
}

// ---------------------------------------------------------------------------------------------
// Start

async function main() {
  const schemaRes = await fetch('/schema/effect.schema.json');
  state.schema = await schemaRes.json();
  const info = (await api('GET', '/api/info')).json;
  for (const t of info.templates || []) $('template-select').appendChild(el('option', { value: t, textContent: t }));
  await refreshFileList(info.file);

  $('file-list').addEventListener('change', async () => {
    const path = $('file-list').value;
    if (!path) return;
    if (state.dirty && !confirm('Discard the unsaved edits of ' + state.file + '?')) { $('file-list').value = state.file; return; }
    openFile(path);
  });
  $('save-btn').addEventListener('click', save);
  $('new-btn').addEventListener('click', newFromTemplate);
  $('undo-btn').addEventListener('click', undo);
  $('redo-btn').addEventListener('click', redo);
  $('reload-theirs').addEventListener('click', async () => { $('external-bar').hidden = true; await openFile(state.file); setStatus('reloaded from disk'); });
  $('keep-mine').addEventListener('click', async () => {
    $('external-bar').hidden = true;
    const r = await api('GET', '/api/file/stat?' + q({ path: state.file }));
    if (r.ok) state.mtime = r.json.modified_ns; // ask again only at the next change
  });
  $('raw-text').addEventListener('input', () => {
    state.rawText = $('raw-text').value;
    state.dirty = true;
    try {
      const doc = JSON.parse(state.rawText);
      if (typeOf(doc) === 'object') { state.doc = doc; renderAll(); }
    } catch (e) { /* still not JSON: the server's diagnostics say where */ }
    clearTimeout(sendTimer);
    sendTimer = setTimeout(sendDocument, 150);
  });
  $('emitter-add').addEventListener('click', () => {
    if (!state.doc) return;
    edit(null, () => { state.doc.emitters = state.doc.emitters || []; state.doc.emitters.push({ name: freshName('emitter') }); }, false);
    state.selected = state.doc.emitters.length - 1;
    renderAll();
  });
  $('emitter-duplicate').addEventListener('click', () => {
    const e = state.doc && state.doc.emitters[state.selected];
    if (!e) return;
    edit(null, () => { const copy = JSON.parse(JSON.stringify(e)); copy.name = freshName(e.name + '_copy'); state.doc.emitters.splice(state.selected + 1, 0, copy); }, false);
    state.selected += 1;
    renderAll();
  });
  $('emitter-delete').addEventListener('click', () => {
    if (!state.doc || !state.doc.emitters[state.selected]) return;
    edit(null, () => state.doc.emitters.splice(state.selected, 1), true);
  });
  $('emitter-rename').addEventListener('click', renameEmitter);
  document.addEventListener('keydown', (e) => {
    const k = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && k === 'z') { e.preventDefault(); if (e.shiftKey) redo(); else undo(); }
    else if ((e.ctrlKey || e.metaKey) && k === 'y') { e.preventDefault(); redo(); }
    else if ((e.ctrlKey || e.metaKey) && k === 's') { e.preventDefault(); save(); }
  });
  window.addEventListener('beforeunload', (e) => { if (state.dirty) { e.preventDefault(); e.returnValue = ''; } });
  setupTimeline();
  setupPreview();
  if (info.file) await openFile(info.file);
  renderAll();
  frameLoop();
  setInterval(pollDisk, 1000);
}

main();
