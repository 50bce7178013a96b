// The whole-plant search's hits: how they read and where they lead: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adopt, createNode } from '../../ui/tree/tree-model.js';
import { findTarget, keysTo } from '../../ui/tree/reference-target.js';
import { requestOf } from '../../ui/tree/request-path.js';

process.env.TZ = 'UTC'; // dates are shown in local time
const { HIT_VALUE_SHOWN, hitTrail, hitValue, hitsStatus, locationOf, moveActive, shortAasId } = await import('../../ui/snapshots/plant-search-model.js');

const machine = 'urn:demo-platform:acme:DEMO-01:aas:machine#M-0001';
const city = { aas_id: machine, asset_type: 'machine', submodel: 'Nameplate', path: ['Address', 'CityTown'],
  model_type: 'Property', value: 'Stuttgart' };
const shellHit = { aas_id: machine, asset_type: null, submodel: null, path: [], model_type: 'AssetAdministrationShell', value: null };
const snapshot = { id: 4, taken_at: '2024-05-04T08:30:00Z', complete: true };

test('a shell identifier is made short for a row', () => {
  assert.equal(shortAasId(machine), 'M-0001');
  assert.equal(shortAasId('https://example.com/aas/42'), '42');
  assert.equal(shortAasId('urn:x:pump-7'), 'pump-7');
  assert.equal(shortAasId('plain'), 'plain');
  assert.equal(shortAasId('ends-with/'), 'ends-with/', 'nothing after the separator: the whole id');
});

test('a hit reads as its place in the tree', () => {
  assert.deepEqual(hitTrail(city), ['M-0001', 'Nameplate', 'Address', 'CityTown']);
  assert.deepEqual(hitTrail(shellHit), ['M-0001']);
  // Named as the tree names the shell: a Company and a Component both "C-0001" are told apart.
  assert.deepEqual(hitTrail({ ...city, id_short: 'Machine_M0001' }), ['Machine_M0001', 'Nameplate', 'Address', 'CityTown']);
  assert.deepEqual(locationOf(city), { aasId: machine, assetType: 'machine', submodel: 'Nameplate', path: ['Address', 'CityTown'] });
  assert.equal(locationOf(shellHit).assetType, null);
});

test('the status line counts the hits and says when there may be more', () => {
  assert.equal(hitsStatus({ snapshot, hits: [] }, 100), 'No hits in the snapshot of 2024-05-04 08:30');
  assert.equal(hitsStatus({ snapshot, hits: [city] }, 100), '1 hit in the snapshot of 2024-05-04 08:30');
  assert.equal(hitsStatus({ snapshot, hits: Array(100).fill(city) }, 100),
    'The first 100 hits in the snapshot of 2024-05-04 08:30: type more to narrow them');
  // Another snapshot of the same minute: to the second, as the snapshots list says it.
  const sameMinute = { id: 3, taken_at: '2024-05-04T08:30:41Z', complete: true };
  assert.equal(hitsStatus({ snapshot, hits: [city] }, 100, [snapshot, sameMinute]), '1 hit in the snapshot of 2024-05-04 08:30:00');
});

test('arrow keys move through the hits and wrap around', () => {
  assert.equal(moveActive(-1, 'ArrowDown', 3), 0);
  assert.equal(moveActive(0, 'ArrowDown', 3), 1);
  assert.equal(moveActive(2, 'ArrowDown', 3), 0);
  assert.equal(moveActive(0, 'ArrowUp', 3), 2);
  assert.equal(moveActive(-1, 'ArrowUp', 3), 2);
  assert.equal(moveActive(2, 'ArrowUp', 3), 1);
  assert.equal(moveActive(0, 'ArrowDown', 0), null, 'no hits');
  assert.equal(moveActive(0, 'Home', 3), null, 'the box keeps its other keys');
});

test('a hit is found in a tree loaded as needed', async () => {
  const loads = [];
  const lazy = (label, children) => createNode({
    label, data: { id_short: label },
    load: async () => { loads.push(label); return children(); },
  });
  const shell = createNode({ label: 'Machine_M0001', data: { id: machine, id_short: 'Machine_M0001', model_type: 'AssetAdministrationShell' } });
  shell.load = async () => {
    loads.push('shell');
    const nameplate = lazy('Nameplate', () => {
      const address = createNode({ label: 'Address', data: { id_short: 'Address' } });
      adopt(address, [createNode({ label: 'CityTown', data: { id_short: 'CityTown', value: 'Stuttgart' } })]);
      return [createNode({ label: 'Serial', data: { id_short: 'Serial' } }), address];
    });
    nameplate.data.model_type = 'Submodel';
    return [lazy('Documentation', () => []), nameplate];
  };
  const expand = async (node) => adopt(node, await node.load());
  const target = await findTarget(shell, keysTo(city.submodel, city.path), expand);
  assert.equal(target.label, 'CityTown');
  assert.deepEqual(loads, ['shell', 'Nameplate'], 'only what lies on the way is loaded');
  assert.deepEqual(requestOf(target), { aasId: machine, submodel: 'Nameplate', path: ['Address', 'CityTown'] });
  assert.equal(await findTarget(shell, keysTo('Nameplate', ['Address', 'Gone']), expand), null);
  assert.deepEqual(keysTo(null, []), [], 'a shell hit is the shell itself');
});

test('a long value is cut in its row, and one the store holds only the start of says its size', () => {
  assert.equal(hitValue({ value: 'SN-1' }), 'SN-1');
  assert.equal(hitValue({ value: null }), '');
  const long = 'é'.repeat(HIT_VALUE_SHOWN + 5);
  assert.equal(hitValue({ value: long }), `${'é'.repeat(HIT_VALUE_SHOWN)}…`);
  assert.equal(hitValue({ value: long, value_length: 500e6 }), `${'é'.repeat(HIT_VALUE_SHOWN)}… (500.0 MB in all)`);
  assert.equal(hitValue({ value: 'LARGE-START', value_length: 80000 }), 'LARGE-START… (80.0 kB in all)');
});
