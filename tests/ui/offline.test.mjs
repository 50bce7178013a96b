// The offline banner's probe schedule: 3 s, doubling, at most a minute.
import test from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = globalThis.window ?? { __TAURI__: { core: { invoke: async () => null } } };
const { FIRST_PROBE_MS, LAST_PROBE_MS, nextProbeWait } = await import('../../ui/shell/offline.js');

test('probes back off from 3 s to once a minute', () => {
  const waits = [FIRST_PROBE_MS];
  while (waits.length < 8) waits.push(nextProbeWait(waits.at(-1)));
  assert.deepEqual(waits, [3000, 6000, 12000, 24000, 48000, 60000, 60000, 60000]);
  assert.equal(LAST_PROBE_MS, 60000);
});

test('the banner names the server that did not answer and what to check', async () => {
  const { offlineWords } = await import('../../ui/shell/offline.js');
  const words = offlineWords('https://login.example:8443');
  assert.ok(words.startsWith('https://login.example:8443 does not answer. Check the server'), words);
  assert.ok(words.includes('VPN') && words.includes('proxy'), words);
  assert.ok(offlineWords(null).startsWith('The service does not answer.'));
});
