// Unit tests of the UI's pure modules, with Node's built-in runner: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { prettyJson } from '../../ui/json-text.js';
import { adopt, createNode, navigate, visibleRows } from '../../ui/tree-model.js';
import { badgeFor } from '../../ui/format.js';

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
  const a = createNode({ key: 'a', label: 'A', kind: 'aas', load: async () => [] });
  const b = createNode({ key: 'b', label: 'B', kind: 'aas' });
  adopt(a, [createNode({ key: 'a1', label: 'A1' }), createNode({ key: 'a2', label: 'A2' })]);
  a.expanded = true;
  return [a, b];
}

test('visible rows follow expansion', () => {
  const roots = sample();
  assert.deepEqual(visibleRows(roots).map((r) => `${r.node.key}@${r.depth}`), ['a@1', 'a1@2', 'a2@2', 'b@1']);
  roots[0].expanded = false;
  assert.deepEqual(visibleRows(roots).map((r) => r.node.key), ['a', 'b']);
});

test('keyboard moves like a WAI-ARIA tree', () => {
  const roots = sample();
  const rows = visibleRows(roots);
  assert.deepEqual(navigate(rows, 0, 'ArrowDown'), { index: 1, action: null });
  assert.deepEqual(navigate(rows, 3, 'ArrowDown'), { index: 3, action: null });
  assert.deepEqual(navigate(rows, 2, 'Home'), { index: 0, action: null });
  assert.deepEqual(navigate(rows, 0, 'End'), { index: 3, action: null });
  assert.deepEqual(navigate(rows, 2, 'ArrowLeft'), { index: 0, action: null }, 'to the parent');
  assert.deepEqual(navigate(rows, 0, 'ArrowLeft'), { index: 0, action: 'collapse' });
  assert.deepEqual(navigate(rows, 0, 'ArrowRight'), { index: 1, action: null }, 'into the children');
  roots[0].expanded = false;
  assert.deepEqual(navigate(visibleRows(roots), 0, 'ArrowRight'), { index: 0, action: 'expand' });
  assert.deepEqual(navigate(visibleRows(roots), 1, 'ArrowRight'), { index: 1, action: null }, 'a leaf');
});

test('badges name every AAS element type and tolerate unknown ones', () => {
  assert.equal(badgeFor('Property').text, 'Prop');
  assert.equal(badgeFor('SubmodelElementCollection').text, 'SMC');
  assert.equal(badgeFor('FancyNewThing').text, 'Fanc');
  assert.equal(badgeFor(undefined).text, '?');
});
