// The editor end to end in headless Chromium (editor_e2e_test.sh starts the server): create an
// effect from a template, change a rate and a colour key and see the preview change, undo and
// redo, drag the play head and compare time and live count with `spindrift simulate`, introduce
// an error and see it inline, save, change the file on disk and see the reload; then refuse path
// escapes and a foreign Origin over plain HTTP. Screenshots for docs/editor.md.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const [url, folder, cli, playwrightDir, chromiumBin, images] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const { chromium } = require(playwrightDir);

let failures = 0;
function check(ok, what) {
  console.log((ok ? 'ok   ' : 'FAIL ') + what);
  if (!ok) failures += 1;
}

const browser = await chromium.launch({
  executablePath: chromiumBin,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const page = await browser.newPage({ viewport: { width: 1560, height: 940 } });
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));
// A 4xx the test provokes (the refused save) is logged by Chromium as a failed load: not a page error.
page.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) pageErrors.push(m.text()); });
page.setDefaultTimeout(30000);

const version = () => page.evaluate('state.stats ? state.stats.version : 0');
const waitVersionAbove = (v) => page.waitForFunction((n) => state.stats && state.stats.version > n, v);
const preview = () => page.locator('#preview').screenshot();
// A frame drawn after the document was applied: the stats' version moves past v and the image
// has been replaced at least once after that.
async function frameAfter(v) {
  await waitVersionAbove(v);
  const src = await page.evaluate(() => document.getElementById('preview').src);
  await page.waitForFunction((s) => document.getElementById('preview').src !== s, src);
  await page.waitForTimeout(150);
  return preview();
}
// The next frame shown after now (the preview image replaced, decoded).
async function nextFrame() {
  const src = await page.evaluate(() => document.getElementById('preview').src);
  await page.waitForFunction((s) => document.getElementById('preview').src !== s, src);
  await page.evaluate(() => document.getElementById('preview').decode());
}
// Pixels of the preview image of exactly this colour.
const pixelsOf = (rgb) => page.evaluate(async (c) => {
  const img = document.getElementById('preview');
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, canvas.width, canvas.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] === c[0] && d[i + 1] === c[1] && d[i + 2] === c[2]) ++n;
  return n;
}, rgb);
const rate = 'input[data-path="$.emitters[0].spawn.rate_per_s"]';
const colorR = 'input[data-path="$.emitters[0].update[5].gradient.color_keys[0][1]"]';

try {
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll('#template-select option').length >= 5);

  // 1. A new effect from the smoke template.
  await page.selectOption('#template-select', 'smoke');
  await page.fill('#new-name', 'my_smoke');
  await page.click('#new-btn');
  await page.waitForFunction(() => /created/.test(document.getElementById('status').textContent));
  check(fs.existsSync(path.join(folder, 'my_smoke.json')), 'new effect written from the template');
  await page.waitForFunction(() => state.stats && state.stats.live > 0);
  check(true, 'preview plays the new effect');

  // Measure the preview's frame rate while playing (lavapipe on this machine).
  await page.waitForTimeout(3000);
  const fps = await page.evaluate(() => {
    const t = state.frameTimes;
    return t.length > 1 ? (t.length - 1) * 1000 / (t[t.length - 1] - t[0]) : 0;
  });
  console.log('preview frames per second while playing: ' + fps.toFixed(1));
  // The statistics break the frame's fixed steps into their stages (World::takeStepTimes).
  const stages = await page.evaluate(() => document.getElementById('stats-summary').textContent);
  check(/step stages \(\d+ steps, [\d.]+ ms\): plan [\d.]+, update [\d.]+, collision [\d.]+, deaths [\d.]+, births [\d.]+/.test(stages),
    'the statistics show the stages inside the steps: ' + (stages.split('\n').find((l) => l.startsWith('step stages')) || 'none'));
  await page.screenshot({ path: path.join(images, 'editor-overview.png') });

  // On the GPU backend the same line comes from the device's timestamps, added as the renderer's
  // frames finish (a frame or two late): wait until a frame's statistics carry them.
  await page.selectOption('#backend', 'gpu');
  const gpuStages = await page.waitForFunction(() => {
    const line = document.getElementById('stats-summary').textContent.split('\n')
      .find((l) => l.startsWith('GPU step stages ('));
    return line && /\((\d+) steps/.exec(line)[1] !== '0' ? line : null;
  }, null, { timeout: 30000 }).then((h) => h.jsonValue()).catch(() => null);
  check(gpuStages !== null && /update \+ collision [\d.]+, events [\d.]+, births [\d.]+, slot sorts [\d.]+/.test(gpuStages),
    'on the GPU backend the statistics show the device\'s stages: ' + gpuStages);
  await page.selectOption('#backend', 'cpu');
  await page.waitForFunction(() => /step stages \(/.test(document.getElementById('stats-summary').textContent) &&
    !/GPU step stages \(/.test(document.getElementById('stats-summary').textContent), null, { timeout: 30000 });

  // Pause at a fixed time so frames compare.
  await page.evaluate(() => fetch('/api/preview/control?action=seek&t=2.5', { method: 'POST' }));
  let v = await version();
  await page.waitForFunction(() => state.stats && !state.stats.playing && Math.abs(state.stats.time_s - 2.5) < 0.02);
  await page.waitForTimeout(400);
  const before = await preview();

  // 2. Change the rate, then a colour key: the image changes each time.
  v = await version();
  await page.fill(rate, '30');
  const afterRate = await frameAfter(v);
  check(!afterRate.equals(before), 'changing spawn.rate_per_s changes the preview');
  // The smoke's gradient has alpha keys only: add colour keys (white), then change one.
  v = await version();
  await page.locator('.gradient-editor button', { hasText: '+ colour key' }).first().click();
  const afterAdd = await frameAfter(v);
  v = await version();
  await page.fill(colorR, '4');
  const afterColor = await frameAfter(v);
  check(!afterColor.equals(afterAdd), 'changing a colour key changes the preview');
  await page.locator('.gradient-editor').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(images, 'editor-gradient.png') });

  // 3. Undo and redo (keyboard), each a whole gesture.
  await page.click('#stats-summary');
  v = await version();
  await page.keyboard.press('Control+z');
  const undone = await frameAfter(v);
  check(await page.inputValue(colorR) !== '4', 'undo restores the colour key');
  check(undone.equals(afterAdd), 'undo gives back the image of the document before the colour edit');
  v = await version();
  await page.keyboard.press('Control+Shift+z');
  const redone = await frameAfter(v);
  check(await page.inputValue(colorR) === '4', 'redo applies the colour key again');
  check(redone.equals(afterColor), 'redo gives back the image after the colour edit');

  // 4. Save, then drag the play head; compare with `spindrift simulate` of the saved file.
  await page.keyboard.press('Control+s');
  await page.waitForFunction(() => /saved/.test(document.getElementById('status').textContent));
  const saved = JSON.parse(fs.readFileSync(path.join(folder, 'my_smoke.json'), 'utf8'));
  check(saved.emitters[0].spawn.rate_per_s === 30, 'save wrote the new rate');
  check(saved.emitters[0].update[5].gradient.color_keys[0][1] === 4, 'save wrote the colour key');
  const box = await page.locator('#timeline').boundingBox();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 8; ++i) await page.mouse.move(box.x + box.width * (0.2 + 0.04 * i), box.y + box.height / 2);
  await page.mouse.up();
  await page.waitForFunction(() => !seekInFlight && !state.seeking);
  await page.waitForTimeout(600);
  // The statistics come with frames: on a slow machine (AddressSanitizer, 2 cores) a frame asked
  // for before the last seek can arrive after it, with the time of an earlier seek of the drag.
  // Wait until the paused preview's time has held for 1.5 s (60 s at most), then read the
  // statistics and the readout together.
  await page.waitForFunction(() => state.stats && !state.stats.playing);
  let lastTime = null;
  let heldSince = Date.now();
  for (const start = Date.now(); Date.now() - start < 60000;) {
    const t = await page.evaluate(() => state.stats.time_s);
    if (t !== lastTime) {
      lastTime = t;
      heldSince = Date.now();
    } else if (Date.now() - heldSince > 1500) {
      break;
    }
    await page.waitForTimeout(100);
  }
  const { seekStats, reported } = await page.evaluate(() => ({
    seekStats: state.stats,
    reported: Number(document.getElementById('time-readout').dataset.time),
  }));
  await page.screenshot({ path: path.join(images, 'editor-timeline.png') });
  check(Math.abs(reported - seekStats.time_s) < 1e-9 && seekStats.time_s > 0.5, 'play head dragged to ' + reported.toFixed(4) + ' s');
  const sim = execFileSync(cli, ['simulate', path.join(folder, 'my_smoke.json'), '-t', reported.toFixed(6)], { encoding: 'utf8' });
  const steps = Number(/: (\d+) steps of/.exec(sim)[1]);
  let simLive = 0;
  for (const line of sim.split('\n')) {
    const m = /^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$/.exec(line.trim());
    if (m) simLive += Number(m[2]);
  }
  check(steps === seekStats.steps, 'seek ran the steps simulate runs (' + steps + ')');
  check(simLive === seekStats.live && simLive > 0, 'live count ' + seekStats.live + ' equals simulate\'s ' + simLive);

  // 5. An error is shown on its control; the preview keeps the last valid version.
  await page.fill(rate, '-5');
  await page.waitForSelector('.field[data-field="$.emitters[0].spawn.rate_per_s"] .field-error');
  const message = await page.locator('.field[data-field="$.emitters[0].spawn.rate_per_s"] .field-error').first().textContent();
  check(message.length > 0, 'the error is shown inline: ' + message);
  check(await page.locator('#preview-state.shown').count() === 1, 'the page says it previews the last valid version');
  await page.locator(rate).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(images, 'editor-error.png') });
  const badSave = await page.evaluate(async (p) => (await fetch('/api/file?path=' + p, { method: 'POST', body: JSON.stringify(state.doc) })).status, 'my_smoke.json');
  check(badSave === 422, 'an invalid document is not saved');
  await page.click('#stats-summary');
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => document.querySelectorAll('.field-error').length === 0);
  await page.keyboard.press('Control+s');
  await page.waitForFunction(() => /saved/.test(document.getElementById('status').textContent) && !state.dirty);

  // 6. A change on disk reloads the page's document (no unsaved edits).
  const onDisk = JSON.parse(fs.readFileSync(path.join(folder, 'my_smoke.json'), 'utf8'));
  onDisk.emitters[0].spawn.rate_per_s = 33;
  fs.writeFileSync(path.join(folder, 'my_smoke.json'), JSON.stringify(onDisk, null, 2));
  await page.waitForFunction(() => /reloaded/.test(document.getElementById('status').textContent), null, { timeout: 10000 });
  check(await page.inputValue(rate) === '33', 'the external change was reloaded');

  // With unsaved edits, an external change asks first; reloading takes the file.
  await page.fill(rate, '31');
  await page.click('#stats-summary');
  onDisk.emitters[0].spawn.rate_per_s = 34;
  await page.waitForTimeout(50);
  fs.writeFileSync(path.join(folder, 'my_smoke.json'), JSON.stringify(onDisk, null, 2));
  await page.waitForSelector('#external-bar:not([hidden])', { timeout: 10000 });
  check(await page.inputValue(rate) === '31', 'unsaved edits are kept until the user chooses');
  await page.click('#reload-theirs');
  await page.waitForFunction(() => !state.dirty);
  check(await page.inputValue(rate) === '34', 'reload from disk takes the external change');

  // The curve editor: dragging a key is one undo step however many moves it has.
  const curve = page.locator('.field[data-field="$.emitters[0].update[4].curve"] canvas.curve');
  await curve.scrollIntoViewIfNeeded();
  const cb = await curve.boundingBox();
  const depth = await page.evaluate(() => state.undo.length);
  await page.mouse.move(cb.x + 292, cb.y + 16);
  await page.mouse.down();
  for (let i = 1; i <= 10; ++i) await page.mouse.move(cb.x + 292, cb.y + 16 + 4.4 * i);
  await page.mouse.up();
  const dragged = await page.evaluate(() => state.doc.emitters[0].update[4].curve.keys[1][1]);
  check(dragged < 1.5 && await page.evaluate(() => state.undo.length) === depth + 1,
    'a curve key drag (to ' + dragged + ') is one undo step');
  await page.screenshot({ path: path.join(images, 'editor-curve.png') });
  await page.keyboard.press('Control+z');
  check(await page.evaluate(() => state.doc.emitters[0].update[4].curve.keys[1][1]) === 2.5, 'undo puts the key back');

  // HDR intensity of a colour key scales its channels (one undo step).
  const intensity = page.locator('.gradient-editor input.intensity').first();
  await intensity.fill('8');
  const scaled = await page.evaluate(() => state.doc.emitters[0].update[5].gradient.color_keys[0]);
  check(scaled[1] === 8 && scaled[2] === 2 && scaled[3] === 2, 'intensity 8 scales the key [4, 1, 1] to ' + JSON.stringify(scaled.slice(1)));
  await page.click('#stats-summary');
  await page.keyboard.press('Control+z');
  check(await page.evaluate(() => state.doc.emitters[0].update[5].gradient.color_keys[0][1]) === 4, 'undo restores the intensity');

  // Gizmos: the renderer draws the emitter's shape (selected: bright) and the bounds into the
  // frame when the page asks, in exact colours (src/editor/gizmo_lines.h); none when off.
  await page.check('#gizmos-toggle');
  await page.waitForFunction(() => state.stats && state.stats.gizmos && state.stats.gizmos.on && state.stats.gizmos.lines > 0);
  await nextFrame();
  const selectedPixels = await pixelsOf([90, 220, 255]);
  const boundsPixels = await pixelsOf([230, 190, 70]);
  check(selectedPixels > 40 && boundsPixels > 200,
    'the renderer draws the selected emitter\'s shape (' + selectedPixels + ' pixels) and the bounds (' + boundsPixels + ') into the frame');
  check(await page.evaluate(() => state.stats.gizmos.selected) === await page.evaluate(() => state.doc.emitters[state.selected].name),
    'the selected emitter is the bright one');
  await page.locator('#preview-box').screenshot({ path: path.join(images, 'editor-gizmos.png') });
  await page.uncheck('#gizmos-toggle');
  await page.waitForFunction(() => state.stats && state.stats.gizmos && !state.stats.gizmos.on);
  await nextFrame();
  check(await pixelsOf([90, 220, 255]) === 0 && await pixelsOf([230, 190, 70]) === 0, 'no gizmo is drawn when the toggle is off');

  // 7. Emitters: add, duplicate, rename are undoable document edits; solo/mute are preview only.
  await page.click('#emitter-duplicate');
  check(await page.locator('#emitters li').count() === 2, 'duplicate adds an emitter');
  await page.keyboard.press('Control+z');
  check(await page.locator('#emitters li').count() === 1, 'undo removes it');
  const docBefore = await page.evaluate(() => JSON.stringify(state.doc));
  const undoDepth = await page.evaluate(() => state.undo.length);
  await page.locator('#emitters li .mute').first().click();
  await page.waitForSelector('#emitters li .mute.on');
  check(await page.evaluate(() => JSON.stringify(state.doc)) === docBefore &&
        await page.evaluate(() => state.undo.length) === undoDepth, 'mute changes the preview only, not the document or its undo');
  await page.locator('#emitters li .mute').first().click();
} catch (e) {
  check(false, 'exception: ' + (e && e.stack ? e.stack : e));
  try { await page.screenshot({ path: path.join(images, 'editor-failure.png') }); } catch (_) { /* */ }
}
check(pageErrors.length === 0, 'no errors in the page' + (pageErrors.length ? ': ' + pageErrors.join('; ') : ''));
await browser.close();

// 8. Over plain HTTP: path escapes and foreign origins are refused.
const port = Number(new URL(url).port);
function request(method, p, headers, body) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, headers }, (res) => {
      let data = '';
      res.on('data', (c) => { data += c; });
      res.on('end', () => resolve({ status: res.statusCode, body: data }));
    });
    req.on('error', (e) => resolve({ status: 0, body: String(e) }));
    if (body) req.write(body);
    req.end();
  });
}
for (const p of ['../outside/secret.json', 'link_out.json', '/etc/passwd.json', encodeURIComponent(path.join(folder, '..', 'outside', 'secret.json'))]) {
  const r = await request('GET', '/api/file?path=' + p, {});
  check(r.status === 400 && !r.body.includes('secret": true'), 'path escape refused: ' + p + ' (' + r.status + ')');
}
const foreign = await request('POST', '/api/file?path=evil.json', { Origin: 'http://evil.example', 'Content-Type': 'text/plain' }, '{}');
check(foreign.status === 403 && !fs.existsSync(path.join(folder, 'evil.json')), 'foreign Origin refused (' + foreign.status + ')');
const rebinding = await request('GET', '/api/files', { Host: 'attacker.example:' + port });
check(rebinding.status === 403, 'foreign Host refused (' + rebinding.status + ')');

console.log(failures ? failures + ' checks failed' : 'all checks passed');
process.exit(failures ? 1 : 0);
