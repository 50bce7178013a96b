// The export checkboxes (tri-state, subtree) and the remembered view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adopt, checkState, createNode, setChecked, ticked } from '../../ui/tree/tree-model.js';
import {
  pick, recall, recallTable, remember, rememberColumnSet, rememberFullWidth, rememberTable,
} from '../../ui/shell/view-memory.js';
import { normalize } from '../../ui/shell/preferences.js';

function shells() {
  const a = createNode({ label: 'A', checkable: true });
  adopt(a, ['N', 'T'].map((label) => createNode({ label, checkable: true })));
  adopt(a.children[0], [createNode({ label: 'element' })]); // elements have no box
  const b = createNode({ label: 'B', checkable: true }); // children not loaded yet
  return [a, b];
}

test('a parent box ticks its subtree, and children make it mixed', () => {
  const [a, b] = shells();
  setChecked(a, true);
  assert.equal(checkState(a), 'checked');
  assert.deepEqual(a.children.map(checkState), ['checked', 'checked']);
  setChecked(a.children[1], false);
  assert.equal(checkState(a), 'mixed');
  assert.equal(a.checked, false, 'a mixed parent is not ticked itself');
  setChecked(a.children[0], false);
  assert.equal(checkState(a), 'unchecked');
  setChecked(a.children[0], true);
  setChecked(a.children[1], true);
  assert.equal(checkState(a), 'checked', 'all children ticked ticks the parent');
  assert.equal(checkState(b), 'unchecked');
});

test('children loaded later take over the parent tick', () => {
  const [, b] = shells();
  setChecked(b, true);
  adopt(b, [createNode({ label: 'X', checkable: true }), createNode({ label: 'e' })]);
  assert.equal(checkState(b.children[0]), 'checked');
  assert.equal(checkState(b), 'checked');
});

test('ticked lists whole nodes, and the ticked parts of mixed ones', () => {
  const [a, b] = shells();
  assert.deepEqual(ticked([a, b]), []);
  setChecked(b, true);
  setChecked(a.children[1], true);
  const picked = ticked([a, b]);
  assert.equal(picked.length, 2);
  assert.equal(picked[0].node, a);
  assert.deepEqual(picked[0].parts.map((n) => n.label), ['T']);
  assert.deepEqual(picked[1], { node: b, parts: null });
});

test('the view is remembered per profile in the preferences, and sent as one change', async () => {
  const prefs = normalize({ views: { q: { plant: 'X', asset_type: 'tool' } } });
  const sent = [];
  const send = async (change) => { sent.push(change); };
  assert.deepEqual(recall(prefs, 'p'), { plant: null, assetType: null, exportFormat: null });
  assert.deepEqual(recall(prefs, 'q'), { plant: 'X', assetType: 'tool', exportFormat: null }, 'asset_type as the Rust side says');
  await remember(prefs, 'p', { plant: 'DEMO-01' }, send);
  await remember(prefs, 'p', { assetType: 'tool' }, send);
  assert.deepEqual(recall(prefs, 'p'), { plant: 'DEMO-01', assetType: 'tool', exportFormat: null });
  assert.deepEqual(recall(prefs, 'q'), { plant: 'X', assetType: 'tool', exportFormat: null }, 'other profiles are kept');
  assert.deepEqual(sent, [
    { view: { profile: 'p', plant: 'DEMO-01' } },
    { view: { profile: 'p', asset_type: 'tool' } },
  ], 'only the parts given, in snake case');
  assert.equal(await remember(prefs, 'p', { plant: 'DEMO-01', assetType: 'tool', exportFormat: null }, send), null);
  assert.equal(sent.length, 2, 'what is already remembered is not sent again');
  await remember(prefs, 'q', { exportFormat: 'v3.1-aasx' }, send);
  assert.deepEqual(recall(prefs, 'q'), { plant: 'X', assetType: 'tool', exportFormat: 'v3.1-aasx' }, 'a format per profile');
  assert.equal(recall(prefs, 'p').exportFormat, null);
  assert.deepEqual(sent.at(-1), { view: { profile: 'q', export_format: 'v3.1-aasx' } });
});

test('a view that cannot be stored is still remembered for this run', async () => {
  const prefs = normalize(null);
  const warn = console.warn;
  console.warn = () => {};
  try {
    await remember(prefs, 'p', { plant: 'A' }, async () => { throw new Error('disk full'); });
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(recall(prefs, 'p'), { plant: 'A', assetType: null, exportFormat: null });
});

test('any profile name is only a key, "__proto__" and "constructor" included', async () => {
  const prefs = normalize(null);
  const send = async () => {};
  assert.deepEqual(recall(prefs, 'constructor'), { plant: null, assetType: null, exportFormat: null });
  await remember(prefs, '__proto__', { plant: 'P' }, send);
  assert.deepEqual(recall(prefs, '__proto__'), { plant: 'P', assetType: null, exportFormat: null });
  assert.deepEqual(recall(prefs, 'other'), { plant: null, assetType: null, exportFormat: null });
  assert.deepEqual(Object.keys(prefs.views), ['__proto__']);
});

test('pick prefers the remembered value only when it is still offered', () => {
  assert.equal(pick('B', ['A', 'B']), 'B');
  assert.equal(pick('C', ['A', 'B']), 'A');
  assert.equal(pick(null, ['A']), 'A');
  assert.equal(pick('A', []), null);
});

test('a table\'s columns and tab are remembered per plant and asset type, sent as one change each', async () => {
  const prefs = normalize(null);
  const sent = [];
  const send = async (change) => sent.push(change);
  assert.deepEqual(recallTable(prefs, 'p', 'DEMO-01', 'machine'), { columns: [], tab: null });
  await rememberTable(prefs, 'p', 'DEMO-01', 'machine', { columns: ['Nameplate/SerialNumber'] }, send);
  await rememberTable(prefs, 'p', 'DEMO-01', 'machine', { tab: 'table' }, send);
  await rememberTable(prefs, 'p', 'DEMO-01', null, { tab: 'quality' }, send);
  assert.deepEqual(recallTable(prefs, 'p', 'DEMO-01', 'machine'), { columns: ['Nameplate/SerialNumber'], tab: 'table' });
  assert.deepEqual(recallTable(prefs, 'p', 'DEMO-01', null), { columns: [], tab: 'quality' });
  assert.deepEqual(recallTable(prefs, 'other', 'DEMO-01', 'machine'), { columns: [], tab: null });
  assert.deepEqual(sent[1], { table: { profile: 'p', plant: 'DEMO-01', asset_type: 'machine', tab: 'table' } });
  await rememberTable(prefs, '__proto__', '__proto__', 'tool', { tab: 'table' }, send);
  assert.equal(recallTable(prefs, '__proto__', '__proto__', 'tool').tab, 'table');
  assert.equal(Object.getPrototypeOf(prefs.tables), null);
});

test('a column set is named, then forgotten; a refusal keeps nothing', async () => {
  const prefs = normalize(null);
  const sent = [];
  await rememberColumnSet(prefs, ' Nameplate ', ['a', 'b'], async (c) => sent.push(c));
  assert.deepEqual(prefs.column_sets.Nameplate, ['a', 'b']);
  await rememberColumnSet(prefs, 'Nameplate', [], async (c) => sent.push(c));
  assert.equal(prefs.column_sets.Nameplate, undefined);
  assert.deepEqual(sent, [{ column_set: { name: ' Nameplate ', columns: ['a', 'b'] } }, { column_set: { name: 'Nameplate', columns: [] } }]);
  await assert.rejects(rememberColumnSet(prefs, '', ['a'], async () => { throw new Error('a column set needs a name'); }));
  assert.deepEqual(Object.keys(prefs.column_sets), []);
});

test('Full width is remembered for every plant, and kept for this run when it cannot be stored', async () => {
  const prefs = normalize(null);
  const sent = [];
  await rememberFullWidth(prefs, true, async (c) => sent.push(c));
  assert.equal(prefs.table_full_width, true);
  assert.deepEqual(sent, [{ table_full_width: true }]);
  const warn = console.warn;
  console.warn = () => {};
  try {
    await rememberFullWidth(prefs, false, async () => { throw new Error('disk full'); });
  } finally {
    console.warn = warn;
  }
  assert.equal(prefs.table_full_width, false);
});
