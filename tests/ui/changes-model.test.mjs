// The Changes view and the marks on the newer snapshot's tree: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_ROWS, changeCells, changeMarks, countByKind, openTarget, shownChanges, valueText,
} from '../../ui/snapshots/changes-model.js';

const m1 = 'urn:demo:aas:machine#M-0001';
const t2 = 'urn:demo:aas:tool#T-0002';
const change = (kind, aasId, submodel, path, old = null, newer = null) =>
  ({ change: kind, aas_id: aasId, submodel, path, old, new: newer });
const city = change('changed', m1, 'Nameplate', ['Address', 'CityTown'], 'Stuttgart', 'Esslingen');
const toolGone = change('removed', t2, null, []);
const docAdded = change('added', m1, 'Documentation', []);
const noteAdded = change('added', m1, 'Nameplate', ['Note'], null, 'new text');
const serialGone = change('removed', m1, 'Nameplate', ['Address', 'Zip'], '70173');
const all = [city, toolGone, docAdded, noteAdded, serialGone];

test('changes are counted and filtered by kind', () => {
  assert.deepEqual(countByKind(all), { added: 2, removed: 2, changed: 1 });
  assert.deepEqual(shownChanges(all, new Set(['removed'])), { rows: [toolGone, serialGone], more: 0 });
  assert.deepEqual(shownChanges(all, new Set()), { rows: [], more: 0 });
});

test('a long list is cut, saying how many more there are', () => {
  const many = Array.from({ length: MAX_ROWS + 5 }, (_, i) => change('added', m1, 'S', [`E${i}`]));
  const { rows, more } = shownChanges(many, new Set(['added']));
  assert.equal(rows.length, MAX_ROWS);
  assert.equal(rows.at(-1).path[0], `E${MAX_ROWS - 1}`);
  assert.equal(more, 5);
});

test('a row reads old → new', () => {
  assert.equal(valueText(city), 'Stuttgart → Esslingen');
  assert.equal(valueText(change('changed', m1, 'S', ['E'], null, 'x')), '(none) → x');
  assert.equal(valueText(change('changed', m1, 'S', [])), '', 'a submodel changed otherwise than in a value');
  assert.equal(valueText(noteAdded), 'new text');
  assert.equal(valueText(serialGone), '70173');
  assert.deepEqual(changeCells(city), {
    kind: 'changed', shell: 'M-0001', shellTitle: m1, submodel: 'Nameplate', path: 'Address / CityTown',
    values: 'Stuttgart → Esslingen',
  });
  assert.equal(changeCells(toolGone).submodel, '');
});

test('a change is shown at its node, a removed one at its parent', () => {
  assert.deepEqual(openTarget(city), { aasId: m1, assetType: null, submodel: 'Nameplate', path: ['Address', 'CityTown'] });
  assert.deepEqual(openTarget(serialGone), { aasId: m1, assetType: null, submodel: 'Nameplate', path: ['Address'] });
  assert.deepEqual(openTarget(change('removed', m1, 'Old', [])), { aasId: m1, assetType: null, submodel: null, path: [] });
  assert.equal(openTarget(toolGone), null, 'a removed shell is not in the newer tree');
});

test('the newer tree marks changed and added nodes, and where changes lie below', () => {
  const markOf = changeMarks(all);
  const at = (aasId, submodel, path = []) => markOf({ aasId, submodel, path });
  assert.deepEqual(at(m1, 'Nameplate', ['Address', 'CityTown']), { kind: 'changed', title: 'Changed: Stuttgart → Esslingen' });
  assert.deepEqual(at(m1, 'Documentation'), { kind: 'added', title: 'Added' });
  assert.deepEqual(at(m1, 'Nameplate', ['Note']), { kind: 'added', title: 'Added' });
  assert.deepEqual(at(m1, 'Nameplate', ['Address']), { kind: 'inside', title: '2 changes below' }, 'the changed City and the removed Zip');
  assert.deepEqual(at(m1, 'Nameplate'), { kind: 'inside', title: '3 changes below' });
  assert.deepEqual(at(m1, null), { kind: 'inside', title: '4 changes below' });
  assert.equal(at(m1, 'Nameplate', ['Address', 'Zip']), null, 'a removed node is not in the newer tree');
  assert.equal(at(t2, null), null, 'nor is a removed shell');
  assert.equal(at(m1, 'Nameplate', ['Serial']), null, 'an unchanged node has no mark');
  assert.equal(at(m1, 'Address', ['CityTown']), null, 'paths are compared whole, not by their last part');
});
