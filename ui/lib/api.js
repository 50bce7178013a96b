// The only module that talks to the Rust side. Views call these functions and get
// plain data, or an Error with `.kind` ("auth", "not_found", "offline", "bad_data",
// "busy", …), `.advice` (what to do, where the app has words for it; or null), `.detail`
// (the server's answer or the causes, for a bug report; or null) and `.service` (what
// it says of the service: "answered", "unreachable" or null).

import { snapshotRef } from '../snapshots/snapshot-model.js';

const reachability = new Set();
const userTokenRefusals = new Set();

function invoke(command, args) {
  return window.__TAURI__.core.invoke(command, args);
}

// A command answered by this app alone (profiles, dialogs, curl text…). It says
// nothing of the service: while offline, its success must not hide the banner.
async function localCall(command, args) {
  try {
    return await invoke(command, args);
  } catch (raw) {
    throw asError(raw);
  }
}

// A command that reaches the active profile's service: its outcome is news of the
// service. `answered(result)` tells whether a success really heard from it.
async function serverCall(command, args, answered = () => true) {
  let result;
  try {
    result = await invoke(command, args);
  } catch (raw) {
    throw heardIn(asError(raw));
  }
  if (answered(result)) tellReachable(true);
  return result;
}

// A command of the source on screen, which may be the service or this computer (a
// snapshot): the app says in its reply, and in its errors, whether the service spoke.
async function sourceCall(command, args) {
  let reply;
  try {
    reply = await invoke(command, args);
  } catch (raw) {
    throw heardIn(asError(raw));
  }
  if (reply.from_service) tellReachable(true);
  return reply.answer;
}

// What an error says of the service, as the app judged it (`service`: 'answered',
// 'unreachable' or null): only that moves the banner.
function heardIn(error) {
  if (error.service === 'unreachable') tellReachable(false, error.unreachable);
  else if (error.service === 'answered') tellReachable(true);
  if (error.kind === 'user_token') for (const fn of userTokenRefusals) fn(error);
  return error;
}

// A crawl resolves even when every request failed (or nothing was asked, as after a
// cancelled save dialog): only something fetched proves the service answered. An
// unexpected shape says nothing rather than turn a success into a failure.
const fetchedAny = (summary) => summary?.requests > (summary?.failures?.length ?? 0);

function asError(raw) {
  const error = new Error(raw?.message ?? String(raw));
  error.kind = raw?.kind ?? 'unknown';
  error.detail = raw?.detail ?? null;
  error.advice = raw?.advice ?? null;
  error.service = raw?.service ?? null;
  error.unreachable = raw?.unreachable ?? null;
  return error;
}

function tellReachable(up, server = null) {
  for (const fn of reachability) fn(up, server);
}

/**
 * Calls `fn(false, server)` when a call to the service finds it unreachable (`server`: the
 * origin of the one that did not answer, the token server, registry or gateway, as the
 * app names it), `fn(true)` when the service answers. Commands this app answers alone
 * never call it.
 */
export function onReachability(fn) {
  reachability.add(fn);
}

/** Calls `fn(error)` when the service refuses the profile's user token. */
export function onUserTokenRefused(fn) {
  userTokenRefusals.add(fn);
}

export const connectionInfo = () => localCall('connection_info');
// How the page names the source on screen (shell/state.js `sourceOf`): the service
// (`liveSource(plant)`), a snapshot on this computer or in the team store
// (`snapshotSource(snapshot)`) or a file opened (`fileSource(opened)`: by the number the
// app gave it, never its path). The app opens it; the page never routes by it.
export const liveSource = (plant) => ({ from: 'live', plant });
export const snapshotSource = (snapshot) => ({ from: 'snapshot', ...snapshotRef(snapshot) });
export const fileSource = (opened) => ({ from: 'file', file: opened.file });
/**
 * Open file…: asks for an AAS file (AASX, or an environment as JSON or XML, AAS V2.0 to
 * V3.1) and reads it. Resolves to `{file, name, asset_types: [{asset_type, shells}],
 * shells, submodels, parts: [{name, version, serialisation}]}`, or null if the dialog
 * was cancelled.
 */
export const openAasFile = () => localCall('open_aas_file');
/**
 * Open server…: reads the AAS V3 server at `address` whole (with the bearer `token`, if
 * given), `onProgress({requests, shells, submodels, failures, opened})` as it goes —
 * `opened` once, when every shell is read: the server as openAasFile resolves, its shells
 * alone, browsable while their submodels are read (then the answer, the same `file`);
 * Cancel is cancelJob (what was read is shown, `complete` false). Resolves as
 * openAasFile does, with `kind` "v3_server", `name` the address and `failures` in words.
 */
export function openV3Server(address, token, onProgress) {
  return localCall('open_v3_server', { address, token: token || null, onProgress: progressChannel(onProgress) });
}
/** Reads the V3 server of the saved profile `name` whole, as openV3Server does (its secrets stay in the app). */
export function openV3Profile(name, onProgress) {
  return localCall('open_v3_profile', { name, onProgress: progressChannel(onProgress) });
}
/** Recent files: `[{name, path}]`, the files opened last, the newest first. */
export const recentFiles = () => localCall('recent_files');
/**
 * Opens the recent file at `index` of recentFiles, the one listed there by `name` (the
 * app refuses when the list has changed since); resolves as openAasFile does.
 */
export const openRecentFile = (index, name) => localCall('open_recent_file', { index, name });
/** The address of the built-in demo's AAS V3 server (null without the demo): Open server… offers it. */
export const demoV3Server = () => localCall('demo_v3_server');
/** The file the app was started with (a double-click on an .aasx), read as openAasFile reads one; null if none. */
export const openStartFile = () => localCall('open_start_file');
/** Take in: keeps the file `opened` in this computer's store as a snapshot (its plant: the file's name); resolves to that snapshot. */
export const takeFileIn = (opened) => localCall('take_file_in', { file: opened.file });
/** Close file (or Close server): the app lets the file `opened` go, with all it holds. */
export const closeFile = (opened) => localCall('close_file', { file: opened.file });
/**
 * Calls `fn({opened, error})` for each file dropped on the window: `opened` as
 * openAasFile answers, or `error` (as a failed call rejects with) when it was not read.
 */
export function onFileDropped(fn) {
  const channel = new window.__TAURI__.core.Channel();
  channel.onmessage = (dropped) => fn({ opened: dropped.opened, error: dropped.error && asError(dropped.error) });
  return localCall('watch_dropped_files', { onDropped: channel });
}
/**
 * Calls `fn({name, file, read, size, done, failed, opened})` while a file being opened
 * (to be numbered `file`) is read, whichever way it was opened: a few times a second once
 * it takes longer than a glance (`read` of `size` bytes), once with `opened` (as
 * openAasFile answers, its shells alone) when its shells are read before the rest, and
 * once more with `done` when it ends (`failed`: not opened). cancelFileReading stops it.
 */
export function onFileReading(fn) {
  const channel = new window.__TAURI__.core.Channel();
  channel.onmessage = fn;
  return localCall('watch_file_reading', { onReading: channel });
}
/** Stops the reading of the file being opened: the open call rejects with kind "interrupted". */
export const cancelFileReading = () => localCall('cancel_file_reading');
const treeAsk = (ask) => sourceCall('tree', { ask });
/**
 * The nodes below `node` in `source`: `{level: 'aas_list', asset_type}` (the plant's
 * shells of that type), `{level: 'submodels', aas_id}`, `{level: 'elements', aas_id, submodel}`.
 */
export const treeChildren = (source, node) => treeAsk({ what: 'children', source, node });
/** How many shells of `assetType` the plant has in `source` (its chip's count). */
export const shellCount = (source, assetType) => treeAsk({ what: 'shell_count', source, asset_type: assetType });
// A shell's JSON, left out of the list's shells (most are never looked at).
export const shellJson = (source, assetType, aasId) => treeAsk({ what: 'shell_json', source, asset_type: assetType, aas_id: aasId });
/**
 * What the registry names as the endpoints of shell `aasId` and its submodels:
 * `[{submodel, address, kind, elsewhere}]` (`elsewhere`: another host, never contacted).
 */
export const shellEndpoints = (aasId) => serverCall('shell_endpoints', { aasId });
/** Refresh: the registry is read again at its next use. */
export const refreshRegistry = () => localCall('refresh_registry');

/**
 * Crawls the plant into a new snapshot; `onProgress({requests_done, requests_known,
 * bytes, failures, offline})`. Resolves to `{snapshot, requests, failures, cancelled,
 * retired}` (a cancelled one is kept as partial; `retired`: the ids of the older
 * snapshots the keep-N preference removed).
 */
export function takeSnapshot(plant, assetTypes, onProgress) {
  return serverCall('take_snapshot', { plant, assetTypes, onProgress: progressChannel(onProgress) }, fetchedAny);
}

function progressChannel(onProgress) {
  const channel = new window.__TAURI__.core.Channel();
  channel.onmessage = onProgress;
  return channel;
}
/** Cancels the snapshot or export running. */
export const cancelJob = () => localCall('cancel_job');
/** Whether the active profile's service answers (rejects with kind "offline" if not). */
export const checkConnection = () => serverCall('check_connection');
/**
 * Asks where to save, fetches `picks` (`[{aas_id, submodels}]`, submodels null for a
 * whole shell) with progress, and writes them as `format` (see export-formats.js).
 * Resolves to `{path, bytes, loaded, conversion}`, path null when cancelled;
 * `conversion`, for an AAS V3.0 format, says in a line what the conversion changed and
 * where its report is (null otherwise).
 */
export function exportSelection({ plant, assetTypes, picks, format }, onProgress) {
  const request = { plant, assetTypes, picks, format };
  return serverCall('export_selection', { request, onProgress: progressChannel(onProgress) },
    (summary) => fetchedAny(summary?.loaded));
}
/** Shows the last exported (or converted) file in the system's file manager. */
export const revealExport = () => localCall('reveal_export');
/**
 * Convert a file…: asks for an AAS file (V2.0.1 or BaSyx V1, V3.0 or V3.1; JSON, XML or
 * AASX), then where to save its conversion `to` = `{target: 'v3.0'|'v3.1', kind:
 * 'aasx'|'json'|'xml'}`, and writes it with its report beside it. Resolves to
 * `{path, bytes, conversion}`, or null if either dialog was cancelled.
 */
export const convertFile = (to) => localCall('convert_file', { to });
/**
 * Show report: the report of the last V3 export or conversion, `{source, written, target,
 * created, total, rules: [{rule, meaning, count, changes: [{path, was, now}]}]}` (the
 * first changes of each rule; `was`/`now` JSON texts, cut when long).
 */
export const conversionReport = () => localCall('conversion_report');

// The snapshot store. Every call but takeSnapshot answers from the local store: it says
// nothing of the service. A snapshot is `{id, source, plant, taken_at (RFC 3339, UTC),
// shells, nodes, complete, bytes}`. Errors of note: kind "store_damaged" (the message
// names the file), "no_snapshot" (the message says how to get one), "disk_full", "busy".

/**
 * The snapshots of `plant`, newest first: the active profile's on this computer and the
 * team store's, each with `store` ("here" or "team"): `{store: {path, bytes}, team: null |
 * {url, problem, problem_kind}, keep, snapshots}`. Below, a `snapshot` is one of these
 * records (or null where said).
 */
// The Snapshots dialog's list, delete and move aside: one command, `{what, …}`.
const snapshotsAsk = (ask) => localCall('snapshots_ask', { ask });
export const listSnapshots = (plant) => snapshotsAsk({ what: 'list', plant });
export const deleteSnapshot = (snapshot) => snapshotsAsk({ what: 'delete', snapshot: snapshotRef(snapshot) });
/** Moves a damaged store aside (a new one starts at its next use); resolves to `{moved_to}`. */
export const moveStoreAside = () => snapshotsAsk({ what: 'move_aside' });
/**
 * Full-text search over snapshot `snapshot` (null: the latest complete of `plant`):
 * `{snapshot, hits: [{aas_id, asset_type, submodel, path, model_type, value}]}`, at most
 * `limit` hits; `submodel` null for a hit on a shell, `path` the idShorts below the submodel.
 */
export const searchSnapshot = (plant, query, snapshot, limit) =>
  localCall('search_snapshot', { plant, query, snapshot: snapshotRef(snapshot), limit });
/**
 * What changed from snapshot `old` to `new`, two of one store (both null: the latest two
 * complete on this computer): `{old, new, store, changes: [{change: added|removed|changed,
 * aas_id, submodel, path, old, new}], warnings}`.
 */
export const snapshotChanges = (plant, old, newer) =>
  localCall('snapshot_changes', { plant, old: snapshotRef(old), new: snapshotRef(newer) });
/** Asks where to save the changes from `old` to `newer` as `format` (csv|json); resolves to the path, or null if cancelled. */
export const exportChanges = (old, newer, format) =>
  localCall('export_changes', { old: snapshotRef(old), new: snapshotRef(newer), format });
/**
 * Asks where to save snapshot `snapshot` (null: the latest complete of `plant`) as
 * `format` (see export-formats.js); resolves to `{path, bytes, conversion}` (`conversion`
 * as for exportSelection), or null if cancelled.
 */
export const exportSnapshot = (plant, snapshot, format) =>
  localCall('export_snapshot', { plant, snapshot: snapshotRef(snapshot), format });

/** Help → Copy diagnostics: version, platform, profile addresses, last errors, to the clipboard. */
export const copyDiagnostics = () => localCall('copy_diagnostics');

// The Profiles dialog's list, save, delete, duplicate and use: one command, `{what, …}`.
const profileAsk = (ask) => localCall('profile', { ask });
export const listProfiles = () => profileAsk({ what: 'list' });
/**
 * The form's secrets as the Rust side reads them: `{clientSecret, userToken,
 * proxyPassword}`, and a V3 server's `bearerToken` or `apiKey`.
 */
const profileForm = (profile, { clientSecret = '', userToken = '', proxyPassword = '', bearerToken = '', apiKey = '' }) =>
  ({
    profile, client_secret: clientSecret, user_token: userToken, proxy_password: proxyPassword,
    bearer_token: bearerToken, api_key: apiKey,
  });
/**
 * Saves a profile with `secrets` (as profileForm reads them); an empty secret keeps the
 * one in the keychain.
 */
export const saveProfile = (profile, secrets, sessionOnly = false) =>
  profileAsk({ what: 'save', form: profileForm(profile, secrets), session_only: sessionOnly });
export const deleteProfile = (name) => profileAsk({ what: 'delete', name });
export const useProfile = (name) => profileAsk({ what: 'use', name });
/**
 * The app's own preferences, kept by the Rust side: `{theme: 'light'|'dark'|null,
 * last_profile, views: {<profile>: {plant, asset_type}}, export_format, keep_snapshots,
 * team_store: URL or null}`.
 */
export const getPreferences = () => localCall('get_preferences');
/**
 * Stores ONE change: `{theme}`, `{view: {profile, plant?, asset_type?}}` (the parts given
 * replace, the others are kept), `{export_format}`, `{keep_snapshots}` (1 to 1000) or
 * `{team_store: {url, password}}` (url null: none; the password goes to the OS keychain,
 * null keeps the one there, "" forgets it).
 */
export const setPreference = (change) => localCall('set_preference', { change });
/** Saves a copy of saved profile `name` (secrets included); resolves to the copy. */
export const duplicateProfile = (name) => profileAsk({ what: 'duplicate', name });
/** Tries the profile as filled in: resolves to `[{step, status: passed|failed|skipped, text}]`. */
export const testConnection = (profile, secrets) =>
  localCall('test_connection', { form: profileForm(profile, secrets) });
/** `{profile, token_expires_in, user_token_expiry, requests, errors}` of the active connection. */
export const status = () => localCall('status');
/** Asks where to save the Blob at `{aasId, submodel, path}` and writes its decoded content; resolves to the path, or null if cancelled. */
export const saveBlob = ({ aasId, submodel, path }) => serverCall('save_blob', { at: { aas_id: aasId, submodel, id_shorts: path } });
/**
 * Asks where to save what the element at `{aasId, submodel, path}` of the file opened
 * (`fileSource`) holds: a File's part of the package, a Blob's decoded content; writes
 * it there and resolves to the path, or null if cancelled.
 */
export const saveFileContent = (source, { aasId, submodel, path }) =>
  localCall('save_file_content', { file: source.file, at: { aas_id: aasId, submodel, id_shorts: path } });
/** What the submodel templates call each semanticId: `[{name, templates}|null]`, in order. */
export const conceptNames = (semanticIds) => localCall('concept_names', { semanticIds });
/** Opens what the element at `{aasId, submodel, path}` of the file opened holds in the system's viewer (documents and pictures only). */
export const viewFileContent = (source, { aasId, submodel, path }) =>
  localCall('view_file_content', { file: source.file, at: { aas_id: aasId, submodel, id_shorts: path } });
/** Opens the web address of the File at `{aasId, submodel, path}` in the browser. */
export const openFileAddress = ({ aasId, submodel, path }) =>
  serverCall('open_file_address', { at: { aas_id: aasId, submodel, id_shorts: path } });
/** `{aasId, submodel, path}` of a node (see request-path.js) as a curl command. */
export const curlFor = ({ aasId, submodel, path }) => localCall('curl_for', { aasId, submodel, idShorts: path });

// The plant table (the Table tab): built from a snapshot on the Rust side and kept open
// there; the page reads a window of its rows at a time. One command, asked `what`.
const tableAsk = (ask) => localCall('table', { ask });
/**
 * The column picker's list for the plant's shells of `assetType` (null: all) in
 * `snapshot` (null: the plant's latest complete): `{snapshot, census: {shells, columns:
 * [{column, semantic_id, model_type, value_type, unit, shells}]}, defaults: [column]}`.
 */
export const tableColumns = (plant, snapshot, assetType) =>
  tableAsk({ what: 'columns', plant, snapshot: snapshotRef(snapshot), asset_type: assetType });
/**
 * Builds and opens the table `{plant, snapshot, asset_type, columns, languages}`
 * (no columns: the defaults): `{snapshot, columns: [{column, name, label, unit,
 * semantic_id}], total, shown, unreadable}` (`name`: the element's idShort; `label`:
 * the header of a written table, the whole column where two share a name).
 */
export const openTable = (request) => tableAsk({ what: 'open', ...request, snapshot: snapshotRef(request.snapshot) });
/** Sorts (`{column, descending}` or null) and filters (`[{column, text}]`: each box's text, read by the app) the open table; its shape. */
export const arrangeTable = (sort, filters) => tableAsk({ what: 'arrange', sort, filters });
/**
 * Rows `start…start+count` as arranged: `{kinds, texts}`, for each row a string with a
 * letter a cell (`n` number, `d` date, `b` bool, `t` text, `e` empty, `-` missing) and
 * its cells' texts (`null` when missing).
 */
export const tableRows = (start, count) => tableAsk({ what: 'rows', start, count });
/** Where the element of cell `column` of row `row` as arranged is: `{aas_id, asset_type, submodel, path}`. */
export const tableElement = (row, column) => tableAsk({ what: 'element', row, column });
/** Asks where to save the table as shown in `format` (xlsx|csv|json); the path, or null if cancelled. */
export const exportTable = (format) => localCall('export_table', { format });

// The template audit (the Quality tab): made from a snapshot on the Rust side and kept
// there while the tab shows it.
/**
 * Audits `{plant, snapshot, asset_type, languages}` (snapshot null: the plant's newest
 * complete one; asset_type null: every type; languages []: those the plant uses), with
 * `onProgress({shells_done, shells})`; Cancel is cancelJob. Resolves to the summary:
 * `{snapshot, asset_type, shells, without_template, partial, languages, errors,
 * shells_with_errors, warnings, templates: [{title, origin, shells, complete,
 * near_misses}], groups: [{group, template, template_path, kind, severity, rule,
 * findings, shells}]}`.
 */
export const auditPlant = (request, onProgress) =>
  localCall('audit_plant', { request: { ...request, snapshot: snapshotRef(request.snapshot) }, onProgress: progressChannel(onProgress) });
/**
 * Gaps `start..start + count` of group `group`: `{group, total, gaps: [{aas_id, id_short,
 * asset_type, submodel, open, named, path, kind, severity, rule, seen}]}`; `open`: the
 * idShorts below the submodel down to the node to show, `named`: the element missing there.
 */
export const auditGroup = (group, start, count) => localCall('audit_group', { group, start, count });
/** Asks where to save the findings as `format` (xlsx|csv|json); the path, or null if cancelled. */
export const exportAudit = (format) => localCall('export_audit', { format });
