// Remembers, per profile, the plant and asset type last shown, so the next start opens
// where the user left off, and the export format chosen last under it; and per plant and asset type the table's columns and the tab
// shown; the column sets the user named, and whether the Table takes the window's
// width. They live in the preferences (see preferences.js): read from the object loaded
// at start-up, and each change is also sent to the Rust side.

import * as api from '../lib/api.js';

/**
 * `{plant, assetType, exportFormat}` last shown (and chosen) for `profile` in `prefs`
 * (each may be null).
 */
export function recall(prefs, profile) {
  const view = Object.hasOwn(prefs.views, profile) ? prefs.views[profile] : null;
  return { plant: view?.plant ?? null, assetType: view?.asset_type ?? null, exportFormat: view?.export_format ?? null };
}

/**
 * Stores the parts of `{plant, assetType, exportFormat}` given for `profile`, keeping
 * the others: in `prefs` at once, and on the Rust side with `send(change)`. Resolves to
 * the change sent, or null when nothing changed (then nothing is sent). A failed send
 * only loses the memory: it is logged, never thrown.
 */
export async function remember(prefs, profile, view, send = api.setPreference) {
  const old = recall(prefs, profile);
  const change = { profile };
  if (typeof view.plant === 'string' && view.plant !== old.plant) change.plant = view.plant;
  if (typeof view.assetType === 'string' && view.assetType !== old.assetType) change.asset_type = view.assetType;
  if (typeof view.exportFormat === 'string' && view.exportFormat !== old.exportFormat) change.export_format = view.exportFormat;
  if (Object.keys(change).length === 1) return null;
  if (!Object.hasOwn(prefs.views, profile)) {
    // Defined, not assigned: a profile named "__proto__" is only a key.
    Object.defineProperty(prefs.views, profile, { value: null, writable: true, enumerable: true, configurable: true });
  }
  prefs.views[profile] = {
    plant: change.plant ?? old.plant,
    asset_type: change.asset_type ?? old.assetType,
    export_format: change.export_format ?? old.exportFormat,
  };
  try {
    await send({ view: change });
  } catch (e) {
    console.warn('preferences: the view was not remembered', e);
  }
  return change;
}

/** The first of `preferred` that is among `offered`, else `offered[0]` (or null). */
export function pick(preferred, offered) {
  return preferred !== null && offered.includes(preferred) ? preferred : offered[0] ?? null;
}

/** A map entry defined, not assigned: a name such as "__proto__" is only a key. */
function define(map, key, value) {
  Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `plant|asset type` (`*`: every type), as the Rust side keys a profile's tables. */
export const tableKey = (plant, assetType) => `${plant}|${assetType ?? '*'}`;

/** `{columns, tab}` last left for `plant` and `assetType` under `profile` (columns [] : the defaults). */
export function recallTable(prefs, profile, plant, assetType) {
  const views = Object.hasOwn(prefs.tables, profile) ? prefs.tables[profile] : null;
  const key = tableKey(plant, assetType);
  const view = views && Object.hasOwn(views, key) ? views[key] : null;
  return { columns: view?.columns ?? [], tab: view?.tab ?? null };
}

/**
 * Stores the parts of `{columns, tab}` given for `plant` and `assetType` under `profile`,
 * in `prefs` at once and with `send(change)`; a failed send only loses the memory.
 */
export async function rememberTable(prefs, profile, plant, assetType, parts, send = api.setPreference) {
  if (!profile || !plant) return;
  if (!Object.hasOwn(prefs.tables, profile)) define(prefs.tables, profile, Object.create(null));
  const key = tableKey(plant, assetType);
  const view = { ...recallTable(prefs, profile, plant, assetType), ...parts };
  define(prefs.tables[profile], key, view);
  try {
    await send({ table: { profile, plant, asset_type: assetType ?? null, ...parts } });
  } catch (e) {
    console.warn('preferences: the table was not remembered', e);
  }
}

/** Names the column set `name` (`columns` empty: forgets it); rejects with the Rust side's words. */
export async function rememberColumnSet(prefs, name, columns, send = api.setPreference) {
  await send({ column_set: { name, columns } });
  if (columns.length) define(prefs.column_sets, name.trim(), columns);
  else delete prefs.column_sets[name];
}

/** Stores whether the Table takes the window's width (Full width), for every plant; a failed send only loses the memory. */
export async function rememberFullWidth(prefs, full, send = api.setPreference) {
  prefs.table_full_width = full;
  try {
    await send({ table_full_width: full });
  } catch (e) {
    console.warn('preferences: Full width was not remembered', e);
  }
}
