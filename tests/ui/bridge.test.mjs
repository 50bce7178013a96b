// api.js is the one door to the Rust side: node --test tests/ui
// A view that called window.__TAURI__ itself would bypass what api.js keeps
// (error kinds, the offline banner's reachability news).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

const uiDir = new URL('../../ui/', import.meta.url);

test('only ui/api.js mentions __TAURI__', () => {
  const sources = readdirSync(uiDir).filter((name) => /\.(js|html)$/.test(name));
  assert.ok(sources.includes('api.js') && sources.includes('index.html'), `ui/ read wrongly: ${sources}`);
  const offenders = sources.filter((name) => name !== 'api.js'
    && readFileSync(new URL(name, uiDir), 'utf8').includes('__TAURI__'));
  assert.deepEqual(offenders, [], `talk to Rust through ui/api.js, not from: ${offenders.join(', ')}`);
});
