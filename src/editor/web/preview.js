// The editor page's preview: frames drawn by Spindrift on the server, the transport and timeline,
// the statistics, the orbit camera and the gizmos toggle (the renderer draws them).
'use strict';

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
        if (res.status === 204) $('preview').removeAttribute('src'); // nothing valid to show
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
    'this frame: ' + (s.frame_steps || 0) + ' steps' + frameOrigin(s) + '\n' +
    'backend ' + (s.backend || '') + ': ' + (s.backend_reason || '') + '\n' +
    'ms: simulate ' + (ms.simulate || 0).toFixed(1) + ' (steps ' + (ms.advance || 0).toFixed(1) +
    ', draw list ' + (ms.draw_list || 0).toFixed(1) + '), render ' + (ms.render || 0).toFixed(1) +
    ' (GPU ' + (ms.gpu || 0).toFixed(1) + ', of it post ' + (ms.gpu_post || 0).toFixed(1) + '), encode ' +
    (ms.encode || 0).toFixed(1) + (fps ? '; ' + fps.toFixed(1) + ' frames/s' : '') + '\n' +
    stepStages(s.step_ms || {});
  drawTimeline();
}

// Inside the frame's fixed steps (the stats' step_ms, World::takeStepTimes): each stage's ms, the
// rest of the step (gameplay events) and the draw records; for emitters on the GPU the device's
// stages, which come in when their submissions finish (a frame or two late with the renderer).
function stepStages(t) {
  const f = (x) => (x || 0).toFixed(3); // a small effect's stages take microseconds
  const lines = [];
  if (t.timed) {
    const other = Math.max(0, t.step - t.plan - t.update - t.collision - t.deaths - t.births);
    lines.push('step stages (' + t.steps + ' steps, ' + f(t.step) + ' ms): plan ' + f(t.plan) + ', update ' +
      f(t.update) + ', collision ' + f(t.collision) + ', deaths ' + f(t.deaths) + ', births ' + f(t.births) +
      ', other ' + f(other) + '; draw records ' + f(t.draw_records));
  }
  if (t.gpu) {
    const g = t.gpu;
    const barriers = Math.max(0, g.step - g.update - g.events - g.births - g.order);
    lines.push('GPU step stages (' + g.steps + ' steps, device ' + f(g.step) + ' ms): update + collision ' +
      f(g.update) + ', events ' + f(g.events) + ', births ' + f(g.births) + ', slot sorts ' + f(g.order) +
      ', barriers ' + f(barriers) + '; host plan ' + f(g.plan) + '; draw records ' + f(g.draw_records) +
      (g.pending ? '; ' + g.pending + ' submissions still running' : '') +
      (g.steps_untimed ? '; ' + g.steps_untimed + ' steps past the stamps' : ''));
  } else if (t.gpu_untimed) {
    lines.push('GPU step stages: not timed (the device writes no timestamps)');
  }
  return lines.length ? lines.join('\n') : 'step stages: not timed';
}

// Where the frame's steps ran from (the stats' frame_origin): a seek backwards resumes from a seek
// checkpoint (CPU backend) or replays from time 0.
function frameOrigin(s) {
  if (s.frame_origin === 'checkpoint') {
    const c = s.seek_checkpoints || {};
    return ' (resumed from the checkpoint at step ' + (s.frame_resumed_from_step || 0) + '; ' +
      (c.count || 0) + ' checkpoints, ' + ((c.bytes || 0) / 1048576).toFixed(1) + ' MiB)';
  }
  return s.frame_replayed_from_zero ? ' (replayed from 0)' : '';
}

// ---------------------------------------------------------------------------------------------
// Gizmos: each emitter's shape and the effect's bounds, drawn by the renderer into the frame
// (src/editor/gizmo_lines.h) when the page asks; the selected emitter brighter. Sent only when
// the toggle or the selection changes.

let gizmosSent = '';
function sendGizmos() {
  const on = $('gizmos-toggle').checked;
  const e = state.doc && Array.isArray(state.doc.emitters) ? state.doc.emitters[state.selected] : null;
  const selected = on && e && typeof e === 'object' && typeof e.name === 'string' ? e.name : '';
  const key = (on ? '1' : '0') + '/' + selected;
  if (key === gizmosSent) return;
  gizmosSent = key;
  api('POST', '/api/preview/control?' + q({ action: 'gizmos', on: on ? '1' : '0', selected }));
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
  $('gizmos-toggle').addEventListener('change', sendGizmos);
  $('background').addEventListener('change', () => control({ action: 'background', name: $('background').value }));
  $('backend').addEventListener('change', async () => {
    const r = await control({ action: 'backend', name: $('backend').value });
    if (!r.ok) { setStatus(r.json.error); $('backend').value = state.stats ? state.stats.backend_request : 'cpu'; }
    else setStatus('preview backend: ' + $('backend').value);
  });
}
