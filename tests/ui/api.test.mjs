// Which calls tell the offline banner about the service: node --test tests/ui
// Only calls that reach the service may; a local command that succeeds while the
// service is down must not hide the banner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

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
  await api.curlFor(node);
  await api.listProfiles();
  await api.connectionInfo();
  await api.cancelJob();
  await api.useProfile('Demo');
  await api.saveProfile({ name: 'Demo' }, {});
  await api.duplicateProfile('Demo');
  await api.deleteProfile('Demo');
  await api.revealExport();
  await api.convertFile();
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
  await api.saveBlob(node);
  await api.openFileAddress(node);
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

/**
 * The shell's commands as Rust declares them (src-tauri/src/*.rs): each command's
 * name and the argument keys Tauri reads, camelCase as Tauri 2 turns its parameters,
 * with whether each may be left out (an Option). What Tauri injects (State, AppHandle,
 * a window) is not an argument.
 */
function rustCommands() {
  const dir = new URL('../../src-tauri/src/', import.meta.url);
  const commands = new Map();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.rs'))) {
    const text = readFileSync(new URL(file, dir), 'utf8');
    const declared = /#\[tauri::command[^\]]*\]\s*(?:pub\s+)?(?:async\s+)?fn\s+(\w+)\s*(?:<[^>]*>)?\(([^)]*)\)/g;
    for (const [, name, params] of text.matchAll(declared)) {
      const args = new Map();
      for (const param of params.split(/,(?![^<]*>)/).map((p) => p.trim()).filter(Boolean)) {
        const [, arg, type] = param.match(/^(\w+)\s*:\s*(.+)$/s) ?? [];
        if (!arg || /^(tauri::)?(State|AppHandle|Window|WebviewWindow)\b/.test(type)) continue;
        args.set(arg.replace(/_(\w)/g, (_, c) => c.toUpperCase()), /^Option\s*</.test(type));
      }
      commands.set(name, args);
    }
  }
  return commands;
}

test('the calls api.js makes name commands and arguments the Rust side declares', async () => {
  const commands = rustCommands();
  assert.ok(commands.size > 10, `commands found in src-tauri: ${[...commands.keys()]}`);
  const calls = [];
  reset((command, args) => { calls.push([command, args]); return null; });
  await api.searchSnapshot('Nord', 'SN-M', 4, 100);
  await api.snapshotChanges('Nord', 2, 4);
  await api.exportChanges(2, 4, 'json');
  await api.exportSnapshot('Nord', 4, 'env');
  await api.setPreference({ keep_snapshots: 5 });
  await api.listSnapshots('Nord');
  await api.deleteSnapshot(3);
  await api.convertFile();
  await api.exportSelection({ plant: 'Nord', assetTypes: ['Pump'], picks: [], format: 'v3-env' }, () => {});
  assert.equal(calls.length, 9);
  for (const [command, args] of calls) {
    const declared = commands.get(command);
    assert.ok(declared, `${command} is not a command of src-tauri`);
    for (const key of Object.keys(args ?? {})) {
      assert.ok(declared.has(key), `${command} takes no argument ${key} (it takes ${[...declared.keys()]})`);
    }
    for (const [key, optional] of declared) {
      assert.ok(optional || key in (args ?? {}), `${command} needs ${key}`);
    }
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
