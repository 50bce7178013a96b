// The details pane: the fields of the selected node, and its raw JSON exactly as the
// server sent it.

import { badgeFor, langLines, plural } from './format.js';
import { prettyJson } from './json-text.js';

const FIELDS = [
  ['idShort', (d) => d.id_short],
  ['Identifier', (d) => d.id],
  ['Model type', (d) => d.model_type],
  ['Value', (d) => d.value],
  ['Value type', (d) => d.value_type],
  ['Semantic ID', (d) => d.semantic_id],
  ['Kind', (d) => d.kind],
  ['Description', (d) => langLines(d.description).join('\n')],
  ['Contains', (d) => (d.children?.length ? plural(d.children.length, 'element') : null)],
];

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
  for (const [name, read] of FIELDS) {
    const value = read(data);
    if (value === null || value === undefined || value === '') continue;
    const dt = document.createElement('dt');
    dt.textContent = name;
    const dd = document.createElement('dd');
    dd.textContent = value;
    dd.dataset.field = name;
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
