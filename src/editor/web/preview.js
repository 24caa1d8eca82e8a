// The editor page's preview: frames drawn by Spindrift on the server, the transport and timeline,
// the statistics, the orbit camera and the gizmos drawn over the image.
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
    (ms.encode || 0).toFixed(1) + (fps ? '; ' + fps.toFixed(1) + ' frames/s' : '');
  drawTimeline();
  drawGizmos();
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
