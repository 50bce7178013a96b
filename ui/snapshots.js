// The Snapshots dialog: the plant's snapshots (date, shells, size, complete or partial)
// with Browse, Changes (against the one before) and Delete (confirmed in the row); where
// the store is and its size; how many complete snapshots to keep; and, when the store
// is damaged, moving it aside to start a new one.

import * as api from './api.js';
import { plural } from './format.js';
import { formatBytes, formatTakenAt, keepValue, previousOf, problemWords, snapshotName } from './snapshot-model.js';

/**
 * `els`: dialog, opener, title, store, damaged, damagedText, moveAside, rows (tbody),
 * empty, status, keep, close. `plant()` is the plant shown, `browsing()` the snapshot on
 * screen (or null); `browse(snapshot)` and `compare(oldId, newId)` show one or the
 * changes between two; `onChanged(deletedId)` hears that the list changed (a snapshot
 * deleted, or null: the store moved aside). Returns `{refresh}`.
 */
export function initSnapshotsDialog(els, { plant, browsing, browse, compare, onChanged }) {
  els.opener.addEventListener('click', async () => {
    els.status.textContent = '';
    els.rows.replaceChildren(); // no rows of an earlier opening, which the focus could land on
    els.dialog.showModal();
    await refresh();
    // The focus on what is there to do: move a damaged store aside, else the newest snapshot.
    (els.damaged.hidden ? els.rows.querySelector('button') ?? els.close : els.moveAside).focus();
  });
  els.close.addEventListener('click', () => els.dialog.close());
  els.dialog.addEventListener('close', () => els.opener.focus());

  async function refresh() {
    if (!els.dialog.open) return;
    els.title.textContent = `Snapshots of ${plant()}`;
    let list;
    try {
      list = await api.listSnapshots(plant());
    } catch (e) {
      els.damaged.hidden = e.kind !== 'store_damaged';
      els.damagedText.textContent = e.message;
      if (e.kind !== 'store_damaged') els.status.textContent = problemWords(e);
      els.store.textContent = '';
      els.rows.replaceChildren();
      return;
    }
    els.damaged.hidden = true;
    els.store.textContent = `Kept on this computer in ${list.store.path} (${formatBytes(list.store.bytes)} in all)`;
    els.keep.value = String(list.keep);
    els.empty.hidden = list.snapshots.length > 0;
    els.rows.replaceChildren(...list.snapshots.map((s) => row(s, list.snapshots)));
  }

  function row(snapshot, all) {
    const tr = document.createElement('tr');
    tr.className = 'snapshot-row';
    tr.dataset.id = String(snapshot.id);
    if (browsing()?.id === snapshot.id) tr.setAttribute('aria-current', 'true');
    tr.title = `From ${snapshot.source}`;
    for (const text of [formatTakenAt(snapshot.taken_at), String(snapshot.shells), formatBytes(snapshot.bytes),
      snapshot.complete ? 'complete' : 'partial']) {
      tr.append(Object.assign(document.createElement('td'), { textContent: text }));
    }
    const actions = document.createElement('td');
    actions.className = 'row-actions';
    const previous = previousOf(all, snapshot.id);
    const offer = () => actions.replaceChildren(
      button('Browse', 'Show it in the tree, read-only', () => {
        els.dialog.close();
        browse(snapshot);
      }),
      button('Changes', previous ? `What changed since ${formatTakenAt(previous.taken_at)}` : 'No earlier complete snapshot to compare with', () => {
        els.dialog.close();
        compare(previous.id, snapshot.id);
      }, !snapshot.complete || !previous),
      button('Delete…', 'Delete this snapshot (asks first)', askFirst),
    );
    const askFirst = () => {
      const keep = button('Keep', '', () => {
        offer();
        actions.querySelector('button').focus();
      });
      actions.replaceChildren(document.createTextNode('Delete it? '), button('Delete', '', () => remove(snapshot)), keep);
      keep.focus(); // the safe choice has the focus
    };
    offer();
    tr.append(actions);
    return tr;
  }

  async function remove(snapshot) {
    try {
      await api.deleteSnapshot(snapshot.id);
      els.status.textContent = `Deleted ${snapshotName(snapshot)}.`;
    } catch (e) {
      els.status.textContent = `Not deleted: ${problemWords(e)}`;
    }
    await refresh();
    els.close.focus(); // its row is gone
    onChanged(snapshot.id);
  }

  els.keep.addEventListener('change', async () => {
    const keep = keepValue(els.keep.value);
    if (keep === null) {
      els.status.textContent = 'Keep a whole number of snapshots, from 1 to 1000.';
      return;
    }
    try {
      await api.setPreference({ keep_snapshots: keep });
      els.status.textContent = `Keeping the last ${plural(keep, 'complete snapshot')} of each plant and source; `
        + 'older ones go after the next snapshot.';
    } catch (e) {
      els.status.textContent = `Not changed: ${problemWords(e)}`;
    }
  });

  els.moveAside.addEventListener('click', async () => {
    try {
      const { moved_to: movedTo } = await api.moveStoreAside();
      els.status.textContent = `The damaged store was moved to ${movedTo}; a new, empty store is used from now on.`;
    } catch (e) {
      els.status.textContent = `Not moved: ${problemWords(e)}`;
    }
    await refresh();
    onChanged(null);
  });

  return { refresh };
}

function button(text, title, onClick, disabled = false) {
  const b = Object.assign(document.createElement('button'), { type: 'button', className: 'ghost', textContent: text, disabled });
  if (title) b.title = title;
  b.addEventListener('click', onClick);
  return b;
}
