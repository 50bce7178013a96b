// "Load everything" and "Export…", both with a progress bar and Cancel. Export writes
// what is ticked in the tree (fetching what is not loaded yet) or, with nothing
// ticked, what "Load everything" loaded; then it offers to show the file.

import * as api from './api.js';
import { plural } from './format.js';

/**
 * `current()` gives `{plant, assetTypes}` to load; `ticked()` gives `{count, plant,
 * assetTypes, picks}` of what is ticked; `say(text, level)` reports in the status bar
 * (level 'error' unless 'info').
 * `exportFormat` is the format chosen last time (from the preferences, or null); a new
 * choice is stored with `api.setPreference`.
 * Returns `{reset, update}`: reset when what was loaded no longer applies (another
 * profile or plant), update when the ticks changed.
 */
export function initLoading(els, { current, ticked, say, exportFormat = null }) {
  let loaded = false;

  if (exportFormat && [...els.format.options].some((o) => o.value === exportFormat)) els.format.value = exportFormat;
  els.format.addEventListener('change', async () => {
    try {
      await api.setPreference({ export_format: els.format.value });
    } catch (e) {
      say(`The export format was not remembered: ${e.message}`);
    }
  });

  /** Runs `work(onProgress)` with the bar shown and Cancel offered. */
  async function withProgress(startText, work) {
    els.loadAll.disabled = true;
    els.exportButton.disabled = true;
    els.reveal.hidden = true;
    els.progress.hidden = false;
    els.cancel.hidden = false;
    els.bar.removeAttribute('value'); // indeterminate until the first answer
    els.text.textContent = startText;
    // Tauri does not order channel messages against the command's answer: a progress
    // message may arrive after the summary and must not overwrite it.
    let finished = false;
    try {
      return await work((p) => {
        if (finished) return;
        els.bar.max = Math.max(p.requests_known, 1);
        els.bar.value = p.requests_done;
        els.text.textContent = progressText(p);
      });
    } finally {
      finished = true;
      els.loadAll.disabled = false;
      els.cancel.hidden = true;
      update();
    }
  }

  els.loadAll.addEventListener('click', async () => {
    const { plant, assetTypes } = current();
    try {
      const summary = await withProgress('Starting…', (onProgress) => api.loadEverything(plant, assetTypes, onProgress));
      els.text.textContent = summaryText(summary);
      loaded = !summary.cancelled || summary.requests > 0;
      say(summary.failures.length ? summary.failures.slice(0, 3).join('; ') : '');
    } catch (e) {
      els.text.textContent = `Loading failed: ${e.message}`;
    }
    update();
  });
  els.cancel.addEventListener('click', () => api.cancelLoading());

  els.exportButton.addEventListener('click', async () => {
    const format = els.format.value;
    const selection = ticked();
    try {
      let path;
      if (selection.count > 0) {
        const done = await withProgress('Choose where to save…', (onProgress) =>
          api.exportSelection({ ...selection, format }, onProgress));
        path = done.path;
        els.text.textContent = done.path
          ? `Exported ${plural(selection.count, 'shell')} (${plural(done.loaded.requests, 'request')})`
          : 'Export cancelled: nothing was written';
        if (done.loaded.failures.length) say(`Not exported: ${done.loaded.failures.slice(0, 3).join('; ')}`);
      } else {
        path = await api.exportLoaded(format);
      }
      if (path) {
        say(`Saved ${path}`, 'info');
        els.reveal.hidden = false;
        els.progress.hidden = false;
      }
    } catch (e) {
      say(`Export failed: ${e.message}`);
      els.text.textContent = `Export failed: ${e.message}`;
    }
  });
  els.reveal.addEventListener('click', async () => {
    try {
      await api.revealExport();
    } catch (e) {
      say(e.message);
    }
  });

  function update() {
    const count = ticked().count;
    els.exportButton.disabled = count === 0 && !loaded;
    els.exportButton.textContent = count > 0 ? `Export ${plural(count, 'shell')}…` : 'Export…';
    els.exportButton.title = count > 0
      ? 'Save the ticked shells and submodels (what is not loaded yet is fetched first)'
      : loaded ? 'Save what Load everything loaded' : 'Tick shells or submodels in the tree, or use Load everything';
  }

  function reset() {
    loaded = false;
    els.progress.hidden = true;
    els.reveal.hidden = true;
    update();
  }
  reset();
  return { reset, update };
}

export function progressText(p) {
  const mb = (p.bytes / 1e6).toFixed(1);
  const failed = p.failures ? `, ${p.failures} failed` : '';
  const offline = p.offline ? ' — the server does not answer; waiting for it' : '';
  return `${p.requests_done}/${p.requests_known} requests, ${mb} MB${failed}${offline}`;
}

export function summaryText(s) {
  const what = s.cancelled ? 'Cancelled after' : 'Loaded with';
  const failed = s.failures.length ? `; ${plural(s.failures.length, 'node')} failed` : '';
  return `${what} ${plural(s.requests, 'request')}${failed}`;
}
