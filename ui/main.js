// Start-up and wiring: profile, plant and asset-type selection, the tree and the
// details pane. Data comes only through api.js.

import * as api from './api.js';
import { initLoading } from './loading.js';
import { initProfiles } from './profiles.js';
import { requestOf } from './request-path.js';
import { adopt, createNode } from './tree-model.js';
import { TreeView } from './tree.js';
import { initCopy, showDetails } from './details.js';
import { initFilterBox } from './filter-box.js';
import { plural } from './format.js';
import { initTheme } from './theme.js';

const $ = (id) => document.getElementById(id);

const tree = new TreeView($('tree-viewport'), $('tree'), {
  onSelect: (node) => {
    showDetails($('details'), $('raw-json'), node);
    showCurl(node);
  },
  onMatches: (n) => {
    $('filter-count').textContent = n === null ? '' : n === 0 ? 'No matches' : plural(n, 'match', 'matches');
  },
});

let lists = new Map(); // asset type -> Promise of its AAS list for the current plant
let currentType = null;

function aasNode(shell) {
  const id = shell.id;
  return createNode({
    label: shell.id_short ?? '(unreadable AAS)',
    data: shell,
    load: id ? async () => (await api.listSubmodels(id)).map((sm) => submodelNode(id, sm)) : null,
  });
}

function submodelNode(aasId, sm) {
  const idShort = sm.id_short;
  return createNode({
    label: idShort ?? '(unreadable submodel)',
    data: sm,
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
  currentType = null;
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
    const first = await firstNonEmpty(types);
    if (first) selectType(first);
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
    tree.setRoots(shells.map(aasNode));
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
let resetLoading = () => {};

/** Shows what the active profile offers: its plants, the asset types, the first plant. */
async function applyProfile(info) {
  active = info;
  $('status-connection').textContent = `Connected to ${info.gateway_url}`;
  const plant = $('plant');
  plant.replaceChildren(...info.plants.map((p) => new Option(p, p)));
  renderChips(info.asset_types);
  tree.setRoots([]);
  resetLoading();
  const hint = document.createElement('p');
  hint.className = 'hint';
  hint.textContent = 'Select an element in the tree to see its details.';
  $('details').replaceChildren(hint);
  $('raw-json').textContent = '';
  $('curl').textContent = '';
  $('tree-message').textContent = info.plants.length ? '' : 'This profile names no plant: add plant codes to it (Profiles…).';
  if (info.plants.length > 0) await selectPlant(info.plants[0], info.asset_types);
}

async function start() {
  initTheme($('theme'));
  initTabs();
  initFilterBox($('filter'), (query) => tree.setFilter(query));
  initCopy($('copy-raw'), $('raw-json'), $('copy-status'));
  initCopy($('copy-curl'), $('curl'), $('copy-status'));
  api.onActivity(({ requests, errors }) => {
    $('status-requests').textContent = plural(requests, 'request');
    $('status-errors').textContent = errors ? plural(errors, 'error') : '';
  });
  const plant = $('plant');
  plant.addEventListener('change', () => selectPlant(plant.value, active.asset_types));
  resetLoading = initLoading(
    {
      loadAll: $('load-all'), progress: $('load-progress'), bar: $('load-bar'), text: $('load-text'),
      cancel: $('load-cancel'), format: $('export-format'), exportButton: $('export'),
    },
    () => ({ plant: plant.value, assetTypes: active.asset_types }),
    (text) => { $('status-errors').textContent = text; },
  );
  try {
    const reconnected = await initProfiles($('profile'), $('profiles-edit'), $('profile-dialog'), applyProfile);
    if (!reconnected) await applyProfile(await api.connectionInfo());
  } catch (e) {
    $('status-connection').textContent = `Not connected: ${e.message}`;
  }
}

start();
