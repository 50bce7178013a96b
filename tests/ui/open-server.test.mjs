// What Open server… says while it reads: node --test tests/ui
import { test } from 'node:test';
import assert from 'node:assert/strict';

const { progressText, bannerReadingText } = await import('../../ui/shell/open-server.js');

test('the reading says what it has read so far, and failures only once there are some', () => {
  assert.equal(progressText({ requests: 2, shells: 1, submodels: 0, failures: 0 }),
    'Reading… 1 shell, 0 submodels so far. Stop keeps what was read.');
  assert.equal(progressText({ requests: 9, shells: 3, submodels: 5, failures: 2 }),
    'Reading… 3 shells, 5 submodels, 2 failures so far. Stop keeps what was read.');
});

test('once the shells are shown, the banner names the server read', () => {
  assert.equal(bannerReadingText('http://127.0.0.1:8081/api/v3.0', { requests: 4, shells: 3, submodels: 1, failures: 0 }),
    'Reading http://127.0.0.1:8081/api/v3.0: 3 shells, 1 submodel so far');
});
