// The Changes tab: what changed between two snapshots of the plant (the latest two,
// compared as soon as the tab is shown, unless others are picked and compared), filtered
// by kind, old → new values, exported as CSV or JSON. Comparing leaves the tree as it is
// (its source, what is expanded and selected): the changes are marked there while it shows
// the newer snapshot, and Show on a change opens it there.

import * as api from '../lib/api.js';
import { plural } from '../lib/format.js';
import { KINDS, changeCells, countByKind, openTarget, shownChanges } from './changes-model.js';
import {
  comparedWords, pickerLabels, placeName, problemWords, sameSnapshot, snapshotKey, storeOf,
} from './snapshot-model.js';

/**
 * `els`: panel (the tab's), old, new (the two selects), compare, kinds (the filter
 * buttons' group), exportCsv, exportJson, status, warnings, rows (the tbody), more.
 * `plant()` is the plant shown, `snapshots()` its snapshots (newest first),
 * `onCompared(result)` hears that the comparison on screen changed (null: none),
 * `open(location, newer)` shows a node in snapshot `newer` in the tree, `showTab()`
 * brings this tab forward. Returns `{compare, refreshChoices, clear, dropped, show, current}`;
 * call `show()` when the tab is shown.
 */
export function initChanges(els, { plant, snapshots, onCompared, open, showTab }) {
  let result = null; // the comparison on screen
  let asks = 0; // comparisons asked; an answer to an earlier one is dropped
  let pending = false; // a comparison is being made
  let unasked = null; // the pair compared because the tab was shown, while that fails: not tried so again
  /** A side of the comparison on screen, with the store both are in. */
  const placed = (side) => ({ ...side, store: result.store });
  const kinds = new Set(KINDS);

  /** The latest two complete snapshots of one plant in one store, [older, newer], or nulls. */
  function latestTwo() {
    const complete = snapshots().filter((s) => s.complete);
    const newer = complete[0] ?? null;
    const alike = (s) => s !== newer && storeOf(s) === storeOf(newer) && s.plant === newer.plant;
    return [newer && (complete.find(alike) ?? null), newer];
  }

  /** Compares the latest two when the tab is on screen and shows no comparison (once a pair). */
  function compareUnasked() {
    if (result || pending || els.panel.hidden) return;
    const [old, newer] = latestTwo();
    if (!old || !newer) return;
    const pair = `${snapshotKey(old)} ${snapshotKey(newer)}`;
    if (pair === unasked) return; // it failed: the status says why; Compare tries again
    unasked = pair;
    compare(old, newer);
  }

  /** Fills the two pickers again from `snapshots()`. */
  function refreshChoices() {
    choices();
    compareUnasked();
  }

  function choices() {
    const list = snapshots();
    // The pair on screen stays chosen; without one, the latest two complete snapshots.
    const labels = pickerLabels(list);
    // A file's snapshots beside the plant's: each says whose it is.
    const plants = new Set(list.map((s) => s.plant)).size > 1;
    if (plants) list.forEach((s, i) => { labels[i] = `${s.plant} · ${labels[i]}`; });
    // Where each lives is said once both stores are in the list (two stores are not compared).
    const places = new Set(list.map(placeName)).size > 1;
    const [old, newer] = result ? [placed(result.old), placed(result.new)] : latestTwo();
    for (const [select, chosen] of [[els.old, old], [els.new, newer]]) {
      select.replaceChildren(...list.map((s, i) => new Option(places ? `${labels[i]} · ${placeName(s)}` : labels[i], snapshotKey(s))));
      select.value = chosen ? snapshotKey(chosen) : '';
    }
    els.compare.disabled = list.length < 2;
    if (!result && !pending) {
      els.status.textContent = list.length < 2
        ? 'Changes compare two snapshots of the plant: take one now and another later (Take snapshot).'
        : 'Pick two snapshots and press Compare.';
    }
  }

  /** Compares snapshots `old` and `newer`, two of one store (both null: the latest two complete). */
  async function compare(old, newer) {
    const asked = ++asks;
    pending = true;
    showTab();
    els.status.textContent = 'Comparing…';
    let answer;
    try {
      answer = await api.snapshotChanges(plant(), old, newer);
    } catch (e) {
      if (asked !== asks) return;
      clear();
      els.status.textContent = problemWords(e);
      return;
    }
    if (asked !== asks) return; // another comparison asked, or another plant, meanwhile
    pending = false;
    unasked = null;
    result = answer;
    choices();
    render();
    onCompared(result);
  }

  function render() {
    const counts = countByKind(result.changes);
    for (const button of els.kinds.querySelectorAll('button')) {
      button.setAttribute('aria-pressed', String(kinds.has(button.dataset.kind)));
      button.querySelector('.count').textContent = String(counts[button.dataset.kind]);
    }
    const between = comparedWords(result.old, result.new, snapshots());
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
      show.addEventListener('click', () => open(target, placed(result.new)));
      action.append(show);
    }
    return tr;
  }

  /** No comparison on screen (said to `onCompared` if one was). */
  function clear() {
    const had = result;
    result = null;
    asks += 1;
    pending = false;
    els.rows.replaceChildren();
    els.warnings.replaceChildren();
    els.more.textContent = '';
    els.exportCsv.disabled = true;
    els.exportJson.disabled = true;
    if (had) onCompared(null);
    choices();
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

  return {
    compare, refreshChoices, clear, dropped,
    show: compareUnasked,
    /** The comparison on screen, its sides with their store, or null. */
    current: () => result && { ...result, old: placed(result.old), new: placed(result.new) },
  };
}
