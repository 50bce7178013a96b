// Start-up and wiring: profile, plant and asset-type selection, the tree (live or a
// snapshot) and the details pane. Data comes only through lib/api.js; what is on screen
// (profile, plant, asset type, snapshot, preferences) is kept in shell/state.js.

import * as api from './lib/api.js';
import { initTakeAndExport } from './snapshots/take-and-export.js';
import { fillFormats } from './snapshots/export-formats.js';
import { initProfiles } from './profiles/profiles.js';
import { initConnectionStatus, initStatusBar } from './shell/status-bar.js';
import { requestOf } from './tree/request-path.js';
import { adopt, createNode, ticked } from './tree/tree-model.js';
import { TreeView } from './tree/tree.js';
import { initCopy, showDetails } from './details/details.js';
import { initFilterBox } from './tree/filter-box.js';
import { plural } from './lib/format.js';
import { applyTheme, initTheme } from './shell/theme.js';
import { initDiagnostics } from './shell/diagnostics.js';
import { normalize } from './shell/preferences.js';
import {
  pick, recall, recallTable, remember, rememberColumnSet, rememberFullWidth, rememberTable,
} from './shell/view-memory.js';
import { initOffline } from './shell/offline.js';
import { initTooltips } from './shell/tooltips.js';
import { findTarget, keysTo } from './tree/reference-target.js';
import { latestComplete, sameSnapshot, snapshotName, storeOf } from './snapshots/snapshot-model.js';
import { shortAasId } from './snapshots/plant-search-model.js';
import { changeMarks } from './snapshots/changes-model.js';
import { initPlantSearch } from './snapshots/plant-search.js';
import { initSnapshotsDialog } from './snapshots/snapshots.js';
import { initChanges } from './snapshots/changes.js';
import { initPlantTable } from './table/plant-table.js';
import { initQuality } from './quality/quality.js';
import { gapNote } from './quality/quality-model.js';
import { initOfflineOffer, initSnapshotBanner } from './snapshots/snapshot-banner.js';
import { snapshotList, sourceOf, state } from './shell/state.js';
import { initOpenFile } from './shell/open-file.js';
import { initOpenServer } from './shell/open-server.js';
import { initConversionReport } from './snapshots/conversion-report.js';

const $ = (id) => document.getElementById(id);

const tree = new TreeView($('tree-viewport'), $('tree'), {
  onSelect: (node) => {
    if (!node) {
      showNothing();
      return;
    }
    showDetails($('details'), $('raw-json'), node, tree, sourceOf(state.plant));
    showGapNote(node);
    showCurl(node);
    if (node.json) showShellJson(node);
  },
  onMatches: (n) => {
    // The filter sees what is loaded; the plant search sees every shell of a snapshot.
    $('filter-count').textContent = n === null ? '' : n === 0 ? 'None loaded: Ctrl+K searches all' : plural(n, 'match', 'matches');
  },
  onCheck: () => parts.takeAndExport.update(),
});

/** The details, raw JSON and curl panes with nothing selected: they say so. */
function showNothing() {
  const hint = document.createElement('p');
  hint.className = 'hint';
  hint.textContent = 'Select an element in the tree to see its details.';
  $('details').replaceChildren(hint);
  $('raw-json').textContent = '';
  $('curl').textContent = '';
}

// A shell's JSON, asked for the first time the shell is shown (lists come without it),
// then its details again if it is still the one selected.
async function showShellJson(node) {
  const ask = node.json;
  node.json = null;
  try {
    node.data = { ...node.data, raw: await ask() };
  } catch {
    node.json = ask; // asked again next time; the details show what the list said
    return;
  }
  if (tree.selected === node) {
    showDetails($('details'), $('raw-json'), node, tree, sourceOf(state.plant));
    showGapNote(node);
  }
}

/** Names the gap opened on `node` above its details (what is missing, or wrong there). */
function showGapNote(node) {
  if (state.openedGap?.node !== node) return;
  const note = document.createElement('p');
  note.className = 'gap-note';
  note.setAttribute('role', 'note');
  note.textContent = state.openedGap.text;
  $('details').prepend(note);
}

// Nodes read from `source` (api.liveSource or api.snapshotSource). A snapshot's nodes
// have no export box: ticks fetch from the service, while Export… with nothing ticked
// writes the snapshot.
function aasNode(shell, type, source) {
  const id = shell.id;
  const node = createNode({
    label: shell.id_short ?? '(unreadable AAS)',
    data: shell,
    checkable: Boolean(id) && source.from === 'live',
    load: id
      ? async () => (await api.treeChildren(source, { level: 'submodels', aas_id: id })).map((sm) => submodelNode(id, sm, source))
      : null,
  });
  node.json = id && !shell.raw ? () => api.shellJson(source, type, id) : null;
  return node;
}

function submodelNode(aasId, sm, source) {
  const idShort = sm.id_short;
  const elements = { level: 'elements', aas_id: aasId, submodel: idShort };
  return createNode({
    label: idShort ?? '(unreadable submodel)',
    data: sm,
    checkable: Boolean(idShort) && source.from === 'live',
    load: idShort ? async () => (await api.treeChildren(source, elements)).map(elementNode) : null,
  });
}

function elementNode(el) {
  const node = createNode({ label: el.id_short ?? '(unreadable element)', data: el });
  adopt(node, (el.children ?? []).map(elementNode));
  return node;
}

function renderChips(types) {
  const nav = $('asset-types');
  nav.replaceChildren(...types.map((type) => {
    const chip = document.createElement('button');
    chip.type = 'button';
    chip.className = 'chip';
    chip.dataset.type = type;
    chip.setAttribute('aria-pressed', 'false');
    chip.innerHTML = '<span class="chip-name"></span> <span class="count">…</span>';
    chip.querySelector('.chip-name').textContent = type;
    chip.addEventListener('click', () => selectType(type));
    return chip;
  }));
}

async function selectPlant(plant, types) {
  if (state.file) leaveFile(types); // a plant chosen, or a snapshot browsed, replaces the file
  const source = sourceOf(plant);
  // The type shown first is asked for its list at once (its length is its count); the
  // others only for their counts: a big plant's lists of every type held 42 MB in the page.
  const remembered = recall(state.prefs, state.profile.name).assetType;
  state.opening = types.includes(remembered) ? { type: remembered, list: listShells(source, remembered) } : null;
  state.counts = new Map(types.map((t) => [t, t === state.opening?.type ? state.opening.list.then((l) => l.length) : api.shellCount(source, t)]));
  state.rootsByType = new Map();
  state.assetType = null;
  if (plant !== state.plant) parts.changes.clear();
  state.plant = plant;
  remember(state.prefs, state.profile.name, { plant });
  parts.takeAndExport.reset();
  readSnapshots();
  if (!$('quality').hidden) parts.quality.show(); // the audit follows the plant and snapshot shown
  // A slow answer from an earlier choice (live lists waiting out a stopped service)
  // must not overwrite the counts asked since.
  const asked = state.counts;
  await Promise.all(types.map(async (type) => {
    const count = document.querySelector(`.chip[data-type="${type}"] .count`);
    let text;
    let title = '';
    try {
      text = String(await asked.get(type));
    } catch (e) {
      [text, title] = ['!', e.message];
    }
    if (state.counts !== asked) return;
    count.textContent = text;
    count.title = title;
  }));
  if (state.counts !== asked) return;
  if (state.assetType === null) {
    const first = state.opening?.type ?? await firstNonEmpty(types);
    if (first) await selectType(first);
  }
}

const listShells = (source, type) => api.treeChildren(source, { level: 'aas_list', asset_type: type });

async function firstNonEmpty(types) {
  for (const t of types) {
    if (await state.counts.get(t).catch(() => 0) > 0) return t;
  }
  return null;
}

/** The shells of `type` in the plant on screen: the list asked with the plant, else asked now. */
function shellsOf(type) {
  if (state.opening?.type !== type) return listShells(sourceOf(state.plant), type);
  const { list } = state.opening;
  state.opening = null; // kept by the tree's nodes from here
  return list;
}

/** Shows the shells of `type`; `restoreTab`: with the tab left last for it (a user's choice of type). */
async function selectType(type, restoreTab = true) {
  state.assetType = type;
  // A file's asset types are its own: the profile remembers the plant's.
  if (!state.file) remember(state.prefs, state.profile.name, { assetType: type });
  // The tab left last for this plant and type, else the one on screen (the table follows the type).
  const { tab } = state.file ? {} : recallTable(state.prefs, state.profile.name, state.plant, type);
  if (restoreTab && tab && $(tab).hidden) $(`tab-${tab}`).click();
  else if (!$('table').hidden) parts.table.show();
  for (const chip of document.querySelectorAll('.chip')) {
    chip.setAttribute('aria-pressed', String(chip.dataset.type === type));
  }
  const message = $('tree-message');
  const asked = state.counts;
  const source = sourceOf(state.plant);
  try {
    if (!state.rootsByType.has(type)) {
      const shells = await shellsOf(type);
      if (state.counts !== asked) return; // another plant or snapshot meanwhile
      if (!state.rootsByType.has(type)) state.rootsByType.set(type, shells.map((shell) => aasNode(shell, type, source)));
    }
    if (state.assetType !== type) return; // another type meanwhile
    const roots = state.rootsByType.get(type);
    message.textContent = roots.length === 0
      ? `No ${type} assets are ${NONE_HERE[source.from]}.`
      : `${plural(roots.length, 'shell')} of type ${type}`;
    tree.setRoots(roots);
  } catch (e) {
    if (state.assetType !== type || state.counts !== asked) return;
    message.textContent = `Cannot list ${type} assets: ${e.message}`;
    tree.setRoots([]);
  }
}

// Why a type shows no shells, by the kind of source on screen.
const NONE_HERE = {
  live: 'visible: the customer has not allowed any asset of this type to this application yet',
  snapshot: 'in this snapshot',
  file: 'in this file',
};

// The plant, snapshot and snapshots the views of a plant read (search, Changes, Table,
// Quality): while a file is shown, the file's own once it is taken in; else the plant's.
const viewedPlant = () => (state.file ? state.file.taken?.plant ?? null : state.plant);
const viewedSnapshot = () => (state.file ? state.file.taken ?? null : state.browsing);
const viewedSnapshots = () => (state.file ? state.file.listed ?? [] : snapshotList());
// Changes also offers the plant's own beside a file taken in: is what the vendor
// delivered what the platform holds?
const comparableSnapshots = () => (state.file?.taken ? [...viewedSnapshots(), ...snapshotList()] : viewedSnapshots());

/** Shows `opened` (api.openAasFile's answer) in the tree, read-only, until it is closed. */
async function showFile(opened) {
  // The whole of a file whose shells are shown: the banner says so; the tree, where the
  // user may be, stays (unless a later part of the package brought more shells).
  const wholeOfShown = state.file?.file === opened.file
    && JSON.stringify(state.file.asset_types) === JSON.stringify(opened.asset_types);
  state.file = opened;
  if (wholeOfShown) {
    parts.file.show(opened);
    return;
  }
  // The picker names the platform's profile below (a V3 server's profile names itself once read).
  if (state.profile) {
    $('profile').value = state.profile.name;
    $('profile').title = state.profile.name;
  }
  document.body.classList.add('file-open');
  document.body.classList.remove('file-taken-in');
  parts.changes.clear();
  parts.file.show(opened);
  markChanges(); // the snapshot banner gives way to the file's
  $('tab-details').click(); // the views of the plant wait while a file is shown
  const types = opened.asset_types.map((t) => t.asset_type);
  renderChips(types);
  const chips = $('asset-types').querySelectorAll('.chip .count');
  opened.asset_types.forEach((t, i) => { chips[i].textContent = String(t.shells); });
  state.counts = new Map(opened.asset_types.map((t) => [t.asset_type, Promise.resolve(t.shells)]));
  state.rootsByType = new Map();
  state.assetType = null;
  state.opening = null;
  tree.setRoots([]);
  if (types.length > 0) await selectType(types[0], false);
  else $('tree-message').textContent = `${opened.name} holds no shells.`;
}

/**
 * Take in: keeps the file shown in the store as a snapshot of its own, which search,
 * Changes, the Table and Quality then read while the file is shown.
 */
async function takeFileIn() {
  const file = state.file;
  say(`Taking ${file.name} in…`, 'info');
  let taken;
  try {
    taken = await api.takeFileIn(file);
  } catch (e) {
    if (state.file === file) say(`${file.name} was not taken in: ${e.message}`);
    return;
  }
  // Its earlier deliveries, for Changes; without them, Changes has this one alone.
  const listed = await api.listSnapshots(taken.plant).catch(() => null);
  if (state.file !== file) return;
  file.taken = taken;
  file.listed = listed?.snapshots ?? [taken];
  document.body.classList.add('file-taken-in');
  parts.file.show(file);
  parts.search.reset();
  parts.changes.refreshChoices();
  parts.quality.reset(); // the file's asset types
  parts.takeAndExport.update(); // Export… writes the file's snapshot now
  say(`${file.name} is in the store as snapshot ${taken.id}.`, 'info');
}

/** Takes the file off screen, and out of the app's memory, and the plant's asset types back (`types`), without reading the plant. */
function leaveFile(types) {
  if (state.file) api.closeFile(state.file).catch(() => {}); // nothing to lose: the app let it go or never had it
  state.file = null;
  document.body.classList.remove('file-open', 'file-taken-in');
  parts.takeAndExport.update();
  parts.changes.clear();
  parts.search.reset();
  parts.quality.reset(); // the plant's asset types again
  parts.file.show(null);
  renderChips(types);
  markChanges();
}

/** Close file: the plant is shown again, live or from the snapshot that was on screen. */
async function closeFile() {
  const types = state.profile?.asset_types ?? [];
  leaveFile(types);
  // A V3 server's profile was what the picker showed: the platform's is on screen again.
  if (state.profile) {
    $('profile').value = state.profile.name;
    $('profile').title = state.profile.name;
  }
  tree.setRoots([]);
  if (state.profile && state.plant) await selectPlant(state.plant, types);
  else $('tree-message').textContent = '';
}

function initTabs() {
  const tabs = [['tab-details', 'details'], ['tab-raw', 'raw'], ['tab-changes', 'changes'], ['tab-table', 'table'], ['tab-quality', 'quality']];
  for (const [tabId, panelId] of tabs) {
    $(tabId).addEventListener('click', () => {
      if (state.profile && state.plant && !state.file) rememberTable(state.prefs, state.profile.name, state.plant, state.assetType, { tab: panelId });
      for (const [t, p] of tabs) {
        $(t).setAttribute('aria-selected', String(t === tabId));
        $(p).hidden = p !== panelId;
      }
      if (panelId === 'table') parts.table?.show();
      if (panelId === 'quality') parts.quality?.show();
      if (panelId === 'changes') parts.changes?.show();
    });
  }
}

/** Reads the plant's snapshots again (after a take, a delete, another plant). */
async function readSnapshots() {
  const plant = state.plant;
  let list = null;
  try {
    list = await api.listSnapshots(plant);
  } catch {
    // The Snapshots dialog says why (a damaged store offers to move it aside there).
  }
  if (plant !== state.plant) return;
  state.listed = list;
  parts.takeAndExport.update();
  parts.changes.refreshChoices();
  markChanges(); // the banner's date, to the second if another snapshot shares its minute
}

/**
 * Marks the changes of the comparison in the Changes tab in the tree while the tree shows
 * its newer snapshot (no marks on another source: they would not be its changes), and
 * names what is on screen in the banner. Comparing never changes what the tree shows.
 */
function markChanges() {
  const comparison = parts.changes?.current();
  const marked = comparison && !state.file && sameSnapshot(state.browsing, comparison.new) ? comparison : null;
  const marks = marked && changeMarks(marked.changes);
  tree.setMarks(marks && ((node) => {
    const at = requestOf(node);
    return at && marks(at);
  }));
  parts.banner.show(state.file ? null : state.browsing, marked?.old ?? null, snapshotList());
}

/** Makes `snapshot` the one on screen, read-only (null: the live data). */
function setBrowsing(snapshot) {
  state.browsing = snapshot;
  markChanges();
  parts.search.reset();
  parts.offer.update();
}

/**
 * Shows the plant from `snapshot` (null: live), as setBrowsing says, the tree kept where
 * the user had it: the same nodes expanded and selected, as far as they are there.
 */
async function browse(snapshot) {
  const place = placeInTree();
  setBrowsing(snapshot);
  await selectPlant(state.plant, state.profile.asset_types);
  await returnTo(place);
}

/** Where the user is in the tree: the type shown, its nodes expanded and the one selected, as requests. */
function placeInTree() {
  const expanded = [];
  const walk = (nodes) => {
    for (const node of nodes ?? []) {
      if (!node.expanded) continue;
      const at = requestOf(node);
      if (at) expanded.push(at);
      walk(node.children);
    }
  };
  walk(tree.roots);
  return { type: state.assetType, expanded, selected: tree.selected && requestOf(tree.selected) };
}

/** The node at `{aasId, submodel, path}` among the shells `roots`, its ancestors expanded (loaded as needed); null if not there. */
async function nodeAt(roots, { aasId, submodel, path }) {
  const shell = roots?.find((node) => node.data?.id === aasId);
  if (!shell) return null;
  return submodel == null ? shell : findTarget(shell, keysTo(submodel, path), (n) => tree.expand(n));
}

/** Expands and selects again what `place` had in the tree now shown, while nothing else was chosen meanwhile. */
async function returnTo(place) {
  const asked = state.counts;
  const still = () => state.counts === asked && state.assetType === place.type && !tree.selected;
  for (const at of place.expanded) {
    if (!still()) return;
    const node = await nodeAt(tree.roots, at);
    if (node && still()) await tree.expand(node);
  }
  if (!place.selected || !still()) return;
  const node = await nodeAt(tree.roots, place.selected);
  if (node && still()) tree.select(node);
}

/** The type whose shell list holds shell `aasId`, or null. */
async function typeHolding(aasId) {
  const asked = state.counts;
  for (const [type, count] of state.counts) {
    if (await count.catch(() => 0) === 0) continue;
    if (state.rootsByType.has(type)) {
      if (state.rootsByType.get(type).some((node) => node.data.id === aasId)) return type;
      continue;
    }
    const shells = await shellsOf(type).catch(() => []);
    if (state.counts !== asked || !shells.some((shell) => shell.id === aasId)) continue;
    // Kept as the tree's nodes: the type is shown next, without asking its list again.
    state.rootsByType.set(type, shells.map((shell) => aasNode(shell, type, sourceOf(state.plant))));
    return type;
  }
  return null;
}

/**
 * Shows the node at `{aasId, assetType, submodel, path}` in the tree on screen: its
 * asset type chosen, its ancestors expanded (loaded as needed), the node selected.
 * Resolves to the node, or null when it is not in the tree (the status bar says so).
 */
async function openAt({ aasId, assetType, submodel, path }) {
  const type = state.counts.has(assetType) ? assetType : await typeHolding(aasId);
  if (type && type !== state.assetType) await selectType(type, false); // the tab asked for stays
  const node = type && await nodeAt(state.rootsByType.get(type), { aasId, submodel, path });
  if (!node) {
    const where = state.file ? state.file.name : state.browsing ? snapshotName(state.browsing, snapshotList()) : 'the live data';
    say(`${[shortAasId(aasId), submodel, ...path].filter((p) => p != null).join(' › ')} is not in ${where}.`);
    return null;
  }
  await tree.show(node);
  return node;
}

/** Shows a gap of snapshot `audited` in the tree (browsing that snapshot), named in the details pane. */
async function openGap(gap, audited) {
  // A file's gap is in the file shown.
  if (!state.file && !sameSnapshot(state.browsing, audited)) await browse(audited);
  $('tab-details').click();
  state.openedGap = null;
  const node = await openAt({ aasId: gap.aas_id, assetType: gap.asset_type, submodel: gap.submodel, path: gap.open });
  if (!node) return;
  state.openedGap = { node, text: gapNote(gap) };
  showGapNote(node);
}

/** The selected node's request as curl (placeholders only, never a token). */
async function showCurl(node) {
  // A file's node was asked of no server: there is no request to show.
  const request = state.file ? null : requestOf(node);
  $('curl').textContent = '';
  if (!request) return;
  let text;
  try {
    text = await api.curlFor(request);
  } catch (e) {
    text = `(no request: ${e.message})`;
  }
  if (tree.selected === node) $('curl').textContent = text; // not a node left meanwhile
}

// The page's parts with state of their own (Take snapshot and Export, search, Changes,
// the banners, the Snapshots dialog, the connection status), set up in start() once the
// preferences are read.
const parts = {};
// How long the page waits for the preferences before it shows itself with the defaults.
const PREFERENCES_WAIT_MS = 3000;

/** Reports in the status bar (level 'error' unless 'info'). */
function say(text, level = 'error') {
  $('status-errors').textContent = text;
  $('status-errors').title = text; // the line may be cut short
  $('status-errors').dataset.level = level;
}

function withTimeout(promise, ms) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Reads the preferences and shows their theme, then lets the page paint (style.css
 * hides it until the root has data-ready): no flash of the wrong theme. Unreadable
 * preferences only mean the defaults; the page is shown in any case.
 */
async function loadPreferences() {
  try {
    state.prefs = normalize(await withTimeout(api.getPreferences(), PREFERENCES_WAIT_MS));
  } catch (e) {
    state.prefs = normalize(null);
    say(`Preferences could not be read, defaults are used: ${e.message}`);
  } finally {
    applyTheme(state.prefs.theme);
    document.documentElement.dataset.ready = '';
  }
}

/** What is ticked for export, over every asset type shown for the plant. */
function tickedForExport() {
  const picks = [];
  const assetTypes = [];
  for (const [type, roots] of state.rootsByType) {
    const picked = ticked(roots);
    if (picked.length > 0) assetTypes.push(type);
    for (const { node, parts: submodels } of picked) {
      picks.push({ aas_id: node.data.id, submodels: submodels && submodels.map((sm) => sm.data.id_short) });
    }
  }
  return { count: picks.length, plant: state.plant, assetTypes, picks };
}

/** Shows what the active profile offers: its plants, the asset types, the first plant. */
async function applyProfile(info) {
  state.profile = info;
  if (state.file) leaveFile(info.asset_types); // another profile: its plant replaces the file
  parts.offline?.reset(); // its servers are others: what the last ones did not answer is not said of them
  $('status-fix').hidden = true;
  parts.connection.show(info.gateway_url);
  const plant = $('plant');
  plant.replaceChildren(...info.plants.map((p) => new Option(p, p)));
  renderChips(info.asset_types);
  state.rootsByType = new Map();
  state.plant = null; // another profile: its own snapshots, even of a plant of the same code
  setBrowsing(null);
  tree.setRoots([]); // the details say nothing is selected
  parts.takeAndExport.reset();
  $('tree-message').textContent = info.plants.length ? '' : 'This profile names no plant: add plant codes to it (Profiles…).';
  parts.quality.reset();
  parts.table.reset();
  const plantCode = pick(recall(state.prefs, info.name).plant, info.plants);
  plant.value = plantCode ?? '';
  plant.title = plant.value; // cut when long: the tooltip has it whole
  if (plantCode) await selectPlant(plantCode, info.asset_types);
}

async function start() {
  await loadPreferences();
  initTheme($('theme'), state.prefs, (e) => say(`The theme was not remembered: ${e.message}`));
  initDiagnostics($('diagnostics'), say);
  initTooltips($('tooltip'), () => [document.querySelector('.tree-pane .filter')]);
  initTabs();
  initFilterBox($('filter'), (query) => tree.setFilter(query));
  initCopy($('copy-raw'), $('raw-json'), $('copy-status'));
  initCopy($('copy-curl'), $('curl'), $('copy-status'));
  initStatusBar({
    profile: $('status-profile'), token: $('status-token'), userToken: $('status-user-token'), requests: $('status-requests'),
    waiting: $('status-waiting'),
  });
  parts.connection = initConnectionStatus($('status-connection'));
  const plant = $('plant');
  plant.addEventListener('change', () => {
    plant.title = plant.value;
    setBrowsing(null); // another plant starts live
    selectPlant(plant.value, state.profile.asset_types);
  });
  // Refresh (F5): the registry, kept for the session, and the plant's lists are read again.
  $('refresh').addEventListener('click', async () => {
    $('refresh').disabled = true; // until the lists are back: one refresh at a time
    try {
      await api.refreshRegistry().catch((e) => say(e.message));
      if (state.profile && plant.value) await selectPlant(plant.value, state.profile.asset_types);
    } finally {
      $('refresh').disabled = false;
    }
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'F5') return;
    event.preventDefault();
    $('refresh').click();
  });
  fillFormats($('export-format'));
  parts.takeAndExport = initTakeAndExport(
    {
      take: $('take-snapshot'), progress: $('load-progress'), bar: $('load-bar'), text: $('load-text'),
      cancel: $('load-cancel'), format: $('export-format'), exportButton: $('export'), convert: $('convert'),
      reveal: $('reveal-export'), note: $('export-note'), report: $('report-show'),
      convertDialog: $('convert-dialog'), convertForm: $('convert-form'), convertCancel: $('convert-cancel'),
    },
    {
      current: () => ({ plant: plant.value, assetTypes: state.profile.asset_types }),
      ticked: tickedForExport,
      // A file taken in is exported from its own snapshot, as a plant's snapshot is.
      snapshotToExport: () => state.file?.taken ?? state.browsing ?? latestComplete(snapshotList()),
      onTaken: async ({ retired }) => {
        // The keep setting removed it (a take retires this computer's snapshots only).
        if (state.browsing && storeOf(state.browsing) === 'here' && retired.includes(state.browsing.id)) await browse(null);
        await readSnapshots();
        parts.snapshotsDialog.refresh();
      },
      say,
      // Per profile: a vendors' server exported as V3.1, the platform as V2, each as left.
      exportFormat: () => recall(state.prefs, state.profile?.name).exportFormat ?? state.prefs.export_format,
      onFormatChosen: async (format) => {
        state.prefs.export_format = format;
        await api.setPreference({ export_format: format });
        if (state.profile) await remember(state.prefs, state.profile.name, { exportFormat: format });
      },
    },
  );
  parts.search = initPlantSearch(
    { input: $('plant-search'), popup: $('plant-search-popup'), status: $('plant-search-status'), list: $('plant-search-results') },
    {
      plant: viewedPlant,
      snapshot: viewedSnapshot,
      snapshots: viewedSnapshots,
      open: (at) => {
        $('tab-details').click(); // a hit opens with its details shown
        return openAt(at);
      },
    },
  );
  parts.changes = initChanges(
    {
      panel: $('changes'), old: $('changes-old'), new: $('changes-new'), compare: $('changes-compare'), kinds: $('changes-kinds'),
      exportCsv: $('changes-export-csv'), exportJson: $('changes-export-json'), status: $('changes-status'),
      warnings: $('changes-warnings'), rows: $('changes-rows'), more: $('changes-more'),
    },
    {
      plant: viewedPlant,
      snapshots: comparableSnapshots,
      onCompared: markChanges,
      // A change is shown where it is: in the newer snapshot, which the banner then names
      // (a file's in the file shown).
      open: async (at, newer) => {
        if (!state.file && !sameSnapshot(state.browsing, newer)) await browse(newer);
        return openAt(at);
      },
      showTab: () => $('tab-changes').click(),
    },
  );
  parts.table = initPlantTable(
    {
      status: $('table-status'), columns: $('table-columns'), fullWidth: $('table-full-width'),
      panes: document.querySelector('main.panes'), joins: $('table-joins'), exportXlsx: $('table-export-xlsx'),
      exportCsv: $('table-export-csv'), viewport: $('table-viewport'), grid: $('table-grid'), head: $('table-head'),
      body: $('table-body'),
      picker: $('table-picker'), pickerSearch: $('table-picker-search'), pickerList: $('table-picker-list'),
      pickerApply: $('table-picker-apply'), pickerDefaults: $('table-picker-defaults'), pickerCancel: $('table-picker-cancel'),
      sets: $('table-picker-sets'), setName: $('table-picker-set-name'), saveSet: $('table-picker-save-set'),
      deleteSet: $('table-picker-delete-set'),
    },
    {
      plant: viewedPlant,
      snapshot: viewedSnapshot,
      snapshots: viewedSnapshots,
      assetType: () => state.assetType,
      open: (at) => {
        $('tab-details').click(); // the element opens with its details shown
        return openAt(at);
      },
      memory: {
        columns: (plantCode, type) => recallTable(state.prefs, state.profile.name, plantCode, type).columns,
        remember: (plantCode, type, columns) => rememberTable(state.prefs, state.profile.name, plantCode, type, { columns }),
        sets: () => state.prefs.column_sets,
        saveSet: (name, columns) => rememberColumnSet(state.prefs, name, columns),
        deleteSet: (name) => rememberColumnSet(state.prefs, name, []),
        fullWidth: () => state.prefs.table_full_width,
        rememberFullWidth: (full) => rememberFullWidth(state.prefs, full),
      },
    },
  );
  parts.quality = initQuality(
    {
      type: $('quality-type'), run: $('quality-run'), bar: $('quality-bar'), cancel: $('quality-cancel'),
      status: $('quality-status'), verdict: $('quality-verdict'), groups: $('quality-groups'),
      groupsViewport: $('quality-groups-viewport'), gaps: $('quality-gaps'), gapsViewport: $('quality-gaps-viewport'),
      gapsTitle: $('quality-gaps-title'), more: $('quality-gaps-more'), exportXlsx: $('quality-export-xlsx'),
      exportCsv: $('quality-export-csv'), exportJson: $('quality-export-json'),
    },
    {
      plant: viewedPlant, snapshot: viewedSnapshot, snapshots: viewedSnapshots,
      assetTypes: () => (state.file ? state.file.asset_types.map((t) => t.asset_type) : state.profile?.asset_types ?? []),
      open: openGap,
    },
  );
  parts.file = initOpenFile(
    {
      button: $('open-file'), recent: $('recent-open'), recentMenu: $('recent-menu'),
      banner: $('file-banner'), thumbnail: $('file-thumbnail'), text: $('file-banner-text'),
      takeIn: $('file-take-in'), close: $('file-close'),
      readingBar: $('file-reading-bar'), readingText: $('file-reading-text'), readingCancel: $('file-reading-cancel'),
    },
    { onOpened: showFile, onTakeIn: takeFileIn, onClosed: closeFile, say },
  );
  parts.openServer = initOpenServer(
    {
      button: $('open-server'), dialog: $('server-dialog'), form: $('server-form'), address: $('server-address'),
      token: $('server-token'), status: $('server-status'), cancel: $('server-cancel'), open: $('server-open'),
      demo: $('server-demo'),
    },
    {
      onOpened: showFile,
      onReading: (text) => parts.file.serverReading(text, () => api.cancelJob()),
      shownFile: () => state.file?.file ?? null,
      onClosed: closeFile,
      prefs: () => state.prefs,
    },
  );
  initConversionReport({
    show: $('report-show'), dialog: $('report-dialog'), heading: $('report-heading'), rules: $('report-rules'),
    status: $('report-status'), close: $('report-close'),
  });
  parts.banner = initSnapshotBanner({ banner: $('snapshot-banner'), text: $('snapshot-banner-text'), live: $('snapshot-live') },
    () => browse(null));
  parts.offer = initOfflineOffer($('offline-banner'), $('offline-browse'),
    { plant: () => state.plant, browsing: () => state.browsing, browse: (snapshot) => browse(snapshot) });
  parts.snapshotsDialog = initSnapshotsDialog(
    {
      dialog: $('snapshots-dialog'), opener: $('snapshots-open'), title: $('snapshots-title'), store: $('snapshots-store'),
      damaged: $('snapshots-damaged'), damagedText: $('snapshots-damaged-text'), moveAside: $('store-move-aside'),
      rows: $('snapshots-rows'), empty: $('snapshots-empty'), status: $('snapshots-status'), keep: $('snapshots-keep'),
      close: $('snapshots-close'), team: $('team-store'), teamState: $('team-store-state'), teamForm: $('team-store-form'),
      teamUrl: $('team-store-url'), teamPassword: $('team-store-password'), teamNone: $('team-store-none'),
    },
    {
      plant: () => state.plant,
      browsing: () => state.browsing,
      browse: (snapshot) => browse(snapshot),
      compare: (old, newer) => parts.changes.compare(old, newer),
      onChanged: async (deleted) => {
        parts.changes.dropped(deleted);
        if (state.browsing && (deleted === null || sameSnapshot(deleted, state.browsing))) await browse(null);
        await readSnapshots();
      },
    },
  );
  parts.offline = initOffline($('offline-banner'), () => {
    // Back online: what failed for want of a connection is fetched again.
    tree.retryFailed('offline');
    parts.offer.update();
    if (!state.browsing && state.profile && state.plant && [...$('asset-types').querySelectorAll('.count')].some((c) => c.textContent === '!')) {
      selectPlant(state.plant, state.profile.asset_types);
    }
  }, () => parts.offer.update());
  // A refused user token is fixed in the profile: offer it where the error shows.
  api.onUserTokenRefused((e) => {
    say(e.message);
    $('status-fix').hidden = false;
  });
  $('status-fix').addEventListener('click', () => {
    $('status-fix').hidden = true;
    $('profiles-edit').click();
    $('pf-user-token').focus();
  });
  try {
    const { reconnected, resume } = await initProfiles($('profile'), $('profiles-edit'), $('profile-dialog'), applyProfile,
      (profile) => parts.openServer.readProfile(profile));
    if (!reconnected) await applyProfile(await api.connectionInfo());
    await resume();
  } catch (e) {
    $('status-connection').textContent = `Not connected: ${e.message}`;
  }
  await parts.file.openAtStart(); // over the plant: the file was what the user opened the app for
}

start();
