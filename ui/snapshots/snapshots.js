// The Snapshots dialog: the plant's snapshots (date, where, shells, size, complete or
// partial) with Browse, Changes (against the one before in the same store) and Delete
// (confirmed in the row); where this computer's store is and its size; the team store
// (its URL, its password for the keychain, whether it answers); how many complete
// snapshots to keep; and, when the store is damaged, moving it aside to start a new one.

import * as api from '../lib/api.js';
import { plural } from '../lib/format.js';
import {
  formatBytes, keepValue, placeName, previousOf, problemWords, sameSnapshot, snapshotKey, snapshotName, takenAtAfter,
  takenAtLabels,
} from './snapshot-model.js';

/**
 * `els`: dialog, opener, title, store, damaged, damagedText, moveAside, rows (tbody),
 * empty, status, keep, close, team (the details), teamState, teamForm, teamUrl,
 * teamPassword, teamNone. `plant()` is the plant shown, `browsing()` the snapshot on
 * screen (or null); `browse(snapshot)` and `compare(old, newer)` show one or the
 * changes between two; `onChanged(deleted)` hears that the list changed (a snapshot
 * deleted, or null: the store moved aside). Returns `{refresh}`.
 */
export function initSnapshotsDialog(els, { plant, browsing, browse, compare, onChanged }) {
  /** Writes the status line: a problem (the default) in the error colour, good news ('ok') not. */
  const say = (text, level = 'error') => {
    els.status.textContent = text;
    els.status.dataset.level = level;
  };
  els.opener.addEventListener('click', async () => {
    say('');
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
      if (e.kind !== 'store_damaged') say(problemWords(e));
      els.store.textContent = '';
      els.rows.replaceChildren();
      return;
    }
    els.damaged.hidden = true;
    els.store.textContent = `Kept on this computer in ${list.store.path} (${formatBytes(list.store.bytes)} in all)`;
    showTeam(list);
    els.keep.value = String(list.keep);
    els.empty.hidden = list.snapshots.length > 0;
    const dates = takenAtLabels(list.snapshots);
    els.rows.replaceChildren(...list.snapshots.map((s, i) => row(s, list.snapshots, dates[i])));
  }

  /** `snapshot`'s row; `date`: its date as `takenAtLabels` writes it among `all`. */
  function row(snapshot, all, date) {
    const tr = document.createElement('tr');
    tr.className = 'snapshot-row';
    tr.dataset.id = snapshotKey(snapshot);
    tr.title = `From ${snapshot.source}`;
    // Dates to the second where two share a minute; the one on screen says so in words.
    for (const text of [date, placeName(snapshot), String(snapshot.shells),
      formatBytes(snapshot.bytes), snapshot.complete ? 'complete' : 'partial']) {
      tr.append(Object.assign(document.createElement('td'), { textContent: text }));
    }
    if (sameSnapshot(browsing(), snapshot)) {
      tr.setAttribute('aria-current', 'true');
      tr.cells[0].append(' ', Object.assign(document.createElement('span'), { className: 'on-screen', textContent: 'on screen' }));
    }
    const actions = document.createElement('td');
    actions.className = 'row-actions';
    const previous = previousOf(all, snapshot);
    const offer = () => actions.replaceChildren(
      button('Browse', 'Show it in the tree, read-only', () => {
        els.dialog.close();
        browse(snapshot);
      }),
      button('Changes', previous ? `What changed since ${takenAtAfter(previous, snapshot, all)}` : 'No earlier complete snapshot to compare with', () => {
        els.dialog.close();
        compare(previous, snapshot);
      }, !snapshot.complete || !previous),
      button('Delete…', 'Delete this snapshot (asks first)', askFirst),
    );
    const askFirst = () => {
      const keep = button('Keep', '', () => {
        offer();
        actions.querySelector('button').focus();
      });
      actions.replaceChildren(document.createTextNode('Delete it? '), button('Delete', '', () => remove(snapshot, all)), keep);
      keep.focus(); // the safe choice has the focus
    };
    offer();
    tr.append(actions);
    return tr;
  }

  async function remove(snapshot, all) {
    try {
      await api.deleteSnapshot(snapshot);
      say(`Deleted ${snapshotName(snapshot, all)}.`, 'ok');
    } catch (e) {
      say(`Not deleted: ${problemWords(e)}`);
    }
    await refresh();
    els.close.focus(); // its row is gone
    onChanged(snapshot);
  }

  function showTeam(list) {
    const { team } = list;
    const count = list.snapshots.filter((s) => s.store === 'team').length;
    els.teamState.textContent = !team ? 'none'
      : team.problem ? `${team.url} does not answer` : `${team.url}, ${plural(count, 'snapshot')} of ${plant()}`;
    els.teamState.dataset.level = team?.problem ? 'error' : 'ok';
    if (team?.problem) {
      els.team.open = true;
      say(`The team store: ${problemWords({ kind: team.problem_kind, message: team.problem })}`);
    }
    if (document.activeElement !== els.teamUrl) els.teamUrl.value = team?.url ?? '';
  }

  async function setTeam(url, password) {
    try {
      await api.setPreference({ team_store: { url, password } });
      say(url ? 'Team store set.' : 'No team store: only this computer\'s snapshots are listed.', 'ok');
      els.teamPassword.value = '';
    } catch (e) {
      say(`Not changed: ${problemWords(e)}`);
      return;
    }
    await refresh();
    onChanged(null);
  }

  els.teamForm.addEventListener('submit', (e) => {
    e.preventDefault();
    // An empty password box keeps the password in the keychain.
    setTeam(els.teamUrl.value.trim() || null, els.teamPassword.value || null);
  });
  els.teamNone.addEventListener('click', () => setTeam(null, null));

  els.keep.addEventListener('change', async () => {
    const keep = keepValue(els.keep.value);
    if (keep === null) {
      say('Keep a whole number of snapshots.');
      return;
    }
    try {
      await api.setPreference({ keep_snapshots: keep });
      say(`Keeping the last ${plural(keep, 'complete snapshot')} of each plant and source; `
        + 'older ones go after the next snapshot.', 'ok');
    } catch (e) {
      say(`Not changed: ${problemWords(e)}`);
    }
  });

  els.moveAside.addEventListener('click', async () => {
    try {
      const { moved_to: movedTo } = await api.moveStoreAside();
      say(`The damaged store was moved to ${movedTo}; a new, empty store is used from now on.`, 'ok');
    } catch (e) {
      say(`Not moved: ${problemWords(e)}`);
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
