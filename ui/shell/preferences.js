// The app's own preferences (theme, plant and asset type last shown per profile, export
// format, the table's columns and tab per plant and asset type, named column sets, the
// table's Full width), kept by the Rust side in its preferences store and read once at start-up.
// The page keeps nothing in the webview's storage.

import { FORMAT_VALUES as FORMATS } from '../snapshots/export-formats.js';

const THEMES = ['light', 'dark'];

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const name = (v) => (typeof v === 'string' && v !== '' ? v : null);
const names = (v) => (Array.isArray(v) ? v.filter((c) => typeof c === 'string') : []);

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
      views[profile] = {
        plant: name(view.plant),
        asset_type: name(view.asset_type),
        export_format: FORMATS.includes(view.export_format) ? view.export_format : null,
      };
    }
  }
  const tables = nameMap();
  if (isObject(prefs.tables)) {
    for (const [profile, views] of Object.entries(prefs.tables)) {
      if (!isObject(views)) continue;
      tables[profile] = nameMap();
      for (const [key, view] of Object.entries(views)) {
        if (isObject(view)) tables[profile][key] = { columns: names(view.columns), tab: name(view.tab) };
      }
    }
  }
  const columnSets = nameMap();
  if (isObject(prefs.column_sets)) {
    for (const [setName, columns] of Object.entries(prefs.column_sets)) columnSets[setName] = names(columns);
  }
  return {
    theme: THEMES.includes(prefs.theme) ? prefs.theme : null,
    last_profile: name(prefs.last_profile),
    views,
    export_format: FORMATS.includes(prefs.export_format) ? prefs.export_format : null,
    tables,
    column_sets: columnSets,
    table_full_width: prefs.table_full_width === true,
    v3_server: name(prefs.v3_server),
  };
}
