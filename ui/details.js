// The details pane: the fields of the selected node per element type (chosen in
// details-model.js), and its raw JSON exactly as the server sent it.

import { badgeFor } from './format.js';
import { prettyJson } from './json-text.js';
import { detailFields, orderByLanguage } from './details-model.js';

let chosenLanguage = null; // the user's last pick in a language switch, for every node

export function showDetails(pane, rawPre, node) {
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
  for (const field of detailFields(data, node.children?.map((c) => c.data) ?? data.children)) {
    const dt = document.createElement('dt');
    dt.textContent = field.name;
    const dd = document.createElement('dd');
    dd.dataset.field = field.name;
    if (field.langs) dd.append(languageSwitch(field.langs));
    else if (field.lines) dd.append(lineList(field.lines));
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
  pane.replaceChildren(...parts);
  rawPre.textContent = data.raw ? prettyJson(data.raw) : '';
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
  ul.append(...lines.map((line) => Object.assign(document.createElement('li'), { textContent: line })));
  return ul;
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
