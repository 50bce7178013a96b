// Start-up and wiring: profile, plant and asset-type selection, the tree and the
// details pane. Data comes only through api.js.

import * as api from './api.js';
import { initLoading } from './loading.js';
import { initProfiles } from './profiles.js';
import { initStatusBar } from './status-bar.js';
import { requestOf } from './request-path.js';
import { adopt, createNode, ticked } from './tree-model.js';
import { TreeView } from './tree.js';
import { initCopy, showDetails } from './details.js';
import { initFilterBox } from './filter-box.js';
import { plural } from './format.js';
import { applyTheme, initTheme } from './theme.js';
import { initDiagnostics } from './diagnostics.js';
import { normalize } from './preferences.js';
import { pick, recall, remember } from './view-memory.js';
import { initOffline } from './offline.js';

const $ = (id) => document.getElementById(id);

const tree = new TreeView($('tree-viewport'), $('tree'), {
  onSelect: (node) => {
    showDetails($('details'), $('raw-json'), node, tree);
    showCurl(node);
  },
  onMatches: (n) => {
    $('filter-count').textContent = n === null ? '' : n === 0 ? 'No matches' : plural(n, 'match', 'matches');
  },
  onCheck: () => loading.update(),
});

let lists = new Map(); // asset type -> Promise of its AAS list for the current plant
// asset type -> its shells' tree nodes, kept while the plant is shown so that ticks and
// expanded nodes survive switching between types.
let rootsByType = new Map();
let currentType = null;
let currentPlant = null;

function aasNode(shell) {
  const id = shell.id;
  return createNode({
    label: shell.id_short ?? '(unreadable AAS)',
    data: shell,
    checkable: Boolean(id),
    load: id ? async () => (await api.listSubmodels(id)).map((sm) => submodelNode(id, sm)) : null,
  });
}

function submodelNode(aasId, sm) {
  const idShort = sm.id_short;
  return createNode({
    label: idShort ?? '(unreadable submodel)',
    data: sm,
    checkable: Boolean(idShort),
    load: idShort ? async () => (await api.listElements(aasId, idShort)).map(elementNode) : null,
  });
}

function elementNode(el) {
  const node = createNode({ label: el.id_short ?? '(unreadable element)', data: el });
  adopt(node, el.children.map(elementNode));
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
  lists = new Map(types.map((t) => [t, api.listAas(t, plant)]));
  rootsByType = new Map();
  currentType = null;
  currentPlant = plant;
  remember(prefs, active.name, { plant });
  loading.reset();
  await Promise.all(types.map(async (type) => {
    const count = document.querySelector(`.chip[data-type="${type}"] .count`);
    try {
      count.textContent = String((await lists.get(type)).length);
    } catch (e) {
      count.textContent = '!';
      count.title = e.message;
    }
  }));
  if (currentType === null) {
    const remembered = recall(prefs, active.name).assetType;
    const first = types.includes(remembered) ? remembered : await firstNonEmpty(types);
    if (first) await selectType(first);
  }
}

async function firstNonEmpty(types) {
  for (const t of types) {
    const list = await lists.get(t).catch(() => []);
    if (list.length > 0) return t;
  }
  return null;
}

async function selectType(type) {
  currentType = type;
  remember(prefs, active.name, { assetType: type });
  for (const chip of document.querySelectorAll('.chip')) {
    chip.setAttribute('aria-pressed', String(chip.dataset.type === type));
  }
  const message = $('tree-message');
  try {
    const shells = await lists.get(type);
    if (currentType !== type) return;
    message.textContent = shells.length === 0
      ? `No ${type} assets are visible: the customer has not allowed any asset of this type to this application yet.`
      : `${plural(shells.length, 'shell')} of type ${type}`;
    if (!rootsByType.has(type)) rootsByType.set(type, shells.map(aasNode));
    tree.setRoots(rootsByType.get(type));
  } catch (e) {
    message.textContent = `Cannot list ${type} assets: ${e.message}`;
    tree.setRoots([]);
  }
}

function initTabs() {
  const tabs = [['tab-details', 'details'], ['tab-raw', 'raw']];
  for (const [tabId, panelId] of tabs) {
    $(tabId).addEventListener('click', () => {
      for (const [t, p] of tabs) {
        $(t).setAttribute('aria-selected', String(t === tabId));
        $(p).hidden = p !== panelId;
      }
    });
  }
}

/** The selected node's request as curl (placeholders only, never a token). */
async function showCurl(node) {
  const request = requestOf(node);
  $('curl').textContent = '';
  if (!request) return;
  try {
    $('curl').textContent = await api.curlFor(request);
  } catch (e) {
    $('curl').textContent = `(no request: ${e.message})`;
  }
}

let active = null; // the active profile's view: name, gateway_url, plants, asset_types
let loading = { reset() {}, update() {} };
// The app's preferences (see preferences.js), read once at start-up and kept up to date.
let prefs = normalize(null);
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
    prefs = normalize(await withTimeout(api.getPreferences(), PREFERENCES_WAIT_MS));
  } catch (e) {
    prefs = normalize(null);
    say(`Preferences could not be read, defaults are used: ${e.message}`);
  } finally {
    applyTheme(prefs.theme);
    document.documentElement.dataset.ready = '';
  }
}

/** What is ticked for export, over every asset type shown for the plant. */
function tickedForExport() {
  const picks = [];
  const assetTypes = [];
  for (const [type, roots] of rootsByType) {
    const picked = ticked(roots);
    if (picked.length > 0) assetTypes.push(type);
    for (const { node, parts } of picked) {
      picks.push({ aas_id: node.data.id, submodels: parts && parts.map((sm) => sm.data.id_short) });
    }
  }
  return { count: picks.length, plant: currentPlant, assetTypes, picks };
}

/** Shows what the active profile offers: its plants, the asset types, the first plant. */
async function applyProfile(info) {
  active = info;
  $('status-fix').hidden = true;
  $('status-connection').textContent = `Connected to ${info.gateway_url}`;
  const plant = $('plant');
  plant.replaceChildren(...info.plants.map((p) => new Option(p, p)));
  renderChips(info.asset_types);
  rootsByType = new Map();
  tree.setRoots([]);
  loading.reset();
  const hint = document.createElement('p');
  hint.className = 'hint';
  hint.textContent = 'Select an element in the tree to see its details.';
  $('details').replaceChildren(hint);
  $('raw-json').textContent = '';
  $('curl').textContent = '';
  $('tree-message').textContent = info.plants.length ? '' : 'This profile names no plant: add plant codes to it (Profiles…).';
  const plantCode = pick(recall(prefs, info.name).plant, info.plants);
  plant.value = plantCode ?? '';
  if (plantCode) await selectPlant(plantCode, info.asset_types);
}

async function start() {
  await loadPreferences();
  initTheme($('theme'), prefs, (e) => say(`The theme was not remembered: ${e.message}`));
  initDiagnostics($('diagnostics'), say);
  initTabs();
  initFilterBox($('filter'), (query) => tree.setFilter(query));
  initCopy($('copy-raw'), $('raw-json'), $('copy-status'));
  initCopy($('copy-curl'), $('curl'), $('copy-status'));
  initStatusBar({
    profile: $('status-profile'), token: $('status-token'), userToken: $('status-user-token'), requests: $('status-requests'),
  });
  const plant = $('plant');
  plant.addEventListener('change', () => selectPlant(plant.value, active.asset_types));
  // Refresh (F5): the registry, kept for the session, and the plant's lists are read again.
  $('refresh').addEventListener('click', async () => {
    $('refresh').disabled = true; // until the lists are back: one refresh at a time
    try {
      await api.refreshRegistry().catch((e) => say(e.message));
      if (active && plant.value) await selectPlant(plant.value, active.asset_types);
    } finally {
      $('refresh').disabled = false;
    }
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'F5') return;
    event.preventDefault();
    $('refresh').click();
  });
  loading = initLoading(
    {
      loadAll: $('load-all'), progress: $('load-progress'), bar: $('load-bar'), text: $('load-text'),
      cancel: $('load-cancel'), format: $('export-format'), exportButton: $('export'), reveal: $('reveal-export'),
    },
    {
      current: () => ({ plant: plant.value, assetTypes: active.asset_types }),
      ticked: tickedForExport,
      say,
      exportFormat: prefs.export_format,
    },
  );
  initOffline($('offline-banner'), () => {
    // Back online: what failed for want of a connection is fetched again.
    tree.retryFailed('offline');
    if (active && currentPlant && [...$('asset-types').querySelectorAll('.count')].some((c) => c.textContent === '!')) {
      selectPlant(currentPlant, active.asset_types);
    }
  });
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
    const reconnected = await initProfiles($('profile'), $('profiles-edit'), $('profile-dialog'), applyProfile);
    if (!reconnected) await applyProfile(await api.connectionInfo());
  } catch (e) {
    $('status-connection').textContent = `Not connected: ${e.message}`;
  }
}

start();
