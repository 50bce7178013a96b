import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellClass, cellText, cellTitle, nextSort, offeredLabel, offeredMatches, rowWindow } from '../../ui/table/plant-table-model.js';

test('a header click sorts up, then down, then not', () => {
  let sort = nextSort(null, 3);
  assert.deepEqual(sort, { column: 3, descending: false });
  sort = nextSort(sort, 3);
  assert.deepEqual(sort, { column: 3, descending: true });
  assert.equal(nextSort(sort, 3), null);
  assert.deepEqual(nextSort(sort, 1), { column: 1, descending: false });
});

test('a cell looks as its kind letter says: missing and empty differ from a value', () => {
  assert.deepEqual(['n', 'd', 'b', 't', 'e', '-', undefined].map(cellClass), ['number', 'date', 'bool', 'text', 'empty', 'missing', '']);
  assert.equal(cellText('n', '12.5'), '12.5');
  assert.equal(cellText('t', ''), '');
  assert.equal(cellText('-', null), '—');
  assert.equal(cellText('e', ''), 'empty');
  assert.equal(cellTitle('t', 'M-2'), 'M-2');
  assert.match(cellTitle('-', '—'), /no such element/);
  assert.match(cellTitle('e', 'empty'), /without a value/);
});

test('only the rows in view, and some spare, are drawn', () => {
  assert.deepEqual(rowWindow(0, 260, 26, 10000), { start: 0, end: 20 });
  assert.deepEqual(rowWindow(26 * 500, 260, 26, 10000), { start: 490, end: 520 });
  assert.deepEqual(rowWindow(26 * 9995, 260, 26, 10000), { start: 9985, end: 10000 });
  assert.deepEqual(rowWindow(0, 260, 26, 0), { start: 0, end: 0 });
});

test('the picker names counts and finds by any word', () => {
  const offered = { column: 'Nameplate/SerialNumber', semantic_id: '0173-1#02-AAM556#002', model_type: 'Property', shells: 9812 };
  assert.equal(offeredLabel(offered, 10000), 'Nameplate/SerialNumber — 9,812 of 10,000');
  assert.ok(offeredMatches(offered, 'serial name'));
  assert.ok(offeredMatches(offered, 'AAM556'));
  assert.ok(!offeredMatches(offered, 'weight'));
});
