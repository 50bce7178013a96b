// Where the page's tooltip goes: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tooltipTop } from '../../ui/shell/tooltips.js';

const rect = (top, bottom, left = 0, right = 1280) => ({ top, bottom, left, right });
const box = { left: 14, width: 300, height: 40 };
const filterBox = rect(128, 156, 14, 540);

test('a tooltip hangs below its element, unless it would cover the filter box', () => {
  assert.equal(tooltipTop(rect(180, 206), box, [filterBox], 800), 212, 'a tree row: below');
  assert.equal(tooltipTop(rect(84, 110), box, [filterBox], 800), 38, 'Take snapshot, just above the filter box: above');
  assert.equal(tooltipTop(rect(84, 110), { ...box, left: 600 }, [filterBox], 800), 116, 'beside the filter box: below');
});

test('a tooltip that fits neither below nor above goes below the filter box, and stays in the window', () => {
  assert.equal(tooltipTop(rect(20, 110), box, [filterBox], 800), 162);
  assert.equal(tooltipTop(rect(770, 790), box, [], 800), 724, 'the status bar: above');
  assert.equal(tooltipTop(rect(0, 790), box, [], 800), 760, 'nowhere clear: below, kept in the window');
});
