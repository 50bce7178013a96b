// The details pane: the fields of the selected node per element type (chosen in
// details-model.js), with the actions some offer (go to a reference's target, save a
// Blob, open or copy a File's web address, copy its path), and its raw JSON exactly as
// the server sent it.

import * as api from '../lib/api.js';
import { badgeFor } from '../lib/format.js';
import { dedented, prettyJson } from '../lib/json-text.js';
import { conceptText, detailFields, orderByLanguage } from './details-model.js';
import { findTarget, followKeys } from '../tree/reference-target.js';
import { requestOf } from '../tree/request-path.js';

let chosenLanguage = null; // the user's last pick in a language switch, for every node

/** Shows `node` of `tree` (a TreeView, for going to a reference's target). */
export function showDetails(pane, rawPre, node, tree, source = null) {
  const data = node.data ?? {};
  const heading = document.createElement('h2');
  const badge = badgeFor(data.model_type);
  const b = document.createElement('span');
  b.className = `badge ${badge.css}`;
  b.textContent = badge.text;
  heading.append(b, document.createTextNode(` ${node.label}`));

  const list = document.createElement('dl');
  list.className = 'fields';
  // Loaded tree children cover shells and submodels, whose outline has none.
  const inFile = source?.from === 'file';
  for (const field of detailFields(data, node.children?.map((c) => c.data) ?? data.children, { inFile })) {
    const dt = document.createElement('dt');
    dt.textContent = field.name;
    const dd = document.createElement('dd');
    dd.dataset.field = field.name;
    if (field.langs) dd.append(languageSwitch(field.langs));
    else if (field.lines) dd.append(lineList(field.lines));
    else if (field.keys) dd.append(...referenceView(field.keys, node, tree));
    else if (field.action || field.note) dd.append(...textWithExtras(field, node, inFile ? source : null));
    else dd.textContent = field.text;
    list.append(dt, dd);
  }
  const parts = [heading];
  if (data.error) {
    const p = document.createElement('p');
    p.className = 'node-error';
    p.textContent = `This node could not be read: ${data.error}. Its raw JSON is shown as received.`;
    parts.push(p);
  }
  parts.push(list);
  if (data.model_type === 'AssetAdministrationShell' && data.id) {
    // Drawn again for the same shell (its JSON arrived), it keeps the endpoints it has
    // read or is reading, rather than empty them while the registry is asked again.
    const shown = pane.querySelector('.endpoints');
    parts.push(shown?.dataset.aasId === data.id ? shown : endpointsView(data.id));
  }
  pane.replaceChildren(...parts);
  const semantic = list.querySelector('dd[data-field="Semantic ID"]');
  if (semantic && data.semantic_id) nameConcept(semantic, data.semantic_id);
  // A file's XML is shown as the file has it, under a tab that says so; JSON is indented.
  const xml = Boolean(data.raw) && isXml(data.raw);
  rawPre.textContent = !data.raw ? '' : xml ? dedented(data.raw) : prettyJson(data.raw);
  const rawTab = document.getElementById('tab-raw');
  if (rawTab) rawTab.textContent = xml ? 'Raw XML' : 'Raw JSON';
}

/**
 * The endpoints the registry names for a shell and its submodels, filled in when they
 * arrive. Those on another host are only shown: every request goes to the gateway.
 */
function endpointsView(aasId) {
  const section = document.createElement('section');
  section.className = 'endpoints';
  section.dataset.aasId = aasId;
  const title = document.createElement('h3');
  title.textContent = 'Endpoints in the registry';
  const list = document.createElement('ul');
  const note = document.createElement('p');
  note.className = 'hint';
  note.textContent = 'Reading the registry…';
  section.append(title, note, list);
  api.shellEndpoints(aasId).then((endpoints) => {
    note.textContent = endpoints.length ? '' : 'The registry names no endpoint for this shell.';
    list.replaceChildren(...endpoints.map((e) => {
      const li = document.createElement('li');
      li.dataset.elsewhere = e.elsewhere;
      const whose = e.submodel ? `Submodel ${e.submodel}` : 'Shell';
      li.textContent = `${whose}${e.kind ? ` (${e.kind})` : ''}: ${e.address}`;
      if (e.elsewhere) {
        const mark = document.createElement('span');
        mark.className = 'elsewhere';
        mark.textContent = 'another host: shown only, never contacted';
        li.append(' — ', mark);
      }
      return li;
    }));
  }, (e) => {
    note.textContent = `The registry could not be read: ${e.message}`;
  });
  return section;
}

/** One text of a language list at a time, with a button per language to switch. */
function languageSwitch(texts) {
  const ordered = orderByLanguage(texts, [chosenLanguage, navigator.language]);
  const shown = document.createElement('div');
  shown.className = 'lang-text';
  const buttons = ordered.map((entry) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = entry.language || '?';
    button.addEventListener('click', () => {
      chosenLanguage = entry.language;
      show(entry);
    });
    return button;
  });
  const show = (entry) => {
    shown.textContent = entry.text;
    shown.lang = entry.language;
    buttons.forEach((button, i) => button.setAttribute('aria-pressed', String(ordered[i] === entry)));
  };
  show(ordered[0]);
  const group = document.createElement('div');
  group.className = 'lang-switch';
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', 'Language');
  group.append(...buttons);
  const box = document.createElement('div');
  box.append(group, shown);
  return box;
}

function lineList(lines) {
  const ul = document.createElement('ul');
  ul.className = 'lines';
  ul.append(...lines.map((line) => element('li', '', line)));
  return ul;
}

/** The keys as a table; "Go to target" when the target is (or may load) in the tree. */
function referenceView(keys, node, tree) {
  const table = element('table', 'keys');
  const head = element('tr', '');
  head.append(...['type', 'local', 'idType', 'value'].map((name) => element('th', '', name)));
  const thead = element('thead', '');
  thead.append(head);
  const tbody = element('tbody', '');
  for (const key of keys) {
    const tr = element('tr', '');
    tr.append(...[key.type, String(key.local), key.idType, key.value].map((text) => element('td', '', text ?? '')));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  if (!tree || !followKeys(node, keys)) return [table];
  const status = statusSpan();
  const go = actionButton('Go to target', async () => {
    status.textContent = '';
    const target = await findTarget(node, keys, (n) => tree.expand(n));
    if (target) tree.show(target);
    else status.textContent = 'The target is not in this tree.';
  }, status);
  const bar = element('div', 'field-actions');
  bar.append(go, status);
  return [table, bar];
}

/**
 * A text with a note under it and its actions: save a Blob (or, from a file opened,
 * `file`, a File's part of the package, or open it in the system's viewer), open or
 * copy an address, copy a path.
 */
function textWithExtras(field, node, file) {
  const parts = [element('span', 'field-text', field.text)];
  if (field.note) parts.push(element('p', 'field-note', field.note));
  const status = statusSpan();
  if (field.action === 'save') {
    // What a file (or V3 server) holds opens in the system's viewer too.
    if (file) {
      parts.push(actionButton('Open', async () => {
        status.textContent = 'Opening…';
        const request = requestOf(node);
        if (!request) throw new Error('this element has no path the app can name (an item of a list)');
        await api.viewFileContent(file, request);
        status.textContent = 'Opened in the system’s viewer';
      }, status));
    }
    parts.push(actionButton('Save to disk…', async () => {
      status.textContent = 'Saving…';
      const request = requestOf(node);
      const save = file ? (at) => api.saveFileContent(file, at) : api.saveBlob;
      const path = request && await save(request);
      status.textContent = path ? `Saved to ${path}` : 'Not saved';
    }, status));
  } else if (field.action === 'open') {
    parts.push(actionButton('Open in browser', async () => {
      const request = requestOf(node);
      if (request) await api.openFileAddress(request);
    }, status), copyButton('Copy address', field.text, status));
  } else if (field.action === 'copy') {
    parts.push(copyButton('Copy path', field.text, status));
  }
  if (field.action) parts.push(status);
  return parts;
}

/**
 * Adds after a semanticId what the submodel templates call it (field "Template name"),
 * once the app has said; a pane drawn again meanwhile is left alone.
 */
async function nameConcept(dd, semanticId) {
  const [named] = await api.conceptNames([semanticId]).catch(() => [null]);
  if (!named || !dd.isConnected) return;
  const dt = element('dt', null, 'Template name');
  const text = element('dd', null, conceptText(named));
  text.dataset.field = 'Template name';
  dd.after(dt, text);
}

/** A button that copies `text` to the clipboard and says so in `status`. */
function copyButton(label, text, status) {
  return actionButton(label, async () => {
    if (!navigator.clipboard) throw new Error('no clipboard access here');
    await navigator.clipboard.writeText(text);
    status.textContent = 'Copied';
  }, status);
}

/** A button running `act`; a failure is said in `status`. */
function actionButton(text, act, status) {
  const button = element('button', 'ghost field-action', text);
  button.type = 'button';
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await act();
    } catch (e) {
      if (status) status.textContent = `Failed: ${e.message}`;
    } finally {
      button.disabled = false;
    }
  });
  return button;
}

function statusSpan() {
  const s = element('span', 'action-status');
  s.setAttribute('role', 'status');
  return s;
}

function element(tag, className, text = '') {
  const el = document.createElement(tag);
  if (className) el.className = className;
  el.textContent = text;
  return el;
}

/** The raw tab's Copy button: copies the JSON shown and says whether it worked. */
export function initCopy(button, source, status) {
  let timer;
  button.addEventListener('click', async () => {
    try {
      if (!source.textContent) throw new Error('nothing selected');
      if (!navigator.clipboard) throw new Error('no clipboard access here');
      await navigator.clipboard.writeText(source.textContent);
      status.textContent = 'Copied';
      status.classList.remove('failed');
    } catch (e) {
      status.textContent = `Copy failed: ${e.message}`;
      status.classList.add('failed');
    }
    clearTimeout(timer);
    timer = setTimeout(() => { status.textContent = ''; }, 3000);
  });
}

/** Whether a node's text is XML (a node of an XML file) rather than JSON. */
const isXml = (text) => text.trimStart().startsWith('<');
