import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cellClass, cellText, cellTitle, headers, joinable, joined, joinLabel, joinTitle, nextSort, offeredLabel, offeredMatches,
  rowWindow,
} from '../../ui/table/plant-table-model.js';

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

const CITY = '0173-1#02-AAO132#002';
const zvei = { column: 'Nameplate/Address/CityTown', semantic_id: CITY, model_type: 'Property', shells: 2 };
const idta = { column: 'Nameplate/AddressInformation/CityTown', semantic_id: CITY, model_type: 'MultiLanguageProperty', shells: 1 };

test('a header is the element\'s name, the path on hover; a shared name says where', () => {
  const shown = headers([
    { column: 'shell:idShort', name: 'idShort', label: 'idShort' },
    { ...zvei, name: 'CityTown', label: zvei.column },
    { ...idta, name: 'CityTown', label: idta.column },
    { column: 'TechnicalData/TechnicalProperties/Weight', name: 'Weight', unit: 'kg' },
    { column: 'A/X/Name', name: 'Name' },
    { column: 'B/X/Name', name: 'Name' },
  ]);
  assert.deepEqual(shown.map((h) => h.text), ['idShort', 'CityTown', 'CityTown', 'Weight [kg]', 'Name', 'Name']);
  assert.deepEqual(shown.map((h) => h.where), ['', 'Address', 'AddressInformation', '', 'A/X', 'B/X']);
  assert.equal(shown[1].title, `Nameplate/Address/CityTown\nsemanticId ${CITY}\nClick to sort`);
  // Without the app's name (an older reply), the path's last idShort.
  assert.equal(headers([{ column: 'Nameplate/SerialNumber' }])[0].text, 'SerialNumber');
});

test('paths of one name and one semanticId are offered joined by a semanticId column', () => {
  const other = { column: 'Nameplate/SerialNumber', semantic_id: '0173-1#02-AAM556#002', model_type: 'Property', shells: 3 };
  const marking = (n) => ({ column: `Nameplate/Markings/Marking0${n}`, semantic_id: 'M', shells: 1 });
  const [join, ...more] = joinable([zvei, other, idta, marking(1), marking(2)], 3);
  assert.equal(more.length, 0, 'differently named elements of one semanticId are not joined');
  assert.deepEqual(join, {
    column: `semanticId:${CITY}`, name: 'CityTown', semantic_id: CITY, model_type: 'Property',
    joins: [zvei.column, idta.column], least: 2, most: 3,
  });
  // A shell may have both paths: 2 to 3 of the 3 have one of them.
  assert.equal(joinLabel(join, 3),
    'CityTown by semanticId — joins Nameplate/Address/CityTown and Nameplate/AddressInformation/CityTown — 2 to 3 of 3');
  assert.equal(joinLabel({ ...join, least: 3 }, 3).split(' — ').at(-1), '3 of 3', 'exact where the bounds meet');
  assert.match(joinTitle(join), /\n2 to 3: .* a shell with two of them counts once$/);
  assert.equal(joinTitle({ ...join, least: 3 }), `One column, semanticId:${CITY}: each shell's first element with this semanticId`);
  assert.ok(offeredMatches(join, 'addressinformation'));
  // Shown already, or one path only: nothing to offer.
  assert.deepEqual(joinable([zvei, idta, { column: `semanticId:${CITY}`, semantic_id: CITY }]), []);
  assert.deepEqual(joinable([zvei, { ...zvei }]), []);
  // Joined: the semanticId column where the first path was.
  assert.deepEqual(joined(['shell:idShort', zvei.column, 'Nameplate/SerialNumber', idta.column], join),
    ['shell:idShort', `semanticId:${CITY}`, 'Nameplate/SerialNumber']);
});
