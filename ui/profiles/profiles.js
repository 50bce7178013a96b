// The profile picker and the Profiles dialog: the saved profiles listed, the form of the
// one picked (or of a new one), Delete after a confirmation. Secrets typed here go
// straight to the Rust side (and on to the OS keychain); never kept in the page or its storage.

import * as api from '../lib/api.js';
import { userTokenNote } from '../lib/jwt.js';

const FIELDS = {
  name: 'pf-name', registry_url: 'pf-registry', gateway_url: 'pf-gateway', auth_url: 'pf-auth',
  realm: 'pf-realm', client_id: 'pf-client-id', client_auth: 'pf-client-auth',
};

const STEP_NAMES = { token: 'Access token', registry: 'Registry', gateway: 'Gateway' };
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
 * `onSwitch(view)` runs after the active profile changed. Resolves to the profile used
 * last time (or null), for the caller to reconnect to.
 */
export async function initProfiles(select, editButton, dialog, onSwitch) {
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

  function fill(profile) {
    for (const [field, id] of Object.entries(FIELDS)) $(id).value = profile?.[field] ?? (field === 'client_auth' ? 'form' : '');
    $('pf-plants').value = (profile?.plants ?? []).join(', ');
    $('pf-transport').textContent = transportNote(profile);
    $('pf-transport').hidden = !$('pf-transport').textContent;
    $('pf-secret').value = '';
    $('pf-user-token').value = '';
    $('pf-proxy-password').value = '';
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
    const profile = Object.fromEntries(Object.entries(FIELDS).map(([field, id]) => [field, $(id).value.trim()]));
    profile.plants = parsePlants($('pf-plants').value);
    return profile;
  }

  function formSecrets() {
    return {
      clientSecret: $('pf-secret').value, userToken: $('pf-user-token').value, proxyPassword: $('pf-proxy-password').value,
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

  async function connect(name) {
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
      `Delete the profile “${$('pf-name').value}” and its client secret and user token in the keychain?`;
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
      for (const id of ['pf-secret', 'pf-user-token', 'pf-proxy-password']) $(id).value = '';
      await connect(profile.name);
      dialog.close();
    } catch (e) {
      $('pf-keychain-missing').hidden = e.kind !== 'keychain_unavailable';
      status.textContent = e.kind === 'config' ? `${e.message}` : `Not saved: ${e.message}`;
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
  if (last && last !== lastList.active && saved.some((p) => p.name === last)) {
    try {
      await connect(last);
      return true;
    } catch (e) {
      alertInStatus(`Could not reconnect to ${last}: ${e.message}`);
    }
  }
  return false;
}
