// The only module that talks to the Rust side. Views call these functions and get
// plain data, or an Error with `.kind` ("auth", "not_found", "offline", "bad_data", …).

const listeners = new Set();
const activity = { requests: 0, errors: 0 };

function invoke(command, args) {
  return window.__TAURI__.core.invoke(command, args);
}

async function call(command, args) {
  activity.requests += 1;
  notify();
  try {
    return await invoke(command, args);
  } catch (raw) {
    activity.errors += 1;
    notify();
    const error = new Error(raw?.message ?? String(raw));
    error.kind = raw?.kind ?? 'unknown';
    throw error;
  }
}

function notify() {
  for (const fn of listeners) fn({ ...activity });
}

/** Calls `fn({requests, errors})` whenever a request starts or fails. */
export function onActivity(fn) {
  listeners.add(fn);
  fn({ ...activity });
}

export const connectionInfo = () => call('connection_info');
export const listAas = (assetType, plant) => call('list_aas', { assetType, plant });
export const listSubmodels = (aasId) => call('list_submodels', { aasId });
export const listElements = (aasId, submodel) => call('list_elements', { aasId, submodel });

/** Crawls the plant; `onProgress({requests_done, requests_known, bytes, failures})`. */
export function loadEverything(plant, assetTypes, onProgress) {
  const channel = new window.__TAURI__.core.Channel();
  channel.onmessage = onProgress;
  return call('load_everything', { plant, assetTypes, onProgress: channel });
}
export const cancelLoading = () => call('cancel_loading');
/** Asks where to save and writes what was loaded; resolves to the path, or null if cancelled. */
export const exportLoaded = (format) => call('export_loaded', { format });

export const listProfiles = () => call('list_profiles');
/** Saves a profile; empty secrets keep the ones in the keychain. */
export const saveProfile = (profile, clientSecret, userToken) =>
  call('save_profile', { profile, clientSecret, userToken });
export const deleteProfile = (name) => call('delete_profile', { name });
export const useProfile = (name) => call('use_profile', { name });
/** `{aasId, submodel, path}` of a node (see request-path.js) as a curl command. */
export const curlFor = ({ aasId, submodel, path }) => call('curl_for', { aasId, submodel, idShorts: path });
