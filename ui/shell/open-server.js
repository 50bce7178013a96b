// Open server…: an AAS V3 server (the Part 2 API) read whole by the app and shown in
// the tree as a file is: read-only, under the file's banner, kept with Take in. The
// bearer token is held in the app's memory while the server is shown (for its
// attachments), never written; the address read last is
// offered next (the app keeps it in the preferences). A V3 server's profile is read in
// the same dialog, with its own credentials (readProfile).

import * as api from '../lib/api.js';
import { plural } from '../lib/format.js';

/** What was read so far (`p`: api.openV3Server's progress): "3 shells, 5 submodels, 2 failures". */
const readSoFar = (p) => `${plural(p.shells, 'shell')}, ${plural(p.submodels, 'submodel')}${p.failures ? `, ${plural(p.failures, 'failure')}` : ''}`;

/** What the dialog says of a reading under way (`p`: api.openV3Server's progress). */
export function progressText(p) {
  return `Reading… ${readSoFar(p)} so far. Stop keeps what was read.`;
}

/** What the banner says of server `name`'s reading once its shells are shown. */
export function bannerReadingText(name, p) {
  return `Reading ${name}: ${readSoFar(p)} so far`;
}

/**
 * `els`: button (Open server…), dialog, form, address, token, status, cancel, open, demo
 * (Try the demo server: shown when the app has its built-in demo, which it reads).
 * `onOpened(opened)` shows the server read (as a file opened), its shells first, marked
 * `reading`, while their submodels are read; `onReading(text)` shows how far that
 * reading has come, with Stop, outside the dialog (null when it ended); `shownFile()` is
 * the number of the file on screen, `onClosed()` shows the plant again; `prefs` (the
 * page's preferences) holds `v3_server`, the address read last. Returns `{readProfile}`.
 */
export function initOpenServer(els, { onOpened, onReading, shownFile, onClosed, prefs }) {
  let readingNow = false;
  const busy = (on) => {
    readingNow = on;
    els.open.disabled = on;
    els.address.disabled = on;
    els.token.disabled = on;
    els.demo.disabled = on;
    els.cancel.textContent = on ? 'Stop' : 'Cancel';
  };
  /**
   * Reads with `read(onProgress)`, the progress in the dialog until every shell is read;
   * then the shells are shown, the dialog closes and the progress goes on below the
   * toolbar (onReading). Shows what was read.
   */
  async function readWith(read) {
    busy(true);
    els.status.textContent = 'Reading…';
    let shellsShown = null; // the server as told once its shells were read
    try {
      const opened = await read((p) => {
        if (p.opened && !shellsShown) {
          shellsShown = p.opened;
          els.dialog.close();
          busy(false); // Stop is the banner's now; the dialog is the dialog again
          onOpened({ ...p.opened, reading: true });
        }
        if (shellsShown && shownFile() !== shellsShown.file) api.cancelJob(); // closed meanwhile: read no further
        else if (shellsShown) onReading(bannerReadingText(shellsShown.name, p));
        else els.status.textContent = progressText(p);
      });
      // The user may have closed the shells, or opened something else, meanwhile.
      if (shellsShown && shownFile() !== shellsShown.file) return opened;
      els.dialog.close();
      await onOpened(opened);
      return opened;
    } catch (err) {
      if (shellsShown) {
        // Not read after all: the shells go, the dialog says why.
        if (shownFile() === shellsShown.file) onClosed();
        if (!els.dialog.open) els.dialog.showModal();
      }
      throw err;
    } finally {
      if (shellsShown) onReading(null);
      busy(false);
    }
  }
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
  els.cancel.addEventListener('click', () => (readingNow ? api.cancelJob() : els.dialog.close()));
  els.dialog.addEventListener('cancel', (e) => {
    if (!readingNow) return;
    e.preventDefault();
    api.cancelJob();
  });
  els.form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (readingNow || !els.form.reportValidity()) return;
    const address = els.address.value.trim();
    try {
      await readWith((onProgress) => api.openV3Server(address, els.token.value, onProgress));
      els.token.value = '';
      // As the app now keeps it (the demo's address it does not).
      if (address !== demoUrl) prefs().v3_server = address;
    } catch (err) {
      els.status.textContent = `Not opened: ${err.message}`;
    }
  });
  return {
    /**
     * Reads the V3 server of the saved `profile` (its credentials stay in the app), in
     * the dialog: its address shown, Stop to end the reading. Rejects when not read.
     */
    async readProfile(profile) {
      // Shown while it reads; what the user typed for Open server… comes back after.
      const typed = els.address.value;
      els.address.value = profile.v3?.address || profile.v3?.registry || '';
      els.token.value = '';
      els.dialog.showModal();
      try {
        await readWith((onProgress) => api.openV3Profile(profile.name, onProgress));
      } catch (err) {
        els.dialog.close();
        throw err;
      } finally {
        els.address.value = typed;
      }
    },
  };
}
