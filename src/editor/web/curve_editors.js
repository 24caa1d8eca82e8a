// The editor page's curve and gradient editors: keys dragged on a canvas (one undo step per drag),
// numeric entry, interpolation; colour keys keep their HDR intensity.
'use strict';

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
      if (list === 'color_keys') {
        row.appendChild(el('td', null, colorPicker([...keys, list, i], k, 1)));
        row.appendChild(el('td', null, intensityInput([...keys, list, i])));
      }
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

// HDR intensity of a colour key [t, r, g, b]: its brightest channel; changing it scales all three
// (above 1 the renderer's HDR target and bloom show it brighter than white).
function intensityInput(keys) {
  const k = getAt(keys);
  const peak = Math.max(k[1], k[2], k[3]);
  const input = el('input', { type: 'number', step: 'any', min: '0', value: String(Number(peak.toPrecision(4))), title: 'HDR intensity: the brightest channel' });
  input.className = 'intensity';
  input.addEventListener('input', () => {
    const v = Number(input.value);
    if (input.value.trim() === '' || !Number.isFinite(v) || v < 0) return;
    edit('intensity' + pathText(keys), () => {
      const key = getAt(keys);
      const old = Math.max(key[1], key[2], key[3]);
      for (let j = 1; j <= 3; ++j) key[j] = Number((old > 0 ? key[j] * v / old : v).toPrecision(6));
    }, false);
  });
  input.addEventListener('change', () => { endGesture(); renderAll(); showDiagnostics(state.diagnostics); });
  return input;
}
