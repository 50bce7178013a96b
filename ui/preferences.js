// The app's own preferences (theme, plant and asset type last shown per profile, export
// format), kept by the Rust side in its preferences store and read once at start-up.
// Earlier versions kept the theme and the views in the webview's localStorage: on the
// first start they are handed over to the Rust side once, and then removed, so that
// nothing of the app stays in the webview's storage.

const THEMES = ['light', 'dark'];
const FORMATS = ['raw', 'env', 'aasx', 'csv'];

/** What earlier versions kept in localStorage (and the prefix of every key they used). */
export const LEGACY_THEME_KEY = 'aas-browser.theme';
export const LEGACY_VIEW_KEY = 'aas-browser.view';
const LEGACY_PREFIX = 'aas-browser.';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const name = (v) => (typeof v === 'string' && v !== '' ? v : null);

/** A map keyed by profile names: any name, "__proto__" included, is only a key. */
const nameMap = () => Object.create(null);

/**
 * The preferences as the Rust side sent them, checked: whatever is missing or of the
 * wrong shape gets its default (`raw` null or not an object: all defaults).
 */
export function normalize(raw) {
  const prefs = isObject(raw) ? raw : {};
  const views = nameMap();
  if (isObject(prefs.views)) {
    for (const [profile, view] of Object.entries(prefs.views)) {
      if (!isObject(view)) continue;
      views[profile] = { plant: name(view.plant), asset_type: name(view.asset_type) };
    }
  }
  return {
    theme: THEMES.includes(prefs.theme) ? prefs.theme : null,
    last_profile: name(prefs.last_profile),
    views,
    export_format: FORMATS.includes(prefs.export_format) ? prefs.export_format : null,
    imported: prefs.imported === true,
  };
}

function read(storage, key) {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * What an earlier version left in `storage` (localStorage), as the `imported` change
 * for the Rust side: `{theme?, views?: {<profile>: {plant?, asset_type?}}}`. Its views
 * said `assetType`; a damaged or foreign entry is dropped, never a reason to fail.
 */
export function legacyImport(storage) {
  const imported = {};
  const theme = read(storage, LEGACY_THEME_KEY);
  if (THEMES.includes(theme)) imported.theme = theme;
  let old = null;
  try {
    old = JSON.parse(read(storage, LEGACY_VIEW_KEY) ?? 'null');
  } catch {
    old = null; // damaged: only the memory of the views is lost
  }
  if (isObject(old)) {
    const views = [];
    for (const [profile, view] of Object.entries(old)) {
      if (!profile || !isObject(view)) continue;
      const kept = {};
      if (name(view.plant)) kept.plant = view.plant;
      if (name(view.assetType)) kept.asset_type = view.assetType;
      if (Object.keys(kept).length) views.push([profile, kept]);
    }
    // fromEntries makes own keys, so a profile named "__proto__" stays a plain key.
    if (views.length) imported.views = Object.fromEntries(views);
  }
  return imported;
}

/** Applies an import to `prefs` in memory as the Rust side does: fills only what is unset. */
export function mergeImported(prefs, imported) {
  prefs.theme ??= imported.theme ?? null;
  for (const [profile, view] of Object.entries(imported.views ?? {})) {
    if (!Object.hasOwn(prefs.views, profile)) {
      prefs.views[profile] = { plant: view.plant ?? null, asset_type: view.asset_type ?? null };
    }
  }
  prefs.imported = true;
  return prefs;
}

/** The keys of `storage` that an earlier version of this app wrote. */
function legacyKeys(storage) {
  const keys = [];
  try {
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key?.startsWith(LEGACY_PREFIX)) keys.push(key);
    }
  } catch {
    // an unreadable storage: only the two known keys are removed
  }
  return [...new Set([LEGACY_THEME_KEY, LEGACY_VIEW_KEY, ...keys])];
}

function removeLegacy(storage) {
  for (const key of legacyKeys(storage)) {
    try {
      storage.removeItem(key);
    } catch {
      // nothing more can be done here; the next start tries again
    }
  }
}

/**
 * Once: hands what `storage` held to the Rust side with `send({imported})`, updates
 * `prefs` to match (at once, so the start-up uses it), and, once the Rust side has it,
 * removes the old keys. Once imported, only leftovers are removed. Resolves when done;
 * never rejects (a failed hand-over is tried again on the next start).
 */
export async function migrate(prefs, storage, send) {
  if (!storage) return;
  if (prefs.imported) {
    removeLegacy(storage);
    return;
  }
  const imported = legacyImport(storage);
  mergeImported(prefs, imported);
  try {
    await send({ imported });
  } catch (e) {
    console.warn('preferences: the old settings were not handed over', e);
    return;
  }
  removeLegacy(storage);
}

/** The webview's localStorage, or null where it cannot be reached. */
export function webStorage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
