// The tree filter: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adopt, createNode } from '../../ui/tree/tree-model.js';
import { filterRows, highlight, matcher, nodeMatches } from '../../ui/tree/filter.js';

const node = (label, data = {}, children = null) => {
  const n = createNode({ label, data });
  if (children) adopt(n, children);
  return n;
};

// M1 > Nameplate > (ManufacturerName = Acme, Address > City = Berlin), M2 (not loaded)
function plant() {
  const city = node('CityTown', { value: 'Berlin', description: [{ language: 'de', text: 'Ort der Firma' }] });
  const nameplate = node('Nameplate', { semantic_id: 'https://admin-shell.io/zvei/nameplate/1/0/Nameplate' }, [
    node('ManufacturerName', { value: 'Acme Tools Inc.' }),
    node('Address', {}, [city]),
  ]);
  const m2 = createNode({ label: 'Machine_M0002', load: async () => [] });
  return [node('Machine_M0001', {}, [nameplate]), m2];
}

const labels = ({ rows }) => rows.map((r) => `${r.node.label}@${r.depth}`);

test('a blank query is no filter; the query is literal text', () => {
  assert.equal(matcher('   '), null);
  const re = matcher('a.b(');
  assert.equal(nodeMatches(node('xA.B(y'), re), true);
  assert.equal(nodeMatches(node('aXb('), re), false);
});

test('idShort, value, semanticId and description text match, ignoring case', () => {
  const n = node('Temp', { value: '21.5', semantic_id: '0173-1#02-AAO677#002', description: [{ language: 'en', text: 'Room temperature' }] });
  for (const q of ['temp', '21.5', 'aao677', 'ROOM']) assert.equal(nodeMatches(n, matcher(q)), true, q);
  assert.equal(nodeMatches(n, matcher('kelvin')), false);
  assert.equal(nodeMatches(node('x', null), matcher('x')), true, 'a node without data');
});

test('matches show with their ancestors, expanded; the rest is hidden', () => {
  assert.deepEqual(labels(filterRows(plant(), matcher('berlin'))), ['Machine_M0001@1', 'Nameplate@2', 'Address@3', 'CityTown@4']);
  const acme = filterRows(plant(), matcher('acme'));
  assert.deepEqual(labels(acme), ['Machine_M0001@1', 'Nameplate@2', 'ManufacturerName@3']);
  assert.deepEqual(acme.rows.map((r) => [r.expandable, r.expanded]), [[true, true], [true, true], [false, false]]);
  assert.deepEqual(acme.rows.map((r) => `${r.posinset}/${r.setsize}`), ['1/1', '1/1', '1/1'], 'positions among the shown');
  assert.equal(acme.matches, 1);
});

test('a matching node shows without its non-matching children', () => {
  const { rows, matches } = filterRows(plant(), matcher('nameplate'));
  assert.deepEqual(labels({ rows }), ['Machine_M0001@1', 'Nameplate@2']);
  assert.equal(rows[1].expandable, false);
  assert.equal(matches, 1, 'the semanticId of Nameplate matches too, but it is one node');
});

test('only what is loaded is searched, and every match is counted', () => {
  const result = filterRows(plant(), matcher('machine_m'));
  assert.deepEqual(labels(result), ['Machine_M0001@1', 'Machine_M0002@1']);
  assert.equal(result.rows[1].expandable, false, 'its children are not loaded');
  assert.equal(filterRows(plant(), matcher('zzz')).rows.length, 0);
  assert.equal(filterRows(plant(), matcher('a')).matches, 6, 'CityTown by its description');
});

test('nodes folded while filtering hide their matches but still count them', () => {
  const roots = plant();
  const nameplate = roots[0].children[0];
  const result = filterRows(roots, matcher('r'), new Set([nameplate]));
  assert.deepEqual(labels(result), ['Machine_M0001@1', 'Nameplate@2']);
  assert.deepEqual([result.rows[1].expandable, result.rows[1].expanded], [true, false]);
  assert.equal(result.matches, 3, 'ManufacturerName, Address, CityTown');
});

test('highlight splits a text around every hit, keeping its case', () => {
  assert.deepEqual(highlight('Acme Tools Inc.', matcher('c')), [
    { text: 'A', hit: false }, { text: 'c', hit: true }, { text: 'me Tools In', hit: false }, { text: 'c', hit: true }, { text: '.', hit: false },
  ]);
  assert.deepEqual(highlight('ACME', matcher('acme')), [{ text: 'ACME', hit: true }]);
  assert.deepEqual(highlight('Acme', null), [{ text: 'Acme', hit: false }]);
  assert.deepEqual(highlight('Acme', matcher('x')), [{ text: 'Acme', hit: false }]);
  const re = matcher('o');
  assert.equal(highlight('foo', re).filter((p) => p.hit).length, 2);
  assert.equal(highlight('foo', re).filter((p) => p.hit).length, 2, 'the matcher is reusable');
});
