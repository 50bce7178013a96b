// The export checkboxes (tri-state, subtree) and the remembered view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adopt, checkState, createNode, setChecked, ticked } from '../../ui/tree-model.js';
import { pick, recall, remember } from '../../ui/view-memory.js';

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

function memoryStorage() {
  const items = new Map();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, String(v)) };
}

test('the view is remembered per profile, and a damaged entry is ignored', () => {
  const storage = memoryStorage();
  assert.deepEqual(recall('p', storage), { plant: null, assetType: null });
  remember('p', { plant: 'DEMO-01' }, storage);
  remember('p', { assetType: 'tool' }, storage);
  remember('q', { plant: 'X' }, storage);
  assert.deepEqual(recall('p', storage), { plant: 'DEMO-01', assetType: 'tool' });
  storage.setItem('aas-browser.view', '{not json');
  assert.deepEqual(recall('p', storage), { plant: null, assetType: null });
});

test('pick prefers the remembered value only when it is still offered', () => {
  assert.equal(pick('B', ['A', 'B']), 'B');
  assert.equal(pick('C', ['A', 'B']), 'A');
  assert.equal(pick(null, ['A']), 'A');
  assert.equal(pick('A', []), null);
});
