// "Take snapshot" and "Export…", with a progress bar and Cancel. Export writes what is
// ticked in the tree (fetching what is not loaded yet) or, with nothing ticked, the
// snapshot on screen or the plant's latest; then it offers to show the file.

import * as api from './api.js';
import { plural } from './format.js';
import { problemWords, snapshotName, takeSummary } from './snapshot-model.js';

/**
 * `current()` gives `{plant, assetTypes}` to take; `ticked()` gives `{count, plant,
 * assetTypes, picks}` of what is ticked; `snapshotToExport()` the snapshot Export…
 * writes with nothing ticked (or null: none yet); `onTaken(result)` hears of each
 * snapshot taken; `say(text, level)` reports in the status bar (level 'error' unless 'info').
 * `exportFormat` is the format chosen last time (from the preferences, or null); a new
 * choice is stored with `api.setPreference`.
 * Returns `{reset, update}`: reset when what was shown no longer applies (another
 * profile or plant), update when the ticks or the snapshots changed.
 */
export function initTakeAndExport(els, { current, ticked, snapshotToExport, onTaken, say, exportFormat = null }) {
  let running = false;

  if (exportFormat && [...els.format.options].some((o) => o.value === exportFormat)) els.format.value = exportFormat;
  els.format.addEventListener('change', async () => {
    try {
      await api.setPreference({ export_format: els.format.value });
    } catch (e) {
      say(`The export format was not remembered: ${e.message}`);
    }
  });

  /** Runs `work(onProgress)` with the bar shown and, if `cancellable`, Cancel offered. */
  async function withProgress(startText, work, cancellable = true) {
    running = true;
    els.take.disabled = true;
    els.exportButton.disabled = true;
    els.reveal.hidden = true;
    els.progress.hidden = false;
    els.cancel.hidden = !cancellable;
    els.bar.hidden = !cancellable; // work without progress messages gets no bar
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
      running = false;
      els.take.disabled = false;
      els.cancel.hidden = true;
      update();
    }
  }

  // A bar stopped halfway would look like work still going on: a failure hides it.
  function fail(text) {
    els.bar.hidden = true;
    els.text.textContent = text;
    say(text);
  }

  els.take.addEventListener('click', async () => {
    const { plant, assetTypes } = current();
    try {
      const result = await withProgress('Starting…', (onProgress) => api.takeSnapshot(plant, assetTypes, onProgress));
      els.text.textContent = takeSummary(result);
      say([...result.failures, ...(result.unreadable ?? [])].slice(0, 3).join('; '));
      onTaken(result);
    } catch (e) {
      fail(`No snapshot taken: ${problemWords(e)}`);
    }
  });
  els.cancel.addEventListener('click', () => api.cancelJob());

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
        const snapshot = snapshotToExport();
        path = await withProgress('Choose where to save…', () => api.exportSnapshot(selection.plant, snapshot.id, format), false);
        els.text.textContent = path ? `Exported ${snapshotName(snapshot)}` : 'Export cancelled: nothing was written';
      }
      if (path) {
        say(`Saved ${path}`, 'info');
        els.reveal.hidden = false;
        els.progress.hidden = false;
      }
    } catch (e) {
      fail(`Export failed: ${problemWords(e)}`);
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
    const snapshot = snapshotToExport();
    els.exportButton.disabled = running || (count === 0 && !snapshot);
    els.exportButton.textContent = count > 0 ? `Export ${plural(count, 'shell')}…` : 'Export…';
    els.exportButton.title = count > 0
      ? 'Save the ticked shells and submodels (what is not loaded yet is fetched first)'
      : snapshot ? `Save ${snapshotName(snapshot)}` : 'Tick shells or submodels in the tree, or take a snapshot of the plant';
  }

  function reset() {
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
