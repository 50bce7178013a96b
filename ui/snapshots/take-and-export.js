// "Take snapshot", "Export…" and "Convert a file…", with a progress bar and Cancel.
// Export writes what is ticked in the tree (fetching what is not loaded yet) or, with
// nothing ticked, the snapshot on screen or the plant's latest; Convert writes an AAS
// file the user picks in the version and kind chosen in its dialog. Then each offers to
// show the file written and, for a V3 file, the conversion's report.

import * as api from '../lib/api.js';
import { plural } from '../lib/format.js';
import { convertedText } from './export-formats.js';
import { problemWords, snapshotName, takeSummary } from './snapshot-model.js';

/**
 * `current()` gives `{plant, assetTypes}` to take; `ticked()` gives `{count, plant,
 * assetTypes, picks}` of what is ticked; `snapshotToExport()` the snapshot Export…
 * writes with nothing ticked (or null: none yet); `onTaken(result)` hears of each
 * snapshot taken; `say(text, level)` reports in the status bar (level 'error' unless 'info').
 * `exportFormat()` is the format chosen last under the profile shown (or null), which
 * Export… offers on each reset; `onFormatChosen(format)` hears of a new choice.
 * Returns `{reset, update}`: reset when what was shown no longer applies (another
 * profile or plant), update when the ticks or the snapshots changed.
 */
export function initTakeAndExport(els, { current, ticked, snapshotToExport, onTaken, say, exportFormat = () => null, onFormatChosen = () => {} }) {
  let running = false; // one job at a time: the Rust side refuses a second one as busy

  // The choice is cut in a narrow window: its tooltip names it whole.
  const nameFormat = () => { els.format.title = els.format.selectedOptions?.[0]?.text ?? ''; };
  /** Offers the format chosen last under the profile shown. */
  function offerFormat() {
    const remembered = exportFormat();
    if (remembered && [...els.format.options].some((o) => o.value === remembered)) els.format.value = remembered;
    nameFormat();
  }
  els.format.addEventListener('change', async () => {
    nameFormat();
    try {
      await onFormatChosen(els.format.value);
    } catch (e) {
      say(`The export format was not remembered: ${e.message}`);
    }
  });

  /** Runs `work(onProgress)` with the bar shown and, if `cancellable`, Cancel offered. */
  async function withProgress(startText, work, cancellable = true) {
    running = true;
    els.take.disabled = true;
    els.exportButton.disabled = true;
    els.convert.disabled = true;
    els.reveal.hidden = true;
    els.note.hidden = true;
    els.report.hidden = true;
    els.progress.hidden = false;
    els.cancel.hidden = !cancellable;
    els.bar.hidden = !cancellable; // work without progress messages gets no bar
    els.bar.removeAttribute('value'); // indeterminate until the first answer
    tell(startText);
    // Tauri does not order channel messages against the command's answer: a progress
    // message may arrive after the summary and must not overwrite it.
    let finished = false;
    try {
      return await work((p) => {
        if (finished) return;
        els.bar.max = Math.max(p.requests_known, 1);
        els.bar.value = p.requests_done;
        tell(progressText(p));
      });
    } finally {
      finished = true;
      running = false;
      els.take.disabled = false;
      els.cancel.hidden = true;
      // Done or failed, the bar says nothing more (one stopped halfway would look like work
      // still going on): the line gets its room.
      els.bar.hidden = true;
      update();
    }
  }

  // The line is cut to the room beside the controls: its tooltip has it whole.
  function tell(text) {
    els.text.textContent = text;
    els.text.title = text;
  }

  function fail(text) {
    tell(text);
    say(text);
  }

  els.take.addEventListener('click', async () => {
    const { plant, assetTypes } = current();
    try {
      const result = await withProgress('Starting…', (onProgress) => api.takeSnapshot(plant, assetTypes, onProgress));
      tell(takeSummary(result));
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
      // `saved`: {path, conversion} of the file written, null when the save dialog was cancelled.
      let saved;
      let head;
      if (selection.count > 0) {
        const done = await withProgress('Choose where to save…', (onProgress) =>
          api.exportSelection({ ...selection, format }, onProgress));
        saved = done.path ? done : null;
        head = `Exported ${plural(selection.count, 'shell')} (${plural(done.loaded.requests, 'request')})`;
        if (done.loaded.failures.length) say(`Not exported: ${done.loaded.failures.slice(0, 3).join('; ')}`);
      } else {
        const snapshot = snapshotToExport();
        saved = await withProgress('Choose where to save…', () => api.exportSnapshot(selection.plant, snapshot, format), false);
        head = `Exported ${snapshotName(snapshot)}`;
      }
      tell(saved ? head : 'Export cancelled: nothing was written');
      if (saved) offerSaved(saved);
    } catch (e) {
      fail(`Export failed: ${problemWords(e)}`);
    }
  });

  // Convert a file…: the version and kind are chosen first, then the file and where.
  els.convert.addEventListener('click', () => els.convertDialog.showModal());
  els.convertCancel.addEventListener('click', () => els.convertDialog.close());
  els.convertForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    const chosen = els.convertForm.elements;
    const to = { target: chosen['convert-target'].value, kind: chosen['convert-kind'].value };
    els.convertDialog.close();
    try {
      const saved = await withProgress('Choose the file, then where to save…', () => api.convertFile(to), false);
      if (!saved) {
        els.progress.hidden = true; // cancelled: nothing to say
        return;
      }
      tell(convertedText(saved));
      offerSaved(saved);
    } catch (e) {
      fail(`Conversion failed: ${problemWords(e)}`);
    }
  });

  /**
   * After a file was written (`{path, conversion}`): says where, shows the conversion's
   * line of a V3 file (what changed, where the report is) and offers its report, and
   * the folder.
   */
  function offerSaved({ path, conversion }) {
    say(`Saved ${path}`, 'info');
    els.note.textContent = conversion ?? '';
    els.note.title = conversion ?? '';
    els.note.hidden = !conversion;
    els.report.hidden = !conversion;
    els.reveal.hidden = false;
    els.progress.hidden = false;
  }

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
    els.convert.disabled = running;
    els.exportButton.textContent = count > 0 ? `Export ${plural(count, 'shell')}…` : 'Export…';
    els.exportButton.title = count > 0
      ? 'Save the ticked shells and submodels (what is not loaded yet is fetched first)'
      : snapshot ? `Save ${snapshotName(snapshot)}` : 'Tick shells or submodels in the tree, or take a snapshot of the plant';
  }

  function reset() {
    offerFormat();
    els.progress.hidden = true;
    els.reveal.hidden = true;
    els.note.hidden = true;
    els.report.hidden = true;
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
