// The virtual tree's arithmetic: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageRows, revealOffset, rowBox, visibleRange } from '../../ui/tree/viewport.js';

const ROW = 26;

test('the visible range covers the viewport plus overscan', () => {
  const at = (scrollTop, overscan = 0) => visibleRange({ scrollTop, viewportHeight: 260, rowHeight: ROW, count: 10000, overscan });
  assert.deepEqual(at(0), { start: 0, end: 10 });
  assert.deepEqual(at(13), { start: 0, end: 11 }, 'a half row at each edge');
  assert.deepEqual(at(2600), { start: 100, end: 110 });
  assert.deepEqual(at(2600, 5), { start: 95, end: 115 });
  assert.deepEqual(at(0, 5), { start: 0, end: 15 }, 'no rows before the first');
});

test('a short tree renders every row', () => {
  assert.deepEqual(visibleRange({ scrollTop: 0, viewportHeight: 600, rowHeight: ROW, count: 3, overscan: 8 }), { start: 0, end: 3 });
  assert.deepEqual(visibleRange({ scrollTop: 0, viewportHeight: 600, rowHeight: ROW, count: 0, overscan: 8 }), { start: 0, end: 0 });
});

test('a scroll position past the end (the tree just shrank) gives an empty range', () => {
  const r = visibleRange({ scrollTop: 26000, viewportHeight: 260, rowHeight: ROW, count: 3, overscan: 2 });
  assert.equal(r.start, r.end);
});

test('revealing a row scrolls as little as needed', () => {
  const reveal = (index, scrollTop) => revealOffset({ index, scrollTop, viewportHeight: 260, rowHeight: ROW });
  assert.equal(reveal(5, 0), 0, 'already in view');
  assert.equal(reveal(9, 0), 0, 'the last whole row');
  assert.equal(reveal(10, 0), 26, 'below: to the bottom edge');
  assert.equal(reveal(100, 0), 101 * ROW - 260);
  assert.equal(reveal(3, 260), 78, 'above: to the top edge');
  assert.equal(reveal(3, 90), 78, 'a partly hidden row is scrolled into view');
  assert.equal(revealOffset({ index: 4, scrollTop: 0, viewportHeight: 10, rowHeight: ROW }), 104, 'viewport lower than a row: its top');
});

test('a page is the viewport less one row, at least one', () => {
  assert.equal(pageRows(260, ROW), 9);
  assert.equal(pageRows(10, ROW), 1);
});

test('a row is placed and indented with plain lengths, no CSS custom properties', () => {
  const box = (index, depth) => rowBox({ index, depth, rowHeight: ROW, indent: 18 });
  assert.deepEqual(box(0, 1), { top: '0px', height: '26px', paddingLeft: '10px' });
  assert.deepEqual(box(9999, 3), { top: '259974px', height: '26px', paddingLeft: '46px' });
  for (const value of Object.values(box(12, 2))) assert.match(value, /^\d+px$/);
});
