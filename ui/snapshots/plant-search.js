// The whole-plant search (Ctrl+K or Ctrl+Shift+F), unlike the "/" filter of what is
// loaded: full text over a snapshot of the plant (the one on screen, else the latest
// complete). A combobox: arrows move through the hits, Enter opens the active one in
// the tree, Escape closes the list, then clears the box.

import * as api from '../lib/api.js';
import { badgeFor } from '../lib/format.js';
import { hitTrail, hitValue, hitsStatus, locationOf, moveActive } from './plant-search-model.js';
import { problemWords } from './snapshot-model.js';

export const SEARCH_LIMIT = 100;
// Short: a search of a 10,000-asset snapshot takes 10-30 ms, an answer to a query
// typed over is dropped, and hits must show within 100 ms of the last key.
const TYPING_PAUSE_MS = 40;

/**
 * `els`: input, popup, status, list (the listbox). `plant()` is the plant shown,
 * `snapshot()` the id of the snapshot on screen (null: live), `snapshots()` the plant's
 * (to name the one searched as the snapshots list does), `open(location)` shows
 * `{aasId, assetType, submodel, path}` in the tree. Returns `{reset}`, for when the
 * plant or the snapshot on screen changed.
 */
export function initPlantSearch(els, { plant, snapshot, snapshots, open }) {
  let hits = [];
  let active = -1;
  let timer = null;
  let asked = 0; // numbers the searches: only the answer to the last one is shown
  let shown = ''; // the query whose hits are listed

  const setOpen = (visible) => {
    els.popup.hidden = !visible;
    els.input.setAttribute('aria-expanded', String(visible));
  };

  function setActive(index) {
    els.list.children[active]?.setAttribute('aria-selected', 'false');
    active = index;
    const option = els.list.children[active];
    if (!option) {
      els.input.removeAttribute('aria-activedescendant');
      return;
    }
    option.setAttribute('aria-selected', 'true');
    option.scrollIntoView({ block: 'nearest' });
    els.input.setAttribute('aria-activedescendant', option.id);
  }

  function render() {
    const fragment = document.createDocumentFragment();
    hits.forEach((hit, i) => {
      const li = document.createElement('li');
      li.id = `plant-hit-${i}`;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      li.dataset.index = String(i);
      li.title = hit.aas_id;
      const badge = badgeFor(hit.model_type);
      li.append(
        span(`badge ${badge.css}`, badge.text),
        span('hit-trail', hitTrail(hit).join(' › ')),
        span('hit-value', hitValue(hit)),
        span('hit-type', hit.asset_type ?? ''),
      );
      fragment.append(li);
    });
    els.list.replaceChildren(fragment);
    active = -1;
    setActive(hits.length ? 0 : -1); // Enter opens the first hit at once
  }

  async function search() {
    clearTimeout(timer);
    const mine = ++asked;
    const query = els.input.value.trim();
    if (!query) {
      shown = '';
      hits = [];
      render();
      setOpen(false);
      return;
    }
    try {
      const result = await api.searchSnapshot(plant(), query, snapshot(), SEARCH_LIMIT);
      if (mine !== asked) return;
      shown = query;
      hits = result.hits;
      els.status.textContent = hitsStatus(result, SEARCH_LIMIT, snapshots());
    } catch (e) {
      if (mine !== asked) return;
      shown = query;
      hits = [];
      els.status.textContent = problemWords(e);
    }
    render();
    setOpen(true);
  }

  async function openHit(index) {
    const hit = hits[index];
    if (!hit) return;
    setOpen(false);
    await open(locationOf(hit));
  }

  els.input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(search, TYPING_PAUSE_MS);
  });
  els.input.addEventListener('keydown', async (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      // Typed but not searched yet: search first, then open the first hit.
      if (els.input.value.trim() !== shown) {
        await search();
        openHit(active);
      } else if (els.popup.hidden) {
        setOpen(shown !== '');
      } else {
        openHit(active);
      }
    } else if (e.key === 'Escape') {
      if (els.popup.hidden && els.input.value === '') return;
      e.preventDefault();
      if (!els.popup.hidden) setOpen(false);
      else {
        els.input.value = '';
        search();
      }
    } else {
      const next = moveActive(active, e.key, hits.length);
      if (next === null) return;
      e.preventDefault();
      setOpen(true);
      setActive(next);
    }
  });
  els.input.addEventListener('focus', () => setOpen(shown !== '' && els.input.value.trim() === shown));
  els.input.addEventListener('blur', () => setOpen(false));
  // A click on a hit must not blur the box first (that would close the list under it).
  els.list.addEventListener('mousedown', (e) => e.preventDefault());
  els.list.addEventListener('click', (e) => {
    const option = e.target.closest('[role="option"]');
    if (option) openHit(Number(option.dataset.index));
  });
  document.addEventListener('keydown', (e) => {
    const key = e.key.toLowerCase();
    if (!(e.ctrlKey || e.metaKey) || key !== (e.shiftKey ? 'f' : 'k')) return;
    e.preventDefault();
    els.input.focus();
    els.input.select();
  });

  return {
    reset() {
      els.input.value = '';
      search();
    },
  };
}

function span(className, text) {
  const s = document.createElement('span');
  s.className = className;
  s.textContent = text;
  return s;
}
