// The preferences from the Rust side, and the one-time hand-over of what earlier
// versions kept in localStorage: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LEGACY_THEME_KEY, LEGACY_VIEW_KEY, legacyImport, mergeImported, migrate, normalize,
} from '../../ui/preferences.js';
import { applyTheme, nextTheme } from '../../ui/theme.js';

/** A Storage (localStorage) in memory. */
function memoryStorage(entries = {}) {
  const items = new Map(Object.entries(entries));
  return {
    get length() { return items.size; },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => items.set(k, String(v)),
    removeItem: (k) => items.delete(k),
    keys: () => [...items.keys()],
  };
}

const plain = (prefs) => ({ ...prefs, views: { ...prefs.views } });

test('preferences of the wrong shape fall back to their defaults', () => {
  const defaults = { theme: null, last_profile: null, views: {}, export_format: null, imported: false };
  assert.deepEqual(plain(normalize(null)), defaults);
  assert.deepEqual(plain(normalize('nonsense')), defaults);
  assert.deepEqual(plain(normalize({ theme: 'purple', views: [1], export_format: 'exe', imported: 'yes' })), defaults);
  const prefs = normalize({
    theme: 'dark', last_profile: 'Plant Nord', export_format: 'csv', imported: true,
    views: { 'Plant Nord': { plant: 'P1', asset_type: null }, broken: 'x', odd: { plant: 5, asset_type: 'tool' } },
  });
  assert.deepEqual(plain(prefs), {
    theme: 'dark', last_profile: 'Plant Nord', export_format: 'csv', imported: true,
    views: { 'Plant Nord': { plant: 'P1', asset_type: null }, odd: { plant: null, asset_type: 'tool' } },
  });
});

test('the old localStorage entries become the imported change, assetType as asset_type', () => {
  const storage = memoryStorage({
    [LEGACY_THEME_KEY]: 'dark',
    [LEGACY_VIEW_KEY]: JSON.stringify({
      'Demo platform (built in)': { plant: 'DEMO-01', assetType: 'machine' },
      'Plant Nord': { plant: 'P1' },
      'only type': { assetType: 'tool' },
      garbage: 'not a view',
      empty: {},
      numbers: { plant: 7, assetType: ['x'] },
      blank: { plant: '', assetType: '' },
    }),
  });
  assert.deepEqual(legacyImport(storage), {
    theme: 'dark',
    views: {
      'Demo platform (built in)': { plant: 'DEMO-01', asset_type: 'machine' },
      'Plant Nord': { plant: 'P1' },
      'only type': { asset_type: 'tool' },
    },
  });
});

test('a damaged or foreign old entry is ignored', () => {
  assert.deepEqual(legacyImport(memoryStorage()), {}, 'nothing stored: nothing to import');
  assert.deepEqual(legacyImport(memoryStorage({ [LEGACY_THEME_KEY]: 'purple', [LEGACY_VIEW_KEY]: '{not json' })), {});
  assert.deepEqual(legacyImport(memoryStorage({ [LEGACY_VIEW_KEY]: '["DEMO-01"]' })), {});
  assert.deepEqual(legacyImport(memoryStorage({ [LEGACY_VIEW_KEY]: 'null' })), {});
  assert.deepEqual(legacyImport(memoryStorage({ [LEGACY_THEME_KEY]: 'light', [LEGACY_VIEW_KEY]: '{"p": {"plant": "A"' })),
    { theme: 'light' }, 'a damaged view entry does not lose the theme');
  const unreadable = { getItem() { throw new Error('SecurityError'); } };
  assert.deepEqual(legacyImport(unreadable), {});
  // JSON.parse makes "__proto__" an own key: it stays one, and pollutes nothing.
  const imported = legacyImport(memoryStorage({ [LEGACY_VIEW_KEY]: '{"__proto__": {"plant": "X"}}' }));
  assert.deepEqual(Object.keys(imported.views), ['__proto__']);
  assert.equal(Object.getPrototypeOf(imported.views), Object.prototype);
  assert.equal({}.plant, undefined);
});

test('an import fills only what is not set, as the Rust side does', () => {
  const prefs = normalize({ theme: 'dark', views: { P: { plant: 'NEW', asset_type: null } } });
  mergeImported(prefs, { theme: 'light', views: { P: { plant: 'OLD' }, Q: { asset_type: 'tool' } } });
  assert.equal(prefs.theme, 'dark');
  assert.deepEqual(prefs.views.P, { plant: 'NEW', asset_type: null });
  assert.deepEqual(prefs.views.Q, { plant: null, asset_type: 'tool' });
  assert.equal(prefs.imported, true);
  const fresh = mergeImported(normalize(null), { theme: 'light' });
  assert.equal(fresh.theme, 'light');
});

test('the first start hands the old entries over once, then removes them', async () => {
  const storage = memoryStorage({
    [LEGACY_THEME_KEY]: 'dark',
    [LEGACY_VIEW_KEY]: '{"P": {"plant": "DEMO-01", "assetType": "tool"}}',
    'aas-browser.other': 'x',
  });
  const prefs = normalize({ imported: false });
  const sent = [];
  const done = migrate(prefs, storage, async (change) => { sent.push(change); });
  // At once, before the Rust side answered: the start-up can use the old theme.
  assert.equal(prefs.theme, 'dark');
  assert.deepEqual(prefs.views.P, { plant: 'DEMO-01', asset_type: 'tool' });
  await done;
  assert.deepEqual(sent, [{ imported: { theme: 'dark', views: { P: { plant: 'DEMO-01', asset_type: 'tool' } } } }]);
  assert.deepEqual(storage.keys(), [], 'nothing of the app is left in localStorage');
  assert.equal(prefs.imported, true);

  // Nothing stored: the import is still sent, so it is marked done.
  const empty = memoryStorage();
  const none = [];
  await migrate(normalize(null), empty, async (change) => { none.push(change); });
  assert.deepEqual(none, [{ imported: {} }]);
});

test('a damaged old entry is dropped and removed all the same', async () => {
  const storage = memoryStorage({ [LEGACY_THEME_KEY]: 'light', [LEGACY_VIEW_KEY]: '{"P": {"plant": ' });
  const sent = [];
  await migrate(normalize(null), storage, async (change) => { sent.push(change); });
  assert.deepEqual(sent, [{ imported: { theme: 'light' } }]);
  assert.deepEqual(storage.keys(), []);
});

test('a failed hand-over keeps the old entries for the next start', async () => {
  const storage = memoryStorage({ [LEGACY_THEME_KEY]: 'dark' });
  const warn = console.warn;
  console.warn = () => {};
  try {
    await migrate(normalize(null), storage, async () => { throw new Error('store unwritable'); });
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(storage.keys(), [LEGACY_THEME_KEY]);
});

test('once imported, nothing is sent again and leftovers are removed', async () => {
  const storage = memoryStorage({ [LEGACY_THEME_KEY]: 'light', unrelated: 'kept' });
  const prefs = normalize({ theme: 'dark', imported: true });
  await migrate(prefs, storage, async () => assert.fail('nothing to send'));
  assert.equal(prefs.theme, 'dark', 'a leftover does not override the stored theme');
  assert.deepEqual(storage.keys(), ['unrelated']);
  await migrate(normalize(null), null, async () => assert.fail('no storage, nothing to do'));
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
