// Snapshots as the page names and picks them: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';

process.env.TZ = 'UTC'; // dates are shown in local time
const {
  bannerText, comparedWords, formatBytes, formatTakenAt, keepValue, latestComplete, offlineOffer, pickerLabels, placeName, previousOf, problemWords,
  sameSnapshot, snapshotKey, snapshotName, snapshotRef, takeSummary, takenAtAfter, takenAtIn, takenAtLabels,
} = await import('../../ui/snapshots/snapshot-model.js');

const snap = (id, day, complete = true) =>
  ({ id, taken_at: `2024-05-0${day}T08:30:00Z`, shells: 24, nodes: 200, complete, bytes: 1000 * id });
// Newest first, as listSnapshots answers: 5 partial, 4 and 2 complete, 1 partial.
const list = [snap(5, 5, false), snap(4, 4), snap(2, 2), snap(1, 1, false)];

test('dates, sizes and names read well', () => {
  assert.equal(formatTakenAt('2024-05-03T14:07:59Z'), '2024-05-03 14:07');
  assert.equal(formatTakenAt('not a date'), 'not a date');
  assert.deepEqual([0, 950, 12_345, 4_500_000, 1_200_000_000].map(formatBytes), ['0 B', '950 B', '12.3 kB', '4.5 MB', '1.2 GB']);
  assert.equal(snapshotName(snap(4, 4)), 'the snapshot of 2024-05-04 08:30');
  assert.equal(snapshotName(snap(5, 5, false)), 'the snapshot of 2024-05-05 08:30 (partial)');
});

test('pickers tell apart snapshots taken in the same minute by their seconds', () => {
  const at = (id, time, complete = true) => ({ id, taken_at: `2024-05-03T${time}Z`, complete });
  assert.deepEqual(pickerLabels([at(3, '14:07:59'), at(2, '14:07:05', false), at(1, '09:00:00')]),
    ['2024-05-03 14:07:59', '2024-05-03 14:07:05 (partial)', '2024-05-03 09:00']);
});

test('a date is said to the second only where another snapshot shares its minute', () => {
  const at = (id, when) => ({ id, taken_at: `2026-11-${when}Z`, complete: true });
  const [newer, older, earlier, lastDay] = [at(3, '27T00:32:41'), at(2, '27T00:32:05'), at(1, '27T00:10:00'), at(0, '26T23:58:00')];
  const list = [newer, older, earlier, lastDay];
  assert.equal(takenAtIn(newer, list), '2026-11-27 00:32:41');
  assert.equal(takenAtIn(earlier, list), '2026-11-27 00:10', 'no other snapshot of 00:10');
  assert.equal(takenAtIn(newer, [newer]), '2026-11-27 00:32', 'itself does not count');
  assert.equal(takenAtIn(newer), '2026-11-27 00:32');
  assert.equal(snapshotName(older, list), 'the snapshot of 2026-11-27 00:32:05');
  // After the other side's full date: its day left out when it is the same day.
  assert.equal(takenAtAfter(older, newer), '00:32:05');
  assert.equal(takenAtAfter(earlier, newer, list), '00:10');
  assert.equal(takenAtAfter(lastDay, newer, list), '2026-11-26 23:58');
  assert.equal(takenAtAfter({ taken_at: 'garbled' }, newer), 'garbled');
});

test('the banner names the snapshot browsed, and the one its marks are since, each once', () => {
  const at = (id, when, complete = true) => ({ id, taken_at: `2026-11-${when}Z`, complete });
  const [newer, older, lastDay] = [at(3, '27T00:32:41'), at(2, '27T00:32:05'), at(1, '26T23:58:00')];
  assert.equal(bannerText(older, null, [newer, older, lastDay]), 'Browsing the snapshot of 2026-11-27 00:32:05, read-only.');
  assert.equal(bannerText(lastDay, null, [newer, older, lastDay]), 'Browsing the snapshot of 2026-11-26 23:58, read-only.');
  assert.equal(bannerText(newer, older, []),
    'Browsing the snapshot of 2026-11-27 00:32:41, read-only — what changed since 00:32:05 is marked.');
  assert.equal(bannerText(newer, lastDay, []),
    'Browsing the snapshot of 2026-11-27 00:32, read-only — what changed since 2026-11-26 23:58 is marked.');
  assert.equal(bannerText(at(4, '27T00:40:00', false), null), 'Browsing the snapshot of 2026-11-27 00:40 (partial), read-only.');
  assert.equal(comparedWords(older, newer), 'from the snapshot of 2026-11-27 00:32:05 to 00:32:41');
  assert.equal(comparedWords(lastDay, newer), 'from the snapshot of 2026-11-26 23:58 to 2026-11-27 00:32');
  // A file taken in against the plant: each named with its source.
  const file = { ...at(5, '27T01:10:00'), plant: 'pump.aasx' };
  const plant = { ...at(6, '27T01:12:00'), plant: 'DEMO-01' };
  assert.equal(comparedWords(plant, file),
    'from DEMO-01, the snapshot of 2026-11-27 01:12, to pump.aasx, the snapshot of 2026-11-27 01:10');
});

test('the latest complete snapshot is offered while offline, unless one is on screen', () => {
  assert.equal(latestComplete(list).id, 4, 'the newer partial one is passed over');
  assert.equal(offlineOffer(list, null).id, 4);
  assert.equal(offlineOffer(list, snap(2, 2)), null, 'a snapshot is on screen already');
  assert.equal(offlineOffer([snap(1, 1, false)], null).id, 1, 'a partial one beats an empty tree');
  assert.equal(offlineOffer([], null), null);
});

test('a snapshot is compared with the complete one before it', () => {
  assert.equal(previousOf(list, snap(5, 5)).id, 4);
  assert.equal(previousOf(list, snap(4, 4)).id, 2);
  assert.equal(previousOf(list, snap(2, 2)), null, 'only a partial one is older');
  assert.equal(previousOf(list, snap(99, 9)), null);
});

// Ids are each store's own: this computer's snapshot 4 is not the team's snapshot 4.
const team = (id, day, complete = true) => ({ ...snap(id, day, complete), store: 'team' });
const both = [team(7, 8), snap(5, 5, false), team(4, 4), snap(4, 3), snap(2, 2)];

test('a snapshot is named by its store and its id there', () => {
  assert.deepEqual(snapshotRef(team(4, 4)), { store: 'team', id: 4 });
  assert.deepEqual(snapshotRef(snap(4, 4)), { store: 'here', id: 4 }, 'a take\'s record says no store: this computer');
  assert.equal(snapshotRef(null), null);
  assert.ok(sameSnapshot(snap(4, 3), { ...snap(4, 3), store: 'here' }));
  assert.ok(!sameSnapshot(snap(4, 3), team(4, 4)) && !sameSnapshot(null, null));
  assert.notEqual(snapshotKey(snap(4, 3)), snapshotKey(team(4, 4)));
  assert.deepEqual(both.map(placeName).slice(0, 2), ['Team', 'This computer']);
});

test('the snapshot compared with is of the same store; the offer is the newest of either', () => {
  assert.equal(previousOf(both, team(7, 8)).id, 4);
  assert.equal(previousOf(both, team(7, 8)).store, 'team');
  assert.equal(previousOf(both, snap(4, 3)).id, 2, 'the team\'s snapshot 4 is passed over');
  assert.equal(previousOf(both, team(4, 4)), null, 'no older team snapshot');
  assert.deepEqual(snapshotRef(offlineOffer(both, null)), { store: 'team', id: 7 });
});

test('the keep setting takes whole numbers; the app checks their bounds', () => {
  assert.deepEqual(['1', '10', '1000', ' 7 ', '0', '1001'].map(keepValue), [1, 10, 1000, 7, 0, 1001]);
  assert.deepEqual(['2.5', 'ten', '', ' ', '-3', '1e30'].map(keepValue), [null, null, null, null, null, null]);
});

test('store problems are said in words that say what to do', () => {
  const error = (kind, message = 'raw', advice = null) => Object.assign(new Error(message), { kind, advice });
  // The app's advice where it has one (see crates/aas-app/src/ipc_error.rs).
  assert.equal(problemWords(error('disk_full', 'No space left on device', 'The disk is full: free some.')),
    'The disk is full: free some.');
  const damaged = problemWords(error('store_damaged', '/data/snapshots.sqlite3 is damaged: move it aside.'));
  assert.match(damaged, /^\/data\/snapshots\.sqlite3 is damaged: move it aside\. /);
  assert.ok(damaged.endsWith('(Snapshots… offers to move it aside and start a new store.)'), damaged);
  assert.equal(problemWords(error('no_snapshot', 'No snapshot of DEMO-01 yet: Take snapshot makes one.')),
    'No snapshot of DEMO-01 yet: Take snapshot makes one.');
});

test('the line after Take snapshot says how it ended', () => {
  const result = { snapshot: snap(4, 4), requests: 156, failures: [], cancelled: false, retired: [] };
  assert.equal(takeSummary(result), 'Snapshot taken: 24 shells, 4.0 kB');
  assert.equal(takeSummary({ ...result, failures: ['a', 'b'], retired: [1, 2] }),
    'Snapshot taken: 24 shells, 4.0 kB; 2 nodes failed; 2 older snapshots removed (keep setting)');
  assert.equal(takeSummary({ ...result, unreadable_count: 3, unreadable: ['u at $[1]: why'] }),
    'Snapshot taken: 24 shells, 4.0 kB; 3 parts could not be read (kept as sent)');
  assert.equal(takeSummary({ ...result, snapshot: snap(5, 5, false), requests: 10, cancelled: true }),
    'Cancelled after 10 requests: kept as a partial snapshot');
});

test('the dates of a list are written as each is written alone among them', () => {
  const at = (id, time) => ({ id, taken_at: `2024-05-04T${time}Z`, complete: true });
  const list = [at(1, '08:30:05'), at(2, '08:30:41'), at(3, '08:31:00'), at(4, '08:31:00')];
  assert.deepEqual(takenAtLabels(list), list.map((s) => takenAtIn(s, list)));
  assert.deepEqual(takenAtLabels(list), ['2024-05-04 08:30:05', '2024-05-04 08:30:41', '2024-05-04 08:31', '2024-05-04 08:31']);
});
