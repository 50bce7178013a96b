// The profile picker and the profile form. Secrets typed here go straight to the Rust
// side (and on to the OS keychain); they are never kept in the page or its storage.

import * as api from './api.js';

const FIELDS = {
  name: 'pf-name', registry_url: 'pf-registry', gateway_url: 'pf-gateway', auth_url: 'pf-auth',
  realm: 'pf-realm', client_id: 'pf-client-id', client_auth: 'pf-client-auth',
};

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
  let lastList = null;

  async function refresh() {
    const list = await api.listProfiles();
    lastList = list;
    saved = list.saved;
    select.replaceChildren(new Option(list.builtin, list.builtin), ...saved.map((p) => new Option(p.name, p.name)));
    select.value = list.active;
    $('pf-names').replaceChildren(...saved.map((p) => new Option(p.name)));
  }

  function fill(profile) {
    for (const [field, id] of Object.entries(FIELDS)) $(id).value = profile?.[field] ?? (field === 'client_auth' ? 'form' : '');
    $('pf-plants').value = (profile?.plants ?? []).join(', ');
    $('pf-secret').value = '';
    $('pf-user-token').value = '';
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
    status.textContent = '';
    dialog.showModal();
  });
  $('pf-name').addEventListener('change', () => {
    const known = saved.find((p) => p.name === $('pf-name').value);
    if (known) fill(known);
  });
  $('pf-close').addEventListener('click', () => dialog.close());
  $('pf-delete').addEventListener('click', async () => {
    try {
      await api.deleteProfile($('pf-name').value);
      await connect((await api.listProfiles()).builtin);
      dialog.close();
    } catch (e) {
      status.textContent = e.message;
    }
  });
  $('profile-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const profile = Object.fromEntries(Object.entries(FIELDS).map(([field, id]) => [field, $(id).value.trim()]));
    profile.plants = parsePlants($('pf-plants').value);
    status.textContent = 'Saving…';
    try {
      await api.saveProfile(profile, $('pf-secret').value, $('pf-user-token').value);
      $('pf-secret').value = '';
      $('pf-user-token').value = '';
      await connect(profile.name);
      dialog.close();
    } catch (e) {
      status.textContent = e.kind === 'config' ? `${e.message}` : `Not saved: ${e.message}`;
    }
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
