// The only module that talks to the Rust side. Views call these functions and get
// plain data, or an Error with `.kind` ("auth", "not_found", "offline", "bad_data", …).

const reachability = new Set();
// Error kinds that only an answering server produces.
const SERVER_ANSWERS = new Set(['auth', 'not_allowed', 'not_found', 'rate_limited', 'server', 'bad_data']);

function invoke(command, args) {
  return window.__TAURI__.core.invoke(command, args);
}

async function call(command, args) {
  try {
    const answer = await invoke(command, args);
    tellReachable(true);
    return answer;
  } catch (raw) {
    const error = new Error(raw?.message ?? String(raw));
    error.kind = raw?.kind ?? 'unknown';
    if (error.kind === 'offline') tellReachable(false);
    else if (SERVER_ANSWERS.has(error.kind)) tellReachable(true);
    throw error;
  }
}

function tellReachable(up) {
  for (const fn of reachability) fn(up);
}

/** Calls `fn(false)` when a call finds the service unreachable, `fn(true)` when one succeeds. */
export function onReachability(fn) {
  reachability.add(fn);
}

export const connectionInfo = () => call('connection_info');
export const listAas = (assetType, plant) => call('list_aas', { assetType, plant });
export const listSubmodels = (aasId) => call('list_submodels', { aasId });
export const listElements = (aasId, submodel) => call('list_elements', { aasId, submodel });

/** Crawls the plant; `onProgress({requests_done, requests_known, bytes, failures})`. */
export function loadEverything(plant, assetTypes, onProgress) {
  return call('load_everything', { plant, assetTypes, onProgress: progressChannel(onProgress) });
}

function progressChannel(onProgress) {
  const channel = new window.__TAURI__.core.Channel();
  channel.onmessage = onProgress;
  return channel;
}
export const cancelLoading = () => call('cancel_loading');
/** Whether the active profile's service answers (rejects with kind "offline" if not). */
export const checkConnection = () => call('check_connection');
/** Asks where to save and writes what was loaded; resolves to the path, or null if cancelled. */
export const exportLoaded = (format) => call('export_loaded', { format });
/**
 * Asks where to save, fetches `picks` (`[{aas_id, submodels}]`, submodels null for a
 * whole shell) with progress, and writes them. Resolves to `{path, bytes, loaded}`,
 * path null when cancelled.
 */
export function exportSelection({ plant, assetTypes, picks, format }, onProgress) {
  return call('export_selection', { plant, assetTypes, picks, format, onProgress: progressChannel(onProgress) });
}
/** Shows the last exported file in the system's file manager. */
export const revealExport = () => call('reveal_export');

export const listProfiles = () => call('list_profiles');
/** Saves a profile; empty secrets keep the ones in the keychain. */
export const saveProfile = (profile, clientSecret, userToken, sessionOnly = false) =>
  call('save_profile', { profile, clientSecret, userToken, sessionOnly });
export const deleteProfile = (name) => call('delete_profile', { name });
export const useProfile = (name) => call('use_profile', { name });
/** Saves a copy of saved profile `name` (secrets included); resolves to the copy. */
export const duplicateProfile = (name) => call('duplicate_profile', { name });
/** Tries the profile as filled in: resolves to `[{step, status: passed|failed|skipped, text}]`. */
export const testConnection = (profile, clientSecret, userToken) =>
  call('test_connection', { profile, clientSecret, userToken });
/**
 * `{profile, token_expires_in, user_token_expiry, requests, errors}` of the active connection.
 * Not through `call`: it asks this app, not the server, so it says nothing of reachability.
 */
export const status = () => invoke('status');
/** Asks where to save the Blob at `{aasId, submodel, path}` and writes its decoded content; resolves to the path, or null if cancelled. */
export const saveBlob = ({ aasId, submodel, path }) => call('save_blob', { aasId, submodel, idShorts: path });
/** Opens the web address of the File at `{aasId, submodel, path}` in the browser. */
export const openFileAddress = ({ aasId, submodel, path }) =>
  call('open_file_address', { aasId, submodel, idShorts: path });
/** `{aasId, submodel, path}` of a node (see request-path.js) as a curl command. */
export const curlFor = ({ aasId, submodel, path }) => call('curl_for', { aasId, submodel, idShorts: path });
