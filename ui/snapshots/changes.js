// The Changes tab: what changed between two snapshots of the plant (the latest two
// unless others are picked), filtered by kind, old → new values, exported as CSV or
// JSON. Comparing shows the newer snapshot in the tree with its changes marked.

import * as api from '../lib/api.js';
import { plural } from '../lib/format.js';
import { KINDS, changeCells, countByKind, openTarget, shownChanges } from './changes-model.js';
import {
  formatTakenAt, pickerLabels, placeName, problemWords, sameSnapshot, snapshotKey, snapshotName,
} from './snapshot-model.js';

/**
 * `els`: old, new (the two selects), compare, kinds (the filter buttons' group),
 * exportCsv, exportJson, status, warnings, rows (the tbody), more. `plant()` is the
 * plant shown, `snapshots()` its snapshots (newest first), `onCompared(result)` shows
 * the newer snapshot marked, `open(location)` shows a node in the tree, `showTab()`
 * brings this tab forward. Returns `{compare, refreshChoices, clear, dropped}`.
 */
export function initChanges(els, { plant, snapshots, onCompared, open, showTab }) {
  let result = null; // the comparison on screen
  /** A side of the comparison on screen, with the store both are in. */
  const placed = (side) => ({ ...side, store: result.store });
  const kinds = new Set(KINDS);

  function refreshChoices() {
    const list = snapshots();
    const complete = list.filter((s) => s.complete);
    // The pair on screen stays chosen; without one, the latest two complete snapshots.
    const labels = pickerLabels(list);
    // Where each lives is said once both stores are in the list (two stores are not compared).
    const places = new Set(list.map(placeName)).size > 1;
    const [old, newer] = result ? [placed(result.old), placed(result.new)] : [complete[1], complete[0]];
    for (const [select, chosen] of [[els.old, old], [els.new, newer]]) {
      select.replaceChildren(...list.map((s, i) => new Option(places ? `${labels[i]} · ${placeName(s)}` : labels[i], snapshotKey(s))));
      select.value = chosen ? snapshotKey(chosen) : '';
    }
    els.compare.disabled = list.length < 2;
    if (!result) {
      els.status.textContent = list.length < 2
        ? 'Changes compare two snapshots of the plant: take one now and another later (Take snapshot).'
        : 'Pick two snapshots (the latest two are chosen) and press Compare.';
    }
  }

  /** Compares snapshots `old` and `newer`, two of one store (both null: the latest two complete). */
  async function compare(old, newer) {
    showTab();
    els.status.textContent = 'Comparing…';
    try {
      result = await api.snapshotChanges(plant(), old, newer);
    } catch (e) {
      clear();
      els.status.textContent = problemWords(e);
      return;
    }
    refreshChoices();
    render();
    onCompared(result);
  }

  function render() {
    const counts = countByKind(result.changes);
    for (const button of els.kinds.querySelectorAll('button')) {
      button.setAttribute('aria-pressed', String(kinds.has(button.dataset.kind)));
      button.querySelector('.count').textContent = String(counts[button.dataset.kind]);
    }
    const between = `from ${snapshotName(result.old)} to ${formatTakenAt(result.new.taken_at)}`;
    els.status.textContent = result.changes.length === 0
      ? `No changes ${between}`
      : `${plural(result.changes.length, 'change')} ${between}: ${KINDS.map((k) => `${counts[k]} ${k}`).join(', ')}`;
    els.warnings.replaceChildren(...result.warnings.map((w) => Object.assign(document.createElement('li'), { textContent: w })));
    const { rows, more } = shownChanges(result.changes, kinds);
    const fragment = document.createDocumentFragment();
    for (const change of rows) fragment.append(row(change));
    els.rows.replaceChildren(fragment);
    els.more.textContent = more ? `${plural(more, 'more change')} not shown here: the export holds them all.` : '';
    els.exportCsv.disabled = false;
    els.exportJson.disabled = false;
  }

  function row(change) {
    const cells = changeCells(change);
    const tr = document.createElement('tr');
    tr.dataset.change = cells.kind;
    const td = (text, title = '') => {
      const cell = document.createElement('td');
      cell.textContent = text;
      if (title) cell.title = title;
      tr.append(cell);
      return cell;
    };
    td(cells.kind);
    td(cells.shell, cells.shellTitle);
    td(cells.submodel);
    td(cells.path);
    td(cells.values, cells.values);
    const action = td('');
    const target = openTarget(change);
    if (target) {
      const show = Object.assign(document.createElement('button'), { type: 'button', className: 'ghost', textContent: 'Show' });
      show.title = change.change === 'removed' ? 'Show where it was, in the newer snapshot' : 'Show in the newer snapshot';
      show.addEventListener('click', () => open(target));
      action.append(show);
    }
    return tr;
  }

  function clear() {
    result = null;
    els.rows.replaceChildren();
    els.warnings.replaceChildren();
    els.more.textContent = '';
    els.exportCsv.disabled = true;
    els.exportJson.disabled = true;
    refreshChoices();
  }

  async function exportAs(format) {
    try {
      const path = await api.exportChanges(placed(result.old), placed(result.new), format);
      els.status.textContent = path ? `Saved ${path}` : 'Export cancelled: nothing was written';
    } catch (e) {
      els.status.textContent = `Export failed: ${problemWords(e)}`;
    }
  }

  els.compare.addEventListener('click', () => {
    if (els.old.value === els.new.value) {
      els.status.textContent = 'Pick two different snapshots.';
      return;
    }
    const byKey = (key) => snapshots().find((s) => snapshotKey(s) === key) ?? null;
    compare(byKey(els.old.value), byKey(els.new.value));
  });
  els.kinds.addEventListener('click', (e) => {
    const kind = e.target.closest('button')?.dataset.kind;
    if (!kind || !result) return;
    if (!kinds.delete(kind)) kinds.add(kind);
    render();
  });
  els.exportCsv.addEventListener('click', () => exportAs('csv'));
  els.exportJson.addEventListener('click', () => exportAs('json'));
  clear();
  /** `snapshot` is gone (null: all of this computer's, the store moved aside): so is a comparison with it. */
  function dropped(snapshot) {
    const gone = (side) => (snapshot === null ? result.store !== 'team' : sameSnapshot(placed(side), snapshot));
    if (result && (gone(result.old) || gone(result.new))) clear();
  }

  return { compare, refreshChoices, clear, dropped };
}
