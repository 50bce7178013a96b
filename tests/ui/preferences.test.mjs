// The preferences from the Rust side, checked, and the theme button: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalize } from '../../ui/shell/preferences.js';
import { applyTheme, nextTheme } from '../../ui/shell/theme.js';

const plain = (prefs) => ({
  ...prefs,
  views: { ...prefs.views },
  tables: Object.fromEntries(Object.entries(prefs.tables).map(([p, v]) => [p, { ...v }])),
  column_sets: { ...prefs.column_sets },
});

test('preferences of the wrong shape fall back to their defaults', () => {
  const defaults = {
    theme: null, last_profile: null, views: {}, export_format: null, tables: {}, column_sets: {}, table_full_width: false,
    v3_server: null,
  };
  assert.deepEqual(plain(normalize(null)), defaults);
  assert.deepEqual(plain(normalize('nonsense')), defaults);
  assert.deepEqual(plain(normalize({ theme: 'purple', views: [1], export_format: 'exe', table_full_width: 'yes', v3_server: 7 })),
    defaults);
  const prefs = normalize({
    theme: 'dark', last_profile: 'Plant Nord', export_format: 'csv',
    views: { 'Plant Nord': { plant: 'P1', asset_type: null, export_format: 'v3.1-aasx' }, broken: 'x',
      odd: { plant: 5, asset_type: 'tool', export_format: 'exe' } },
    tables: { 'Plant Nord': { 'P1|machine': { columns: ['a', 5, 'b'], tab: 'table' }, bad: 3 }, odd: 'x' },
    column_sets: { Nameplate: ['a', null], broken: 'x' },
    table_full_width: true,
    v3_server: 'http://127.0.0.1:8081/api/v3.0',
  });
  assert.deepEqual(plain(prefs), {
    theme: 'dark', last_profile: 'Plant Nord', export_format: 'csv',
    views: { 'Plant Nord': { plant: 'P1', asset_type: null, export_format: 'v3.1-aasx' },
      odd: { plant: null, asset_type: 'tool', export_format: null } },
    tables: { 'Plant Nord': { 'P1|machine': { columns: ['a', 'b'], tab: 'table' } } },
    column_sets: { Nameplate: ['a'], broken: [] },
    table_full_width: true,
    v3_server: 'http://127.0.0.1:8081/api/v3.0',
  });
});

test('every export format offered, V3 ones too, is remembered; others are not', () => {
  for (const format of ['env', 'aasx', 'v3-env', 'v3-aasx', 'v3.0-xml', 'v3.1-json', 'v3.1-aasx-xml', 'raw', 'csv']) {
    assert.equal(normalize({ export_format: format }).export_format, format);
  }
  assert.equal(normalize({ export_format: 'v3' }).export_format, null);
});

test('the theme button switches from the shown theme, or from the OS one', () => {
  assert.equal(nextTheme('dark', false), 'light');
  assert.equal(nextTheme('light', true), 'dark');
  assert.equal(nextTheme(null, true), 'light');
  assert.equal(nextTheme(null, false), 'dark');
  const root = { dataset: {} };
  applyTheme('dark', root);
  assert.equal(root.dataset.theme, 'dark');
  applyTheme(null, root);
  assert.equal('theme' in root.dataset, false, 'no stored theme: the OS decides');
  applyTheme('purple', root);
  assert.equal('theme' in root.dataset, false);
});
