// The editor page's form, generated from schema/effect.schema.json: a typed control for every key,
// so a key added to the format appears without code here (docs/editor.md, "Editing").
'use strict';

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
