// Open file… (Ctrl+O), a file dropped on the window or the one the app was started with:
// an AAS file (AASX, or an environment as JSON or XML, AAS V2.0 to V3.1) read by the app
// and shown in the tree, read-only, under a banner that names it and closes it. The page
// never sees the file's path: the app asks for it, or the system hands it over.

import * as api from '../lib/api.js';
import { plural } from '../lib/format.js';

/** How a part of a file is written: "AAS V3.1 XML" (V3 JSON names no version: "AAS V3 JSON"). */
const written = (part) => `AAS V${part.version} ${part.serialisation.toUpperCase()}`;

/** What the banner says of `opened` (api.openAasFile's answer; `taken`: its snapshot once taken in). */
export function fileBannerText(opened) {
  const holds = `${plural(opened.shells, 'shell')}, ${plural(opened.submodels, 'submodel')}`;
  const taken = opened.taken ? ` Taken in as snapshot ${opened.taken.id}: search, Changes, Table and Quality read it.` : '';
  // Its shells, shown while their submodels are read (`reading`: the page's own mark).
  if (opened.kind === 'v3_server' && opened.reading) return `V3 server ${opened.name}: ${plural(opened.shells, 'shell')}, their submodels being read. Read-only.`;
  if (opened.kind === 'v3_server') {
    const failures = opened.failures ?? [];
    const partial = opened.complete ? '' : ` Partial: ${failures.length ? failures.join('; ') : 'the reading was stopped'}.`;
    return `V3 server ${opened.name}: ${holds}, as read now. Read-only.${partial}${taken}`;
  }
  if (opened.complete === false) return `File ${opened.name}: ${plural(opened.shells, 'shell')}, its submodels being read. Read-only.`;
  const kinds = [...new Set(opened.parts.map(written))].join(', ');
  return `File ${opened.name}${kinds ? ` (${kinds})` : ''}: ${holds}. Read-only.${unknownText(opened)}${taken}`;
}

/** The properties a newer writer added, which the file keeps and the metamodel lacks. */
function unknownText({ unknown = [], unknown_count: count = 0 }) {
  if (!count) return '';
  const more = count > unknown.length ? ` and ${count - unknown.length} more` : '';
  return ` ${plural(count, 'property', 'properties')} no AAS version known here has (a newer writer's?), kept as read in Raw JSON: ${unknown.join(', ')}${more}.`;
}

/**
 * What the banner says while `p` (api.onFileReading's news) is read: "Opening x.aasx: 12% read"
 * (of the file and of its parts as they inflate, which its size in MB would not say).
 */
export function readingText(p) {
  return `Opening ${p.name}: ${Math.floor((100 * p.read) / Math.max(p.size, 1))}% read`;
}

/**
 * `els`: button (Open file…), recent (the Recent files button), recentMenu (its list),
 * banner, thumbnail (the package's picture), text, takeIn (Take in), close (Close file),
 * readingBar, readingText, readingCancel (the banner's while a file is being opened).
 * `onOpened(opened)` shows a file read; `onTakeIn()` takes the file shown into the store;
 * `onClosed()` shows the plant again; `say(text)` tells why a file did not open.
 * Returns `{show(opened), openAtStart(), serverReading(text, stop)}`: `show` names
 * `opened` in the banner (null hides it); `openAtStart` shows the file the app was started
 * with, if any; `serverReading` shows a V3 server's reading in the banner.
 */
export function initOpenFile(els, { onOpened, onTakeIn, onClosed, say }) {
  // The number of the file whose shells are shown while the rest of it is read, if
  // one is, and the highest number whose reading has ended (its news may come late).
  let shellsShown = null;
  let settled = 0;
  // A file whose shells were shown, taken off screen before its reading ended: it stays off.
  let left = null;
  /** Says why a file was not opened: cancelled by the user, or what failed. */
  const notOpened = (e) => (e.kind === 'interrupted'
    ? say('Opening cancelled: the file was not opened.', 'info')
    : say(`The file was not opened: ${e.message}`));
  const opened = (file) => {
    settled = Math.max(settled, file.file);
    if (shellsShown === file.file) shellsShown = null;
    if (file.file === left) return null;
    return onOpened(file);
  };
  const open = async () => {
    if (els.button.disabled) return; // one dialog at a time
    els.button.disabled = true;
    try {
      const file = await api.openAasFile();
      if (file) await opened(file);
    } catch (e) {
      notOpened(e);
    } finally {
      els.button.disabled = false;
    }
  };
  els.button.addEventListener('click', open);
  initRecentFiles(els, { onOpened: opened, notOpened, say });
  document.addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'o') return;
    e.preventDefault(); // the webview's own Open would show the file as a page
    open();
  });
  els.close.addEventListener('click', onClosed);
  els.takeIn.addEventListener('click', async () => {
    els.takeIn.disabled = true; // one take at a time
    try {
      await onTakeIn();
    } finally {
      els.takeIn.disabled = false;
    }
  });
  api.onFileDropped((dropped) => {
    if (dropped.error) notOpened(dropped.error);
    else opened(dropped.opened);
  });
  // A reading that takes longer than a glance has the banner show how far it has come,
  // with Cancel; at its end the banner is as it was (or shows the file opened).
  let fileShown = null; // the number of the file shown
  // What Cancel stops: a file's reading, or a V3 server's (whose shells are shown).
  let cancelReading = () => api.cancelFileReading();
  const cancelTitle = els.readingCancel.title;
  const reading = (on) => {
    els.banner.classList.toggle('reading', on);
    document.body.classList.toggle('file-reading', on);
    // Its line changes a few times a second: a screen reader hears the status bar's words instead.
    els.banner.setAttribute('aria-busy', String(on));
    // Cancel goes with the progress: the focus moves to Open file…
    if (!on && document.activeElement === els.readingCancel) els.button.focus();
  };
  api.onFileReading((p) => {
    // Its shells, read before the rest: shown at once (unless the reading has ended).
    if (p.opened && p.file > settled) {
      shellsShown = p.file;
      onOpened(p.opened);
    }
    reading(!p.done);
    if (p.done) {
      settled = Math.max(settled, p.file);
      // Not read after all: the shells shown go, the plant comes back.
      if (p.failed && shellsShown === p.file) {
        shellsShown = null;
        onClosed();
      }
      els.banner.hidden = fileShown === null;
      return;
    }
    els.banner.hidden = false;
    els.readingBar.max = Math.max(p.size, 1);
    els.readingBar.value = p.read;
    els.readingText.textContent = readingText(p);
  });
  els.readingCancel.addEventListener('click', () => cancelReading());
  return {
    /**
     * Shows a V3 server's reading in the banner, its shells shown: `text` says how far it
     * has come, Stop (`stop()`) ends it keeping what was read; null when it has ended.
     */
    serverReading(text, stop) {
      reading(Boolean(text));
      // One reading in the banner at a time: a file is opened once the server is read.
      els.button.disabled = Boolean(text);
      els.recent.disabled = Boolean(text);
      if (!text) {
        cancelReading = () => api.cancelFileReading();
        els.readingCancel.textContent = 'Cancel';
        els.readingCancel.title = cancelTitle;
        return;
      }
      cancelReading = stop;
      els.readingCancel.textContent = 'Stop';
      els.readingCancel.title = 'Stop reading the server: what was read is shown';
      els.readingBar.removeAttribute('value'); // how much is left, the server does not say
      els.readingText.textContent = text;
    },
    show(opened) {
      // A file whose shells are shown while the rest is read, taken off screen: read no further.
      if (!opened && shellsShown !== null) {
        left = shellsShown;
        shellsShown = null;
        cancelReading();
      }
      fileShown = opened?.file ?? null;
      els.banner.hidden = !opened;
      els.takeIn.hidden = !opened || Boolean(opened.taken);
      els.thumbnail.hidden = !opened?.thumbnail;
      if (opened?.thumbnail) els.thumbnail.src = opened.thumbnail;
      else els.thumbnail.removeAttribute('src');
      els.thumbnail.alt = opened?.thumbnail ? `Thumbnail of ${opened.name}` : '';
      if (opened) {
        els.text.textContent = fileBannerText(opened);
        els.close.textContent = opened.kind === 'v3_server' ? 'Close server' : 'Close file';
      }
    },
    async openAtStart() {
      try {
        const file = await api.openStartFile();
        if (file) await opened(file);
      } catch (e) {
        notOpened(e);
      }
    },
  };
}

/**
 * Recent files: a menu of the files opened last, asked of the app each time it opens; a
 * file is opened by its place in the list (the page never names a path to open).
 * Arrow keys move, Enter opens, Escape or a click elsewhere closes.
 */
function initRecentFiles(els, { onOpened, notOpened, say }) {
  const items = () => [...els.recentMenu.querySelectorAll('button')];
  const close = (refocus = false) => {
    els.recentMenu.hidden = true;
    els.recent.setAttribute('aria-expanded', 'false');
    if (refocus) els.recent.focus();
  };
  const item = (text, title, onClick) => {
    const li = document.createElement('li');
    li.setAttribute('role', 'none');
    const button = document.createElement('button');
    button.type = 'button';
    button.setAttribute('role', 'menuitem');
    button.textContent = text;
    button.title = title;
    button.addEventListener('click', onClick);
    li.append(button);
    return li;
  };
  const openAt = async (index, name) => {
    close();
    try {
      await onOpened(await api.openRecentFile(index, name));
    } catch (e) {
      notOpened(e);
    }
  };
  els.recent.addEventListener('click', async () => {
    if (!els.recentMenu.hidden) return close();
    let files = [];
    try {
      files = await api.recentFiles();
    } catch (e) {
      say(`The recent files cannot be listed: ${e.message}`);
    }
    const none = document.createElement('li');
    none.className = 'hint';
    none.setAttribute('role', 'menuitem');
    none.setAttribute('aria-disabled', 'true');
    none.textContent = 'No file opened yet: Open file… (Ctrl+O)';
    els.recentMenu.replaceChildren(...(files.length
      ? files.map((f, i) => item(f.name, f.path, () => openAt(i, f.name)))
      : [none]));
    els.recentMenu.hidden = false;
    els.recent.setAttribute('aria-expanded', 'true');
    items()[0]?.focus();
  });
  // On the button or in the menu: Escape closes, the arrows move.
  els.recent.parentElement.addEventListener('keydown', (e) => {
    if (els.recentMenu.hidden) return;
    const all = items();
    const at = all.indexOf(document.activeElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      // From the button: the first item down, the last up.
      const next = at < 0 ? (step > 0 ? 0 : all.length - 1) : (at + step + all.length) % all.length;
      all[next]?.focus();
    }
  });
  document.addEventListener('click', (e) => {
    if (!els.recentMenu.hidden && !els.recent.parentElement.contains(e.target)) close();
  });
  // Tab out of the menu closes it.
  els.recent.parentElement.addEventListener('focusout', (e) => {
    if (!els.recentMenu.hidden && !els.recent.parentElement.contains(e.relatedTarget)) close();
  });
}
