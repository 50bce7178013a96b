// "Load everything" with a progress bar and Cancel, and the export of what it loaded.

import * as api from './api.js';
import { plural } from './format.js';

/**
 * `current()` gives `{plant, assetTypes}` to load; `say(text)` reports in the status bar.
 * Returns `reset()`, for when what was loaded no longer applies (another profile).
 */
export function initLoading(els, current, say) {
  els.loadAll.addEventListener('click', async () => {
    const { plant, assetTypes } = current();
    els.loadAll.disabled = true;
    els.progress.hidden = false;
    els.cancel.hidden = false;
    els.bar.removeAttribute('value'); // indeterminate until the first answer
    els.text.textContent = 'Starting…';
    try {
      const summary = await api.loadEverything(plant, assetTypes, (p) => {
        els.bar.max = Math.max(p.requests_known, 1);
        els.bar.value = p.requests_done;
        els.text.textContent = progressText(p);
      });
      els.text.textContent = summaryText(summary);
      els.exportButton.disabled = false;
      els.exportButton.title = 'Save what was loaded';
      say(summary.failures.length ? summary.failures.slice(0, 3).join('; ') : '');
    } catch (e) {
      els.text.textContent = `Loading failed: ${e.message}`;
    } finally {
      els.loadAll.disabled = false;
      els.cancel.hidden = true;
    }
  });
  els.cancel.addEventListener('click', () => api.cancelLoading());
  const reset = () => {
    els.progress.hidden = true;
    els.exportButton.disabled = true;
    els.exportButton.title = 'Load everything first';
  };
  els.exportButton.addEventListener('click', async () => {
    try {
      const path = await api.exportLoaded(els.format.value);
      if (path) say(`Saved ${path}`);
    } catch (e) {
      say(`Export failed: ${e.message}`);
    }
  });
  return reset;
}

export function progressText(p) {
  const mb = (p.bytes / 1e6).toFixed(1);
  const failed = p.failures ? `, ${p.failures} failed` : '';
  return `${p.requests_done}/${p.requests_known} requests, ${mb} MB${failed}`;
}

export function summaryText(s) {
  const what = s.cancelled ? 'Cancelled after' : 'Loaded with';
  const failed = s.failures.length ? `; ${plural(s.failures.length, 'node')} failed` : '';
  return `${what} ${plural(s.requests, 'request')}${failed}`;
}
