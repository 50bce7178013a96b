// Which calls tell the offline banner about the service: node --test tests/ui
// Only calls that reach the service may; a local command that succeeds while the
// service is down must not hide the banner.
import { test } from 'node:test';
import assert from 'node:assert/strict';

// The Tauri bridge, stubbed: `answer(command)` decides each call's outcome.
let answer = () => null;
globalThis.window = {
  __TAURI__: {
    core: {
      invoke: async (command, args) => answer(command, args),
      Channel: class { onmessage = null; },
    },
  },
};
const api = await import('../../ui/api.js');

const heard = [];
api.onReachability((up) => heard.push(up));

function reset(outcome) {
  heard.length = 0;
  answer = outcome;
}

const offline = () => { throw { kind: 'offline', message: 'connection refused' }; };
const node = { aasId: 'urn:aas:1', submodel: 'urn:sm:1', path: ['Temp'] };

test('a local command that succeeds says nothing of the service', async () => {
  reset(() => 'ok');
  await api.curlFor(node);
  await api.listProfiles();
  await api.connectionInfo();
  await api.cancelLoading();
  await api.useProfile('Demo');
  await api.saveProfile({ name: 'Demo' }, {});
  await api.duplicateProfile('Demo');
  await api.deleteProfile('Demo');
  await api.revealExport();
  await api.listSnapshots('Nord');
  await api.deleteSnapshot(3);
  await api.moveStoreAside();
  await api.searchSnapshot('Nord', 'SN-1', null, 100);
  await api.snapshotChanges('Nord', null, null);
  await api.exportChanges(2, 3, 'csv');
  await api.exportSnapshot('Nord', null, 'aasx');
  await api.testConnection({ name: 'Draft' }, {});
  await api.status();
  await api.getPreferences();
  await api.setPreference({ theme: 'dark' });
  assert.deepEqual(heard, []);
});

test('a local command that fails says nothing of the service either', async () => {
  reset(offline);
  await assert.rejects(api.testConnection({ name: 'Draft' }, {}), { kind: 'offline' });
  answer = () => { throw { kind: 'server', message: 'keychain' }; };
  await assert.rejects(api.saveProfile({ name: 'Demo' }, { clientSecret: 's' }), { kind: 'server' });
  assert.deepEqual(heard, []);
});

// What a crawl resolves to: `failed` of `requests` failed.
const summary = (requests, failed) => ({ requests, failures: Array(failed).fill('url: offline'), cancelled: false });
const crawled = (requests, failed) => (command) => {
  const loaded = summary(requests, failed);
  return command === 'export_selection' ? { path: requests ? '/tmp/x.json' : null, bytes: 0, loaded } : loaded;
};

test('a server command that succeeds reports the service reachable', async () => {
  reset(crawled(3, 1));
  await api.listAas('Pump', 'Nord');
  await api.listSubmodels('urn:aas:1');
  await api.listElements('urn:aas:1', 'urn:sm:1');
  await api.checkConnection();
  await api.saveBlob(node);
  await api.openFileAddress(node);
  await api.takeSnapshot('Nord', ['Pump'], () => {});
  await api.exportSelection({ plant: 'Nord', assetTypes: ['Pump'], picks: [], format: 'json' }, () => {});
  assert.deepEqual(heard, [true, true, true, true, true, true, true, true]);
});

test('an offline error from a server command reports it unreachable', async () => {
  reset(offline);
  await assert.rejects(api.listAas('Pump', 'Nord'), { kind: 'offline', message: 'connection refused' });
  await assert.rejects(api.checkConnection(), { kind: 'offline' });
  assert.deepEqual(heard, [false, false]);
});

test('an error only an answering server gives reports it reachable', async () => {
  reset(() => { throw { kind: 'not_found', message: 'no such shell' }; });
  await assert.rejects(api.listSubmodels('urn:aas:gone'), { kind: 'not_found' });
  answer = () => { throw { kind: 'unknown', message: '?' }; };
  await assert.rejects(api.listSubmodels('urn:aas:1'), { kind: 'unknown' });
  assert.deepEqual(heard, [true], 'an unknown error says nothing');
});

test('the tree read from a snapshot says nothing of the service, live it does', async () => {
  const calls = [];
  reset((command, args) => { calls.push([command, args]); return []; });
  await api.listAas('Pump', 'Nord', 7);
  await api.listSubmodels('urn:aas:1', 7);
  await api.listElements('urn:aas:1', 'Nameplate', 7);
  assert.deepEqual(heard, []);
  assert.deepEqual(calls, [
    ['list_aas', { assetType: 'Pump', plant: 'Nord', snapshot: 7 }],
    ['list_submodels', { aasId: 'urn:aas:1', snapshot: 7 }],
    ['list_elements', { aasId: 'urn:aas:1', submodel: 'Nameplate', snapshot: 7 }],
  ]);
  answer = offline;
  await assert.rejects(api.listSubmodels('urn:aas:1', 7), { kind: 'offline' });
  assert.deepEqual(heard, [], 'a snapshot read never moves the banner');
  await assert.rejects(api.listSubmodels('urn:aas:1'), { kind: 'offline' });
  assert.deepEqual(heard, [false], 'live, it does');
});

test('snapshot commands pass the names the Rust side reads', async () => {
  const calls = [];
  reset((command, args) => { calls.push([command, args]); return null; });
  await api.searchSnapshot('Nord', 'SN-M', 4, 100);
  await api.snapshotChanges('Nord', 2, 4);
  await api.exportChanges(2, 4, 'json');
  await api.exportSnapshot('Nord', 4, 'env');
  await api.setPreference({ keep_snapshots: 5 });
  assert.deepEqual(calls, [
    ['search_snapshot', { plant: 'Nord', query: 'SN-M', snapshot: 4, limit: 100 }],
    ['snapshot_changes', { plant: 'Nord', old: 2, new: 4 }],
    ['export_changes', { old: 2, new: 4, format: 'json' }],
    ['export_snapshot', { plant: 'Nord', snapshot: 4, format: 'env' }],
    ['set_preference', { change: { keep_snapshots: 5 } }],
  ]);
});

test('a crawl that fetched nothing says nothing of the service', async () => {
  reset(crawled(4, 4)); // every request failed, the service away all along
  await api.takeSnapshot('Nord', ['Pump'], () => {});
  await api.exportSelection({ plant: 'Nord', assetTypes: ['Pump'], picks: [], format: 'json' }, () => {});
  answer = crawled(0, 0); // the save dialog cancelled: nothing asked
  await api.exportSelection({ plant: 'Nord', assetTypes: ['Pump'], picks: [], format: 'json' }, () => {});
  assert.deepEqual(heard, []);
});

test('the progress callback gets the channel messages', async () => {
  const got = [];
  reset((command, args) => { args.onProgress.onmessage({ requests_done: 1 }); return summary(1, 0); });
  await api.takeSnapshot('Nord', ['Pump'], (p) => got.push(p));
  assert.deepEqual(got, [{ requests_done: 1 }]);
});

test('preferences are read and changed through the two local commands', async () => {
  const calls = [];
  reset((command, args) => { calls.push([command, args]); return command === 'get_preferences' ? { theme: 'dark' } : null; });
  assert.deepEqual(await api.getPreferences(), { theme: 'dark' });
  await api.setPreference({ view: { profile: 'P', asset_type: 'tool' } });
  assert.deepEqual(calls, [
    ['get_preferences', undefined],
    ['set_preference', { change: { view: { profile: 'P', asset_type: 'tool' } } }],
  ]);
  answer = () => { throw { kind: 'bad_request', message: 'unknown format', detail: null }; };
  await assert.rejects(api.setPreference({ export_format: 'exe' }), { kind: 'bad_request', message: 'unknown format' });
  assert.deepEqual(heard, []);
});

test('a refused user token is told to whoever offers to open the profile', async () => {
  const refused = [];
  api.onUserTokenRefused((e) => refused.push(e.message));
  reset(() => { throw { kind: 'user_token', message: 'the user token was refused or has expired' }; });
  await assert.rejects(api.listAas('Pump', 'Nord'), { kind: 'user_token' });
  assert.deepEqual(refused, ['the user token was refused or has expired']);
  assert.deepEqual(heard, [true], 'the service answered');
  reset(() => { throw { kind: 'auth', message: 'client refused' }; });
  await assert.rejects(api.listAas('Pump', 'Nord'), { kind: 'auth' });
  assert.equal(refused.length, 1, 'only the user token is fixed there');
});
