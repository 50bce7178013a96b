// Show report's words: the heading of a report and what is left unlisted of a rule.
import test from 'node:test';
import assert from 'node:assert/strict';

globalThis.window = { __TAURI__: { core: { Channel: class {}, invoke: async () => null } } };
const { reportHeading, moreText } = await import('../../ui/snapshots/conversion-report.js');

test('the heading names the version, the count, the file written and the source', () => {
  const report = { target: 'AAS V3.1', total: 85, source: 'plant DEMO-01 as read at 2026-11-27T21:00:00Z', written: 'C:\\out\\full-v3.1.aasx' };
  assert.equal(reportHeading(report), 'AAS V3.1: 85 changes writing full-v3.1.aasx from plant DEMO-01 as read at 2026-11-27T21:00:00Z');
  assert.equal(reportHeading({ ...report, total: 0 }).slice(0, 22), 'AAS V3.1: no changes w');
});

test('a rule with more changes than shown says how many more the file lists', () => {
  assert.equal(moreText({ count: 102, changes: new Array(100) }), '… and 2 more changes: the report file lists every one.');
  assert.equal(moreText({ count: 101, changes: new Array(100) }), '… and 1 more change: the report file lists every one.');
  assert.equal(moreText({ count: 3, changes: new Array(3) }), '');
});
