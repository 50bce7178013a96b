// Which calls tell the offline banner about the service: node --test tests/ui
// Only calls that reach the service may; a local command that succeeds while the
// service is down must not hide the banner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';

// The Tauri bridge, stubbed: `answer(command)` decides each call's outcome.
let answer = () => null;
globalThis.window = {
  __TAURI__: {
    core: {
      invoke: async (command, args) => answer(command, args),
      // Serialised as Tauri's own Channel is: the id its messages come back to.
      Channel: class { onmessage = null; toJSON() { return '__CHANNEL__:1'; } },
    },
  },
};
const api = await import('../../ui/lib/api.js');

const heard = [];
api.onReachability((up) => heard.push(up));

function reset(outcome) {
  heard.length = 0;
  answer = outcome;
}

// The app's errors say what they say of the service (`service`), its tree replies
// whether the service gave them (`from_service`).
const offline = () => { throw { kind: 'offline', message: 'connection refused', service: 'unreachable' }; };
const treeReply = (answer, fromService) => ({ answer, from_service: fromService });
const node = { aasId: 'urn:aas:1', submodel: 'urn:sm:1', path: ['Temp'] };
const live = api.liveSource('Nord');
const stored = api.snapshotSource({ id: 7, store: 'team' });
const pumps = { level: 'aas_list', asset_type: 'pump' };
const submodelsOf = (aasId) => ({ level: 'submodels', aas_id: aasId });
const elementsOf = (aasId, submodel) => ({ level: 'elements', aas_id: aasId, submodel });

test('a local command that succeeds says nothing of the service', async () => {
  reset(() => 'ok');
  await api.curlFor(element);
  await api.listProfiles();
  await api.connectionInfo();
  await api.cancelJob();
  await api.useProfile('Demo');
  await api.saveProfile({ name: 'Demo' }, {});
  await api.duplicateProfile('Demo');
  await api.deleteProfile('Demo');
  await api.revealExport();
  await api.convertFile({ target: 'v3.1', kind: 'aasx' });
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
  if (command === 'tree') return treeReply([], true);
  return command === 'export_selection' ? { path: requests ? '/tmp/x.json' : null, bytes: 0, loaded } : loaded;
};

test('a server command that succeeds reports the service reachable', async () => {
  reset(crawled(3, 1));
  await api.treeChildren(live, pumps);
  await api.treeChildren(live, submodelsOf('urn:aas:1'));
  await api.treeChildren(live, elementsOf('urn:aas:1', 'urn:sm:1'));
  await api.shellJson(live, 'pump', 'urn:aas:1');
  await api.checkConnection();
  await api.saveBlob(element);
  await api.openFileAddress(element);
  await api.takeSnapshot('Nord', ['Pump'], () => {});
  await api.exportSelection({ plant: 'Nord', assetTypes: ['Pump'], picks: [], format: 'json' }, () => {});
  assert.deepEqual(heard, [true, true, true, true, true, true, true, true, true]);
});

test('an offline error from a server command reports it unreachable', async () => {
  reset(offline);
  await assert.rejects(api.treeChildren(live, pumps), { kind: 'offline', message: 'connection refused' });
  await assert.rejects(api.checkConnection(), { kind: 'offline' });
  assert.deepEqual(heard, [false, false]);
});

test('an error the service answered with reports it reachable; one it did not give says nothing', async () => {
  reset(() => { throw { kind: 'not_found', message: 'no such shell', service: 'answered' }; });
  await assert.rejects(api.treeChildren(live, submodelsOf('urn:aas:gone')), { kind: 'not_found' });
  answer = () => { throw { kind: 'unknown', message: '?' }; };
  await assert.rejects(api.treeChildren(live, submodelsOf('urn:aas:1')), { kind: 'unknown' });
  // A team store that is down is offline too, but it is not the service.
  answer = () => { throw { kind: 'offline', message: 'team store', service: null }; };
  await assert.rejects(api.takeSnapshot('Nord', ['Pump'], () => {}), { kind: 'offline' });
  assert.deepEqual(heard, [true], 'only the answer moved the banner');
});

test('the tree read from a snapshot says nothing of the service, live it does', async () => {
  const calls = [];
  reset((command, args) => { calls.push([command, args]); return treeReply([], false); });
  await api.treeChildren(stored, pumps);
  await api.treeChildren(stored, submodelsOf('urn:aas:1'));
  await api.shellJson(stored, 'pump', 'urn:aas:1');
  assert.deepEqual(heard, []);
  assert.deepEqual(calls, [
    ['tree', { ask: { what: 'children', source: { from: 'snapshot', store: 'team', id: 7 }, node: pumps } }],
    ['tree', { ask: { what: 'children', source: { from: 'snapshot', store: 'team', id: 7 }, node: submodelsOf('urn:aas:1') } }],
    ['tree', { ask: { what: 'shell_json', source: { from: 'snapshot', store: 'team', id: 7 }, asset_type: 'pump', aas_id: 'urn:aas:1' } }],
  ]);
  // The team store holding the snapshot is down: offline, but not the service.
  answer = () => { throw { kind: 'offline', message: 'team store', service: null }; };
  await assert.rejects(api.treeChildren(stored, submodelsOf('urn:aas:1')), { kind: 'offline' });
  assert.deepEqual(heard, [], 'a snapshot read never moves the banner');
  answer = offline;
  await assert.rejects(api.treeChildren(live, submodelsOf('urn:aas:1')), { kind: 'offline' });
  assert.deepEqual(heard, [false], 'live, it does');
});

// Every call the page can make, once, as recorded below: the same list as
// tests/ui/command-calls.json, which src-tauri/tests/commands.rs sends through Tauri's
// own command dispatch to the commands the app registers (each must name one and carry
// arguments it reads). UPDATE_COMMAND_CALLS=1 writes the file anew from api.js.
const callsFile = new URL('./command-calls.json', import.meta.url);
const profile = {
  name: 'Nord', registry_url: 'https://aas.example/registry', gateway_url: 'https://aas.example/gateway',
  auth_url: 'https://login.example/auth', realm: 'plants', client_id: 'browser', plants: ['DEMO-01'],
};
const secrets = { clientSecret: 's', userToken: '', proxyPassword: '' };
const snapshot = { id: 4, store: 'here' };
const element = { aasId: 'urn:aas:1', submodel: 'urn:sm:1', path: ['Nameplate', 'Serial'] };
const everyCall = [
  () => api.connectionInfo(),
  () => api.treeChildren(api.liveSource('DEMO-01'), { level: 'aas_list', asset_type: 'machine' }),
  () => api.shellCount(api.snapshotSource(snapshot), 'machine'),
  () => api.shellJson(api.liveSource('DEMO-01'), 'machine', 'urn:aas:1'),
  () => api.shellEndpoints('urn:aas:1'),
  () => api.refreshRegistry(),
  () => api.takeSnapshot('DEMO-01', ['machine'], () => {}),
  () => api.cancelJob(),
  () => api.checkConnection(),
  () => api.exportSelection({ plant: 'DEMO-01', assetTypes: ['machine'], picks: [{ aas_id: 'urn:aas:1', submodels: null }], format: 'v3-env' }, () => {}),
  () => api.revealExport(),
  () => api.convertFile({ target: 'v3.1', kind: 'aasx' }),
  () => api.conversionReport(),
  () => api.openAasFile(),
  () => api.takeFileIn({ file: 2 }),
  () => api.openV3Server('http://127.0.0.1:8081/api/v3.0', 'token', () => {}),
  () => api.openV3Profile('Line 3 server', () => {}),
  () => api.openStartFile(),
  () => api.onFileDropped(() => {}),
  () => api.onFileReading(() => {}),
  () => api.cancelFileReading(),
  () => api.closeFile({ file: 2 }),
  () => api.demoV3Server(),
  () => api.recentFiles(),
  () => api.openRecentFile(0, 'pump.aasx'),
  () => api.saveFileContent(api.fileSource({ file: 2 }), element),
  () => api.viewFileContent(api.fileSource({ file: 2 }), element),
  () => api.conceptNames(['0173-1#02-AAO677#002']),
  () => api.treeChildren(api.fileSource({ file: 2 }), { level: 'submodels', aas_id: 'urn:aas:1' }),
  () => api.listSnapshots('DEMO-01'),
  () => api.deleteSnapshot(snapshot),
  () => api.moveStoreAside(),
  () => api.searchSnapshot('DEMO-01', 'SN-M', snapshot, 100),
  () => api.snapshotChanges('DEMO-01', null, null),
  () => api.exportChanges(snapshot, { id: 5, store: 'here' }, 'json'),
  () => api.exportSnapshot('DEMO-01', null, 'env'),
  () => api.copyDiagnostics(),
  () => api.listProfiles(),
  () => api.saveProfile(profile, secrets),
  () => api.deleteProfile('Nord'),
  () => api.useProfile('Nord'),
  () => api.getPreferences(),
  () => api.setPreference({ keep_snapshots: 5 }),
  () => api.setPreference({ table_full_width: true }),
  () => api.duplicateProfile('Nord'),
  () => api.testConnection(profile, secrets),
  () => api.status(),
  () => api.saveBlob(element),
  () => api.openFileAddress(element),
  () => api.curlFor(element),
  () => api.tableColumns('DEMO-01', null, 'machine'),
  () => api.openTable({ plant: 'DEMO-01', snapshot: null, asset_type: 'machine', columns: [], languages: ['en'] }),
  () => api.arrangeTable({ column: 0, descending: true }, [{ column: 1, text: '>5' }]),
  () => api.tableRows(0, 50),
  () => api.tableElement(3, 1),
  () => api.exportTable('xlsx'),
  () => api.auditPlant({ plant: 'DEMO-01', snapshot: null, asset_type: null, languages: [] }, () => {}),
  () => api.auditGroup(0, 0, 50),
  () => api.exportAudit('csv'),
];

test('the calls api.js makes are those the commands are checked against', async () => {
  const calls = [];
  reset((command, args) => { calls.push([command, args ?? {}]); return null; });
  for (const call of everyCall) await call().catch(() => {});
  const made = JSON.stringify(calls, null, 1) + '\n';
  if (process.env.UPDATE_COMMAND_CALLS) writeFileSync(callsFile, made);
  assert.equal(made, readFileSync(callsFile, 'utf8'),
    'api.js sends other calls than tests/ui/command-calls.json: run UPDATE_COMMAND_CALLS=1 node --test tests/ui/api.test.mjs, then cargo test -p aas-browser --test commands');
  const exported = Object.entries(api).filter(([, f]) => typeof f === 'function');
  const called = new Set(everyCall.map((call) => call.toString().match(/api\.(\w+)\(/)[1]));
  const listeners = ['onReachability', 'onUserTokenRefused', 'liveSource', 'snapshotSource', 'fileSource'];
  for (const [name] of exported) {
    assert.ok(called.has(name) || listeners.includes(name), `${name} is not in the list of every call`);
  }
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
  reset(() => { throw { kind: 'user_token', message: 'the user token was refused or has expired', service: 'answered' }; });
  await assert.rejects(api.treeChildren(live, pumps), { kind: 'user_token' });
  assert.deepEqual(refused, ['the user token was refused or has expired']);
  assert.deepEqual(heard, [true], 'the service answered');
  reset(() => { throw { kind: 'auth', message: 'client refused', service: 'answered' }; });
  await assert.rejects(api.treeChildren(live, pumps), { kind: 'auth' });
  assert.equal(refused.length, 1, 'only the user token is fixed there');
});
