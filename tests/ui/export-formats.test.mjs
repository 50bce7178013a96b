// The export formats as offered, by AAS version, and the words after a conversion:
// node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convertedText, EXPORT_FORMATS, fileName, FORMAT_VALUES, formatGroups } from '../../ui/snapshots/export-formats.js';

test('the formats are offered by AAS version, each label naming its version', () => {
  assert.deepEqual(formatGroups().map(({ group, formats }) => [group, formats.map((f) => f.value)]), [
    ['AAS V2.0.1', ['env', 'aasx']],
    ['AAS V3.0', ['v3-env', 'v3-aasx', 'v3.0-xml', 'v3.0-aasx-xml']],
    ['AAS V3.1', ['v3.1-json', 'v3.1-aasx', 'v3.1-xml', 'v3.1-aasx-xml']],
    ['Other', ['raw', 'csv']],
  ]);
  for (const { label, group } of EXPORT_FORMATS) {
    if (group.startsWith('AAS')) assert.ok(label.startsWith(`${group} `), `${label} names ${group}`);
  }
  assert.equal(new Set(EXPORT_FORMATS.map((f) => f.label)).size, EXPORT_FORMATS.length, 'no two look alike');
});

test('the values are the ones the Rust side parses (aas_export::Format)', () => {
  assert.deepEqual([...FORMAT_VALUES].sort(), ['aasx', 'csv', 'env', 'raw', 'v3-aasx', 'v3-env', 'v3.0-aasx-xml', 'v3.0-xml',
    'v3.1-aasx', 'v3.1-aasx-xml', 'v3.1-json', 'v3.1-xml']);
});

test('a group is one run of formats: a later format of an earlier group starts a new one', () => {
  const groups = formatGroups([
    { value: 'a', label: 'A', group: 'X' }, { value: 'b', label: 'B', group: 'Y' }, { value: 'c', label: 'C', group: 'X' },
  ]);
  assert.deepEqual(groups.map((g) => g.group), ['X', 'Y', 'X']);
});

test('a conversion is named by the file written, on every platform', () => {
  assert.equal(convertedText({ path: '/tmp/out/x-v3.json', bytes: 9, conversion: null }), 'Converted to x-v3.json');
  assert.equal(convertedText({ path: 'C:\\Users\\me\\x-v3.aasx', bytes: 9, conversion: null }), 'Converted to x-v3.aasx');
  assert.equal(fileName('plain.json'), 'plain.json');
});
