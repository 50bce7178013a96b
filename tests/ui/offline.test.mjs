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
