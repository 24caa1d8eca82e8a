// The Spindrift effect editor's page (docs/editor.md). Plain JavaScript, no framework, nothing
// loaded from anywhere but the server that serves it. The document is a JSON value held here;
// every edit goes through edit() (one undo step per gesture), then the document is sent to the
// server, which validates it (diagnostics shown on the control at their JSON path) and plays it
// in the live preview (Spindrift's own runtime and renderer). The emitter form is generated from
// schema/effect.schema.json, so a new key of the format appears without editor code.
//
// This file: the emitter list, files (open, save, new from a template, reload on change) and the
// start. Loaded after editor_document.js, schema_form.js, curve_editors.js and preview.js.
'use strict';

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
  sendGizmos(); // the selected emitter's gizmo is the bright one
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
  if (path !== state.file && (state.muted.size || state.solo)) {
    // Solo and mute belong to the file they were set on.
    state.muted.clear();
    state.solo = '';
    sendFilter();
  }
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
