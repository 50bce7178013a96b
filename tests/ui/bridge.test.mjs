// api.js is the one door to the Rust side: node --test tests/ui
// A view that called window.__TAURI__ itself would bypass what api.js keeps
// (error kinds, the offline banner's reachability news).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

const uiDir = new URL('../../ui/', import.meta.url);

/** Every file under `dir` (a folder URL), as paths relative to ui/ ('lib/api.js'). */
function filesUnder(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory()
    ? filesUnder(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`)
    : [`${prefix}${entry.name}`]));
}

test('only ui/lib/api.js mentions __TAURI__', () => {
  // The views sit in feature folders: a walk of ui/ top level only would check none of them.
  const sources = filesUnder(uiDir).filter((name) => /\.(js|html)$/.test(name));
  assert.ok(sources.includes('lib/api.js') && sources.includes('index.html') && sources.includes('tree/tree.js'),
    `ui/ read wrongly: ${sources}`);
  const offenders = sources.filter((name) => name !== 'lib/api.js'
    && readFileSync(new URL(name, uiDir), 'utf8').includes('__TAURI__'));
  assert.deepEqual(offenders, [], `talk to Rust through ui/lib/api.js, not from: ${offenders.join(', ')}`);
});
