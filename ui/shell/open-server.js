// Open server…: an AAS V3 server (the Part 2 API) read whole by the app and shown in
// the tree as a file is: read-only, under the file's banner, kept with Take in. The
// bearer token is sent for this one reading and never kept; the address read last is
// offered next (the app keeps it in the preferences).

import * as api from '../lib/api.js';
import { plural } from '../lib/format.js';

/** What the dialog says of a reading under way (`p`: api.openV3Server's progress). */
export function progressText(p) {
  const failed = p.failures ? `, ${plural(p.failures, 'failure')}` : '';
  return `Reading… ${plural(p.shells, 'shell')}, ${plural(p.submodels, 'submodel')}${failed} so far. Stop keeps what was read.`;
}

/**
 * `els`: button (Open server…), dialog, form, address, token, status, cancel, open, demo
 * (Try the demo server: shown when the app has its built-in demo, which it reads).
 * `onOpened(opened)` shows the server read (as a file opened); `prefs` (the page's
 * preferences) holds `v3_server`, the address read last.
 */
export function initOpenServer(els, { onOpened, prefs }) {
  let reading = false;
  const busy = (on) => {
    reading = on;
    els.open.disabled = on;
    els.address.disabled = on;
    els.token.disabled = on;
    els.demo.disabled = on;
    els.cancel.textContent = on ? 'Stop' : 'Cancel';
  };
  // The demo's address is fresh every start: asked for, not remembered.
  let demoUrl = null;
  api.demoV3Server().then((url) => {
    demoUrl = url;
    els.demo.hidden = !url;
  }, () => {});
  els.demo.addEventListener('click', () => {
    els.address.value = demoUrl;
    els.token.value = '';
    els.form.requestSubmit();
  });
  els.button.addEventListener('click', () => {
    els.status.textContent = '';
    if (!els.address.value && prefs().v3_server) els.address.value = prefs().v3_server;
    els.dialog.showModal();
    els.address.focus();
  });
  // While reading, Cancel and Escape stop the reading (what was read is shown); else
  // they close the dialog.
  els.cancel.addEventListener('click', () => (reading ? api.cancelJob() : els.dialog.close()));
  els.dialog.addEventListener('cancel', (e) => {
    if (!reading) return;
    e.preventDefault();
    api.cancelJob();
  });
  els.form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (reading || !els.form.reportValidity()) return;
    busy(true);
    els.status.textContent = 'Reading…';
    try {
      const opened = await api.openV3Server(els.address.value.trim(), els.token.value, (p) => {
        els.status.textContent = progressText(p);
      });
      els.token.value = '';
      // As the app now keeps it (the demo's address it does not).
      if (els.address.value.trim() !== demoUrl) prefs().v3_server = els.address.value.trim();
      els.dialog.close();
      await onOpened(opened);
    } catch (err) {
      els.status.textContent = `Not opened: ${err.message}`;
    } finally {
      busy(false);
    }
  });
}
