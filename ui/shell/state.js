// What the window has on screen, kept in one object: the active profile, the plant,
// asset type and snapshot shown, the preferences, and the tree's shells per type.
// main.js changes it as the user picks; the views get getters over it from main.js
// (`plant: () => state.plant`), so each reads the one copy at the time it asks rather
// than a value handed over at start-up that would go stale.

import * as api from '../lib/api.js';
import { normalize } from './preferences.js';

export const state = {
  // The active profile's view: name, gateway_url, plants, asset_types; null until one is applied.
  profile: null,
  // The app's preferences (see preferences.js), read once at start-up and kept up to
  // date: view-memory.js changes this object in place as it remembers.
  prefs: normalize(null),
  // The plant code shown; null before a profile names one.
  plant: null,
  // The asset type whose shells the tree shows; null until one is chosen for the plant.
  assetType: null,
  // The snapshot on screen, read-only; null: the service's live data.
  browsing: null,
  // The AAS file on screen, read-only, as api.openAasFile answered; null: none. While
  // one is open the tree shows it, whatever plant or snapshot was on screen before.
  file: null,
  // The plant's snapshots as listSnapshots answered; null while unknown.
  listed: null,
  // Asset type -> Promise of how many shells of it the plant on screen has. A new Map
  // per plant or snapshot shown: an answer that finds another Map here came too late.
  counts: new Map(),
  // {type, list}: the shell list asked with the plant, for the type shown first.
  opening: null,
  // Asset type -> its shells' tree nodes, kept while the plant is shown so that ticks and
  // expanded nodes survive switching between types.
  rootsByType: new Map(),
  // A gap of the Quality tab opened in the tree: its node, and what the details pane says of it.
  openedGap: null,
};

/** The source on screen for `plant`: the file open, else the snapshot browsed, else the service. */
export function sourceOf(plant) {
  if (state.file) return api.fileSource(state.file);
  return state.browsing ? api.snapshotSource(state.browsing) : api.liveSource(plant);
}

/** The plant's snapshots, newest first; none while they are unknown or unreadable. */
export const snapshotList = () => state.listed?.snapshots ?? [];
