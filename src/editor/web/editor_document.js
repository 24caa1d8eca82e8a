// The editor page's document (docs/editor.md): the state, server calls, JSON paths, undo and
// redo by gesture, sending the document to the server and showing its diagnostics on the controls.
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
