// What the window has on screen, in shell/state.js: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalize } from '../../ui/shell/preferences.js';
import { snapshotList, sourceOf, state } from '../../ui/shell/state.js';

test('the window starts with nothing shown and the default preferences', () => {
  assert.equal(state.profile, null);
  assert.equal(state.plant, null);
  assert.equal(state.browsing, null);
  assert.deepEqual(state.prefs, normalize(null));
  assert.deepEqual(snapshotList(), [], 'no snapshots while they are unknown');
});

test('the source follows the snapshot browsed, else the service for the plant', () => {
  assert.deepEqual(sourceOf('Nord'), { from: 'live', plant: 'Nord' });
  state.browsing = { id: 7, store: 'team' };
  try {
    assert.deepEqual(sourceOf('Nord'), { from: 'snapshot', store: 'team', id: 7 });
  } finally {
    state.browsing = null;
  }
});

test('the snapshot list is what listSnapshots answered', () => {
  const snapshots = [{ id: 2, complete: true }];
  state.listed = { snapshots };
  try {
    assert.equal(snapshotList(), snapshots);
  } finally {
    state.listed = null;
  }
});
