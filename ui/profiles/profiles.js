// The profile picker and the Profiles dialog: the saved profiles listed, the form of the
// one picked (or of a new one), Delete after a confirmation. A profile connects to the
// platform, or to an AAS V3 server (read whole when used, as Open server… reads one).
// Secrets typed here go straight to the Rust side (and on to the OS keychain); never
// kept in the page or its storage.

import * as api from '../lib/api.js';
import { userTokenNote } from '../lib/jwt.js';

const FIELDS = {
  name: 'pf-name', registry_url: 'pf-registry', gateway_url: 'pf-gateway', auth_url: 'pf-auth',
  realm: 'pf-realm', client_id: 'pf-client-id', client_auth: 'pf-client-auth',
};
// A V3 server's: `profile.v3`'s fields.
const V3_FIELDS = {
  address: 'pf-v3-address', registry: 'pf-v3-registry', auth: 'pf-v3-auth', api_key_header: 'pf-v3-header',
  token_url: 'pf-v3-token-url',
};
const FIELD_DEFAULTS = { client_auth: 'form', auth: 'none', api_key_header: 'X-API-Key' };
const SECRET_FIELDS = ['pf-secret', 'pf-user-token', 'pf-proxy-password', 'pf-v3-bearer', 'pf-v3-key'];

const STEP_NAMES = {
  token: 'Access token', registry: 'Registry', gateway: 'Gateway', description: 'Server description', shells: 'Shells',
};

/** Whether a form element marked `data-kind` (and `data-auth`) shows for `kind` asked as `auth`. */
export function fieldShown(dataset, kind, auth) {
  if (!dataset.kind) return true;
  if (!dataset.kind.split(' ').includes(kind)) return false;
  return kind !== 'v3_server' || !dataset.auth || dataset.auth.split(' ').includes(auth);
}

/** Whether `profile` (a saved one) is a V3 server's. */
export const isV3 = (profile) => profile?.kind === 'v3_server';
const STEP_MARKS = { passed: '✓', failed: '✗', skipped: '–' };

/** One line per step of a connection test: `{step, status, text}` to "✓ Registry: 21 AAS descriptors". */
export function stepLine({ step, status, text }) {
  return `${STEP_MARKS[status] ?? '?'} ${STEP_NAMES[step] ?? step}: ${text}`;
}

/**
 * The connection settings the form does not edit (they live in the settings file and
 * are kept on save), in words; '' when the profile has none.
 */
export function transportNote(profile) {
  const parts = [];
  if (profile?.allow_plain_http) parts.push('plain http to other hosts allowed (tokens travel unencrypted)');
  if (profile?.ca_file) parts.push(`also trusts the CA certificates in ${profile.ca_file}`);
  if (profile?.proxy) {
    const user = profile.proxy_user ? ` as ${profile.proxy_user} (password in the keychain)` : '';
    parts.push(`through the proxy ${profile.proxy}${user}`);
  }
  return parts.length ? `From the settings file, kept on save: ${parts.join('; ')}.` : '';
}

/** Plant codes as typed ("A, B  C") to a clean list. */
export function parsePlants(text) {
  return text.split(/[\s,;]+/).map((p) => p.trim()).filter(Boolean);
}

/**
 * `onSwitch(view)` runs after the active (platform) profile changed; `onOpenV3(profile)`
 * reads a V3 server's profile whole and shows it. Resolves to `{reconnected, resume}`:
 * whether the platform profile used last was connected to, and what to call once the
 * platform is on screen (it reads the V3 server's profile used last again).
 */
export async function initProfiles(select, editButton, dialog, onSwitch, onOpenV3) {
  const $ = (id) => document.getElementById(id);
  const status = $('pf-status');
  let saved = [];
  let sessionOnly = []; // names of saved profiles whose secrets live in memory only
  let lastList = null;

  async function refresh() {
    const list = await api.listProfiles();
    lastList = list;
    saved = list.saved;
    sessionOnly = list.session_only;
    select.replaceChildren(new Option(list.builtin, list.builtin), ...saved.map((p) => new Option(p.name, p.name)));
    select.value = list.active;
    select.title = list.active; // cut when long: the tooltip has it whole
    $('pf-list').replaceChildren(...saved.map((p) => new Option(p.name, p.name)));
  }

  /** Shows the fields of the kind and authentication chosen; the others leave the form. */
  function showKind() {
    const kind = $('pf-kind').value;
    const auth = $('pf-v3-auth').value;
    for (const el of dialog.querySelectorAll('[data-kind]')) {
      const shown = fieldShown(el.dataset, kind, auth);
      el.hidden = !shown;
      // A hidden field neither blocks nor joins the form.
      if ('disabled' in el && el.tagName !== 'P') el.disabled = !shown;
    }
  }

  function fill(profile) {
    for (const [field, id] of Object.entries(FIELDS)) $(id).value = profile?.[field] ?? FIELD_DEFAULTS[field] ?? '';
    for (const [field, id] of Object.entries(V3_FIELDS)) $(id).value = profile?.v3?.[field] ?? FIELD_DEFAULTS[field] ?? '';
    $('pf-kind').value = profile?.kind ?? 'platform';
    showKind();
    $('pf-plants').value = (profile?.plants ?? []).join(', ');
    $('pf-transport').textContent = transportNote(profile);
    $('pf-transport').hidden = !$('pf-transport').textContent;
    for (const id of SECRET_FIELDS) $(id).value = '';
    // Only a proxy that wants a user has a password to give.
    for (const el of document.querySelectorAll('.proxy-password')) el.hidden = !profile?.proxy_user;
    showTokenNote();
    showSteps(null);
    $('pf-keychain-missing').hidden = true;
    $('pf-delete-confirm').hidden = true;
    status.textContent = profile && sessionOnly.includes(profile.name)
      ? 'The secrets of this profile are kept for this session only (no keychain).' : '';
    nameChanged();
  }

  function formProfile() {
    const value = (id) => ($(id).disabled ? '' : $(id).value.trim());
    const profile = Object.fromEntries(Object.entries(FIELDS).map(([field, id]) => [field, value(id)]));
    profile.client_auth ||= 'form';
    profile.kind = $('pf-kind').value;
    if (profile.kind === 'v3_server') {
      profile.v3 = Object.fromEntries(Object.entries(V3_FIELDS).map(([field, id]) => [field, value(id)]));
    } else {
      profile.plants = parsePlants($('pf-plants').value);
    }
    return profile;
  }

  function formSecrets() {
    const value = (id) => ($(id).disabled ? '' : $(id).value);
    return {
      clientSecret: value('pf-secret'), userToken: value('pf-user-token'), proxyPassword: $('pf-proxy-password').value,
      bearerToken: value('pf-v3-bearer'), apiKey: value('pf-v3-key'),
    };
  }

  function showTokenNote() {
    const note = userTokenNote($('pf-user-token').value, Date.now() / 1000);
    $('pf-user-token-note').textContent = note.text;
    $('pf-user-token-note').dataset.level = note.level;
  }

  function showSteps(steps) {
    const list = $('pf-test-steps');
    list.hidden = !steps;
    list.replaceChildren(...(steps ?? []).map((step) => {
      const li = document.createElement('li');
      li.dataset.step = step.step;
      li.dataset.status = step.status;
      li.textContent = stepLine(step);
      return li;
    }));
  }

  /** Duplicate and Delete are for a saved profile; the list marks it. */
  function nameChanged() {
    const known = saved.some((p) => p.name === $('pf-name').value);
    $('pf-duplicate').disabled = !known;
    $('pf-delete').disabled = !known;
    $('pf-list').value = known ? $('pf-name').value : '';
  }

  /** Uses the profile `name`: connects to its platform, or reads its V3 server whole. */
  async function connect(name) {
    const profile = saved.find((p) => p.name === name);
    if (isV3(profile)) {
      await onOpenV3(profile);
      await refresh();
      select.value = name;
      select.title = name;
      return;
    }
    const view = await api.useProfile(name);
    await refresh();
    onSwitch(view);
  }

  select.addEventListener('change', async () => {
    try {
      await connect(select.value);
    } catch (e) {
      await refresh();
      alertInStatus(`Cannot use profile ${select.value}: ${e.message}`);
    }
  });
  editButton.addEventListener('click', () => {
    fill(saved.find((p) => p.name === select.value));
    dialog.showModal();
  });
  $('pf-name').addEventListener('change', () => {
    const known = saved.find((p) => p.name === $('pf-name').value);
    if (known) fill(known);
  });
  $('pf-name').addEventListener('input', nameChanged);
  $('pf-list').addEventListener('change', () => fill(saved.find((p) => p.name === $('pf-list').value)));
  $('pf-new').addEventListener('click', () => {
    fill(null);
    status.textContent = 'A new profile: fill in its connection, then Save and connect.';
    $('pf-name').focus();
  });
  $('pf-user-token').addEventListener('input', showTokenNote);
  $('pf-kind').addEventListener('change', showKind);
  $('pf-v3-auth').addEventListener('change', showKind);
  $('pf-test').addEventListener('click', async () => {
    showSteps(null);
    status.textContent = 'Testing…';
    try {
      const steps = await api.testConnection(formProfile(), formSecrets());
      showSteps(steps);
      status.textContent = steps.every((s) => s.status === 'passed') ? '' : 'The connection test found a problem.';
    } catch (e) {
      status.textContent = `Cannot test: ${e.message}`;
    }
  });
  $('pf-duplicate').addEventListener('click', async () => {
    try {
      const copy = await api.duplicateProfile($('pf-name').value);
      await refresh();
      fill(copy);
      status.textContent = `Saved a copy as “${copy.name}”. Change what differs, then save.`;
    } catch (e) {
      status.textContent = `Not duplicated: ${e.message}`;
    }
  });
  $('pf-close').addEventListener('click', () => dialog.close());
  // Delete asks first: the profile's secrets leave the keychain with it, so there is no undo.
  $('pf-delete').addEventListener('click', () => {
    $('pf-delete-question').textContent =
      `Delete the profile “${$('pf-name').value}” and its secrets in the keychain?`;
    $('pf-delete-confirm').hidden = false;
    $('pf-delete-keep').focus(); // the safe choice has the focus
  });
  $('pf-delete-keep').addEventListener('click', () => {
    $('pf-delete-confirm').hidden = true;
    $('pf-delete').focus();
  });
  $('pf-delete-yes').addEventListener('click', async () => {
    const name = $('pf-name').value;
    $('pf-delete-confirm').hidden = true;
    try {
      await api.deleteProfile(name);
      // The profile in use goes: the built-in one takes over.
      if (name === select.value) await connect((await api.listProfiles()).builtin);
      else await refresh();
      dialog.close();
    } catch (e) {
      status.textContent = e.message;
    }
  });
  /** Saves the form and connects; secrets to memory only when the user chose that. */
  async function save(keepForSessionOnly) {
    const profile = formProfile();
    status.textContent = 'Saving…';
    $('pf-keychain-missing').hidden = true;
    try {
      await api.saveProfile(profile, formSecrets(), keepForSessionOnly);
    } catch (e) {
      $('pf-keychain-missing').hidden = e.kind !== 'keychain_unavailable';
      status.textContent = e.kind === 'config' ? `${e.message}` : `Not saved: ${e.message}`;
      // Below a long form: brought above the buttons, which stay in view.
      (e.kind === 'keychain_unavailable' ? $('pf-session-only') : status).scrollIntoView({ block: 'nearest' });
      return;
    }
    for (const id of SECRET_FIELDS) $(id).value = '';
    await refresh();
    // A V3 server is read with its progress in a dialog of its own.
    if (profile.kind === 'v3_server') dialog.close();
    try {
      await connect(profile.name);
      dialog.close();
    } catch (e) {
      const text = `Saved, but not ${profile.kind === 'v3_server' ? 'read' : 'connected'}: ${e.message}`;
      if (dialog.open) status.textContent = text;
      else alertInStatus(text);
    }
  }
  $('profile-form').addEventListener('submit', (event) => {
    event.preventDefault();
    save(false);
  });
  $('pf-session-only').addEventListener('click', () => {
    if ($('profile-form').reportValidity()) save(true);
  });

  function alertInStatus(text) {
    document.getElementById('status-errors').textContent = text;
  }

  await refresh();
  const last = lastList.last;
  const lastV3 = saved.find((p) => p.name === lastList.last_v3 && isV3(p));
  // A V3 server is read again once the platform below it is on screen: `resume`.
  const resume = async () => {
    if (!lastV3) return;
    try {
      await connect(lastV3.name);
    } catch (e) {
      alertInStatus(`Could not read ${lastV3.name} again: ${e.message}`);
    }
  };
  if (last && last !== lastList.active && saved.some((p) => p.name === last && !isV3(p))) {
    try {
      await connect(last);
      return { reconnected: true, resume };
    } catch (e) {
      alertInStatus(`Could not reconnect to ${last}: ${e.message}`);
    }
  }
  return { reconnected: false, resume };
}
