// Remembers, per profile, the plant and asset type last shown, so the next start opens
// where the user left off. (Only these names are kept in the webview's storage.)

const KEY = 'aas-browser.view';

function all(storage) {
  try {
    return JSON.parse(storage.getItem(KEY) ?? '{}') ?? {};
  } catch {
    return {}; // a damaged entry only loses the memory, never the start
  }
}

/** `{plant, assetType}` last shown for `profile` (either may be missing). */
export function recall(profile, storage = localStorage) {
  const view = all(storage)[profile];
  return { plant: view?.plant ?? null, assetType: view?.assetType ?? null };
}

/** Stores the parts of `{plant, assetType}` given, keeping the others. */
export function remember(profile, view, storage = localStorage) {
  const views = all(storage);
  views[profile] = { ...views[profile], ...view };
  storage.setItem(KEY, JSON.stringify(views));
}

/** The first of `preferred` that is among `offered`, else `offered[0]` (or null). */
export function pick(preferred, offered) {
  return preferred !== null && offered.includes(preferred) ? preferred : offered[0] ?? null;
}
