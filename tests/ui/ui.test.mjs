// Unit tests of the UI's pure modules, with Node's built-in runner: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dedented, prettyJson } from '../../ui/lib/json-text.js';
import { adopt, createNode, isExpandable, navigate, visibleRows } from '../../ui/tree/tree-model.js';
import { badgeFor, plural } from '../../ui/lib/format.js';

// Drops whitespace outside strings, to compare JSON texts up to layout.
function squeeze(text) {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString && c === '\\') { out += c + text[i + 1]; i += 1; continue; }
    if (c === '"') inString = !inString;
    if (inString || !/\s/.test(c)) out += c;
  }
  return out;
}

test('prettyJson changes only whitespace', () => {
  const raw = '{"b":1.50,"a":[ ],"s":"x, {y}: \\"z\\"","o":{"k":[1,2]},"e":{}}';
  const pretty = prettyJson(raw);
  assert.equal(squeeze(pretty), squeeze(raw));
  assert.notEqual(pretty, raw);
  assert.match(pretty, /"b": 1\.50/);
  assert.match(pretty, /"s": "x, \{y\}: \\"z\\""/);
  assert.equal(pretty.split('\n')[0], '{');
  assert.match(pretty, /\n {6}1,\n {6}2\n {4}\]/);
  assert.match(pretty, /"a": \[\]/);
});

function sample() {
  const a = createNode({ label: 'A', load: async () => [] });
  const b = createNode({ label: 'B' });
  adopt(a, [createNode({ label: 'A1' }), createNode({ label: 'A2' })]);
  a.expanded = true;
  return [a, b];
}

const show = (rows) => rows.map((r) => `${r.node.label}@${r.depth}`);

test('visible rows follow expansion, with their ARIA positions', () => {
  const roots = sample();
  const rows = visibleRows(roots);
  assert.deepEqual(show(rows), ['A@1', 'A1@2', 'A2@2', 'B@1']);
  assert.deepEqual(rows.map((r) => `${r.posinset}/${r.setsize}`), ['1/2', '1/2', '2/2', '2/2']);
  assert.deepEqual(rows.map((r) => [r.expandable, r.expanded]), [[true, true], [false, false], [false, false], [false, false]]);
  roots[0].expanded = false;
  assert.deepEqual(show(visibleRows(roots)), ['A@1', 'B@1']);
});

test('a lazily loaded node can expand before it has children', () => {
  const lazy = createNode({ label: 'L', load: async () => [] });
  assert.equal(isExpandable(lazy), true);
  lazy.expanded = true;
  assert.deepEqual(show(visibleRows([lazy])), ['L@1'], 'still loading: no children yet');
});

test('keyboard moves like a WAI-ARIA tree', () => {
  const roots = sample();
  const rows = visibleRows(roots);
  assert.deepEqual(navigate(rows, 0, 'ArrowDown'), { index: 1, action: null });
  assert.deepEqual(navigate(rows, 3, 'ArrowDown'), { index: 3, action: null });
  assert.deepEqual(navigate(rows, 0, 'ArrowUp'), { index: 0, action: null });
  assert.deepEqual(navigate(rows, 2, 'Home'), { index: 0, action: null });
  assert.deepEqual(navigate(rows, 0, 'End'), { index: 3, action: null });
  assert.deepEqual(navigate(rows, 2, 'ArrowLeft'), { index: 0, action: null }, 'to the parent');
  assert.deepEqual(navigate(rows, 3, 'ArrowLeft'), { index: 3, action: null }, 'a root stays');
  assert.deepEqual(navigate(rows, 0, 'ArrowLeft'), { index: 0, action: 'collapse' });
  assert.deepEqual(navigate(rows, 0, 'ArrowRight'), { index: 1, action: null }, 'into the children');
  assert.equal(navigate(rows, 0, 'x'), null, 'other keys are not the tree\'s');
  roots[0].expanded = false;
  assert.deepEqual(navigate(visibleRows(roots), 0, 'ArrowRight'), { index: 0, action: 'expand' });
  assert.deepEqual(navigate(visibleRows(roots), 1, 'ArrowRight'), { index: 1, action: null }, 'a leaf');
});

test('PageUp and PageDown move a page and stop at the ends', () => {
  const rows = visibleRows(Array.from({ length: 50 }, (_, i) => createNode({ label: `N${i}` })));
  assert.deepEqual(navigate(rows, 5, 'PageDown', 20), { index: 25, action: null });
  assert.deepEqual(navigate(rows, 40, 'PageDown', 20), { index: 49, action: null });
  assert.deepEqual(navigate(rows, 25, 'PageUp', 20), { index: 5, action: null });
  assert.deepEqual(navigate(rows, 5, 'PageUp', 20), { index: 0, action: null });
});

test('plural', () => {
  assert.equal(plural(1, 'request'), '1 request');
  assert.equal(plural(2, 'request'), '2 requests');
  assert.equal(plural(3, 'match', 'matches'), '3 matches');
});

test('badges name every AAS element type and tolerate unknown ones', () => {
  assert.equal(badgeFor('Property').text, 'Prop');
  assert.equal(badgeFor('SubmodelElementCollection').text, 'SMC');
  assert.equal(badgeFor('FancyNewThing').text, 'Fanc');
  assert.equal(badgeFor(undefined).text, '?');
});

test('loading progress reads well', async () => {
  const { progressText } = await import('../../ui/snapshots/take-and-export.js');
  assert.equal(progressText({ requests_done: 5, requests_known: 9, bytes: 1_250_000, failures: 0 }), '5/9 requests, 1.3 MB');
  assert.equal(progressText({ requests_done: 9, requests_known: 9, bytes: 0, failures: 2 }), '9/9 requests, 0.0 MB, 2 failed');
});

test('plant codes are read from what users type', async () => {
  const { parsePlants } = await import('../../ui/profiles/profiles.js');
  assert.deepEqual(parsePlants(' A-1, B-2  C-3;D '), ['A-1', 'B-2', 'C-3', 'D']);
  assert.deepEqual(parsePlants('  '), []);
});

test('a node knows the request it came from', async () => {
  const { requestOf } = await import('../../ui/tree/request-path.js');
  const node = (model_type, extra) => createNode({ label: extra.id_short ?? 'x', data: { model_type, ...extra } });
  const aas = node('AssetAdministrationShell', { id: 'urn:a#1', id_short: 'A' });
  const sm = node('Submodel', { id_short: 'Nameplate' });
  const coll = node('SubmodelElementCollection', { id_short: 'Address' });
  const leaf = node('Property', { id_short: 'CityTown' });
  adopt(aas, [sm]);
  adopt(sm, [coll]);
  adopt(coll, [leaf]);
  assert.deepEqual(requestOf(leaf), { aasId: 'urn:a#1', submodel: 'Nameplate', path: ['Address', 'CityTown'] });
  assert.deepEqual(requestOf(sm), { aasId: 'urn:a#1', submodel: 'Nameplate', path: [] });
  assert.deepEqual(requestOf(aas), { aasId: 'urn:a#1', submodel: null, path: [] });
});

test('an XML element from a file starts at the left margin, its lines as indented as before', () => {
  const element = '<property>\n      <idShort>A</idShort>\n      <value>1</value>\n    </property>';
  assert.equal(dedented(element), '<property>\n  <idShort>A</idShort>\n  <value>1</value>\n</property>');
  assert.equal(dedented('<value>1</value>'), '<value>1</value>');
  // A line less indented than the end tag (text with line breaks) is kept as it is.
  assert.equal(dedented('<text>a\nb\n  </text>'), '<text>a\nb\n</text>');
});
