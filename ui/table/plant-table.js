// The Table tab: the plant's shells of the chosen asset type as rows, chosen elements
// as columns, from the snapshot on screen or the plant's latest complete one. The
// table lives on the Rust side; this view draws only the rows in sight, asks for them
// a block at a time, sorts on a header click, filters per column as the user types,
// and opens a cell's element in the tree (Enter). The cells are a WAI-ARIA grid: the
// cursor's cell is the one in the tab order and has the focus while the grid has it,
// and the keys move it. The first column stays in view as the table scrolls sideways
// (style.css); Full width (remembered) lets the table take the window's width; columns
// one semanticId column would join are offered joined, under the table's bar and in
// the picker.

import * as api from '../lib/api.js';
import { plural } from '../lib/format.js';
import { problemWords, snapshotKey, snapshotName } from '../snapshots/snapshot-model.js';
import {
  cellClass, cellText, cellTitle, headers, joinable, joined, joinLabel, joinTitle, nextSort, offeredLabel, offeredMatches,
  rowWindow,
} from './plant-table-model.js';

const ROW_HEIGHT = 26;
const BLOCK = 200; // rows asked at once
const KEPT_BLOCKS = 6; // blocks kept, the last used: a scroll through the table holds no more
const FILTER_WAIT_MS = 200;
const HEAD_ROWS = 2; // the names and the filter boxes

/**
 * `els`: status, columns (the Columns… button), fullWidth (its button) and panes (the
 * window's panes, marked data-full-width), joins (the offers to join columns),
 * exportXlsx, exportCsv, viewport, grid (the table), head,
 * body, and the picker's dialog, search, list, apply, defaults, cancel, sets (the named
 * sets' select), setName, saveSet, deleteSet. `plant()`, `snapshot()` (the one on
 * screen, or null) and `assetType()` say what to show; `snapshots()` the plant's (to
 * name the one shown as the snapshots list does); `open(location)` shows an
 * element in the tree. `memory` keeps the columns: `columns(plant, type)` (empty: the
 * defaults), `remember(plant, type, columns)`, `sets()` (name -> columns),
 * `saveSet(name, columns)`, `deleteSet(name)`; and Full width: `fullWidth()`,
 * `rememberFullWidth(full)`. Returns `{show, reset}`: show builds the table for what is
 * on screen, unless it shows that already.
 */
export function initPlantTable(els, { plant, snapshot, snapshots, assetType, open, memory }) {
  let shape = null;
  let sort = null;
  const filterTexts = new Map(); // column index -> the text in its box
  let blocks = new Map(); // block number -> Promise of its rows, the last used last
  let generation = 0; // bumped by every new arrangement: older answers are dropped
  let cursor = { row: 0, col: 0 };
  let built = null; // the key the table on screen was built for

  const key = () => `${plant()}|${assetType() ?? '*'}|${snapshot() ? snapshotKey(snapshot()) : 'latest'}`;

  /** Builds the table for what is on screen, unless it already shows it. */
  async function show(force = false) {
    if (!force && built === key() && shape) return;
    built = key();
    els.status.textContent = 'Building the table…';
    const request = {
      plant: plant(), snapshot: snapshot(), asset_type: assetType(),
      columns: memory.columns(plant(), assetType()), languages: [navigator.language],
    };
    try {
      shape = await api.openTable(request);
      performance.mark('table-built'); // bench/table_app_bench.py times the build and the paint
    } catch (e) {
      empty(problemWords(e));
      return;
    }
    sort = null;
    filterTexts.clear();
    cursor = { row: 0, col: 0 };
    drawHead();
    await rearranged(shape);
  }

  /** No table on screen; `text` says why. */
  function empty(text) {
    shape = null;
    els.joins.replaceChildren();
    els.joins.hidden = true;
    els.head.replaceChildren();
    els.body.replaceChildren();
    els.grid.removeAttribute('tabindex'); // no cells, no place in the tab order
    els.status.textContent = text;
    els.exportXlsx.disabled = els.exportCsv.disabled = true;
  }

  function drawHead() {
    const labels = document.createElement('tr');
    const boxes = document.createElement('tr');
    boxes.className = 'filters';
    // The grid's first two rows, of `aria-rowcount` (the body's rows follow them).
    labels.setAttribute('aria-rowindex', '1');
    boxes.setAttribute('aria-rowindex', '2');
    const named = headers(shape.columns);
    shape.columns.forEach((c, i) => {
      const th = document.createElement('th');
      th.scope = 'col';
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      // The element's name; where two columns share it, what tells them apart.
      const name = Object.assign(document.createElement('span'), { className: 'name', textContent: named[i].text });
      button.append(name);
      if (named[i].where) button.append(' ', Object.assign(document.createElement('span'), { className: 'where', textContent: named[i].where }));
      button.title = named[i].title;
      button.addEventListener('click', () => {
        sort = nextSort(sort, i);
        arrange();
      });
      th.append(button);
      labels.append(th);
      const cell = document.createElement('th');
      const box = document.createElement('input');
      box.type = 'search';
      box.placeholder = 'filter';
      box.setAttribute('aria-label', `Filter ${c.label}: text, =X, =, !=, >=X, <=X`);
      box.title = 'contains TEXT · =X equals · = empty · != has a value · >=X · <=X';
      let timer;
      box.addEventListener('input', () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          filterTexts.set(i, box.value);
          arrange();
        }, FILTER_WAIT_MS);
      });
      cell.append(box);
      boxes.append(cell);
    });
    els.head.replaceChildren(labels, boxes);
    drawJoins();
  }

  /** Offers to join the columns shown that one semanticId column would show as one. */
  function drawJoins() {
    const joins = joinable(shape.columns);
    els.joins.replaceChildren(...joins.map((join) => {
      const line = document.createElement('p');
      const button = Object.assign(document.createElement('button'), {
        type: 'button', className: 'ghost', textContent: `Join ${join.name} by semanticId`,
        title: `One column, semanticId:${join.semantic_id}: each shell's first element with this semanticId`,
      });
      button.addEventListener('click', async () => {
        memory.remember(plant(), assetType(), joined(shape.columns.map((c) => c.column), join));
        await show(true);
        focusGrid();
      });
      line.append(`${join.joins.length} columns named ${join.name} share semanticId ${join.semantic_id}. `, button);
      return line;
    }));
    els.joins.hidden = joins.length === 0;
  }

  async function arrange() {
    performance.mark('table-arrange');
    // The app reads what each box asks (aas-table's filter.rs: `=`, `!=`, `>=X`, `<=X`, `~X`, `X`).
    const filters = [...filterTexts].map(([column, text]) => ({ column, text }));
    try {
      await rearranged(await api.arrangeTable(sort, filters));
    } catch (e) {
      els.status.textContent = problemWords(e);
    }
  }

  async function rearranged(newShape) {
    shape = newShape;
    generation += 1;
    blocks = new Map();
    cursor.row = Math.min(cursor.row, Math.max(0, shape.shown - 1));
    els.grid.setAttribute('aria-rowcount', String(shape.shown + HEAD_ROWS));
    for (const [i, th] of [...els.head.querySelectorAll('tr:first-child th')].entries()) {
      th.setAttribute('aria-sort', sort?.column === i ? (sort.descending ? 'descending' : 'ascending') : 'none');
    }
    const of = shape.shown === shape.total ? plural(shape.total, 'shell') : `${shape.shown.toLocaleString('en-US')} of ${plural(shape.total, 'shell')}`;
    const unread = shape.unreadable ? ` · ${plural(shape.unreadable, 'shell')} could not be read` : '';
    const drawing = generation;
    els.exportXlsx.disabled = els.exportCsv.disabled = false;
    // The count is said once its rows are on screen, so the two never disagree.
    if ((await drawRows()) && drawing === generation) {
      els.status.textContent = `${of} · ${snapshotName(shape.snapshot, snapshots())}${unread}`;
      performance.mark('table-drawn');
    }
  }

  function rowsOf(block) {
    const rows = blocks.get(block) ?? api.tableRows(block * BLOCK, BLOCK);
    blocks.delete(block);
    blocks.set(block, rows);
    if (blocks.size > KEPT_BLOCKS) blocks.delete(blocks.keys().next().value);
    return rows;
  }

  /** Draws the rows in view; false when it could not (the words are in the status) or a newer arrangement took over. */
  async function drawRows() {
    if (!shape) return false;
    const asked = generation;
    const { start, end } = rowWindow(els.viewport.scrollTop, els.viewport.clientHeight, ROW_HEIGHT, shape.shown);
    const first = Math.floor(start / BLOCK);
    const last = Math.floor(Math.max(start, end - 1) / BLOCK);
    const fetched = [];
    for (let b = first; b <= last && end > start; b += 1) fetched.push(rowsOf(b));
    let got;
    try {
      got = await Promise.all(fetched);
    } catch (e) {
      els.status.textContent = problemWords(e);
      return false;
    }
    if (asked !== generation) return false;
    const width = shape.columns.length;
    if (pool.length !== end - start || pool[0]?.tds.length !== width || els.body.firstChild !== above) {
      pool = Array.from({ length: end - start }, (_, i) => pool[i]?.tds.length === width ? pool[i] : emptyRow(width));
      els.body.replaceChildren(above, ...pool.map((slot) => slot.tr), below);
    }
    above.style.height = `${start * ROW_HEIGHT}px`;
    below.style.height = `${(shape.shown - end) * ROW_HEIGHT}px`;
    for (let i = 0; i < pool.length; i += 1) {
      const row = start + i - first * BLOCK;
      const block = got[Math.floor(row / BLOCK)];
      fillRow(pool[i], block?.kinds[row % BLOCK], block?.texts[row % BLOCK], start + i);
    }
    markCursor();
    return true;
  }

  // The rows in view are kept and filled again as the view moves, not made anew:
  // WebKitGTK kept much of what every discarded row had cost (two scrolls through
  // 10,000 rows made afresh: +240 MB). Filling makes no garbage it can help: every
  // object a frame leaves grows the page's heap until the next collection (a scroll
  // through the table had left +28 MB), so a cell's text is changed in place, and only
  // when it differs.
  const spacer = () => {
    const tr = Object.assign(document.createElement('tr'), { className: 'spacer' });
    tr.setAttribute('role', 'none'); // room for the rows not drawn, no row of the grid
    return tr;
  };
  const [above, below] = [spacer(), spacer()];
  let pool = []; // {tr, tds, index (the row shown), kinds and texts (what each cell shows)}
  let cursorCell = null;

  function emptyRow(width) {
    const tr = document.createElement('tr');
    tr.setAttribute('role', 'row');
    const tds = Array.from({ length: width }, () => {
      const td = document.createElement('td');
      td.setAttribute('role', 'gridcell');
      td.tabIndex = -1; // focusable, out of the tab order: the cursor's cell alone is in it
      td.append(document.createTextNode(''));
      return td;
    });
    tr.append(...tds);
    return { tr, tds, index: -1, kinds: Array(width).fill(''), texts: Array(width).fill('') };
  }

  function fillRow(slot, kinds, texts, index) {
    if (slot.index !== index) slot.tr.setAttribute('aria-rowindex', String(index + HEAD_ROWS + 1));
    slot.index = index;
    for (let col = 0; col < slot.tds.length; col += 1) {
      const kind = kinds ? kinds[col] : '';
      const text = kinds ? cellText(kind, texts[col]) : '';
      if (slot.kinds[col] !== kind) {
        slot.tds[col].className = cellClass(kind);
        slot.kinds[col] = kind;
      }
      if (slot.texts[col] !== text) {
        slot.tds[col].firstChild.data = text;
        slot.texts[col] = text;
      }
    }
  }

  /**
   * Marks the cursor's cell, if it is drawn: the one cell in the tab order, with the
   * focus while the grid has it. Scrolled out of the rows drawn, the grid itself holds
   * its place in the tab order (and the focus) until the cell is back.
   */
  function markCursor() {
    const focused = document.activeElement === els.grid || els.body.contains(document.activeElement);
    const slot = pool.find((s) => s.index === cursor.row);
    const cell = slot?.tds[cursor.col] ?? null;
    if (cell !== cursorCell) {
      if (cursorCell) {
        cursorCell.classList.remove('cursor');
        cursorCell.removeAttribute('aria-selected');
        cursorCell.tabIndex = -1;
      }
      cursorCell = cell;
      if (cell) {
        cell.classList.add('cursor');
        cell.setAttribute('aria-selected', 'true');
        cell.tabIndex = 0;
      }
    }
    els.grid.tabIndex = cell || shape.shown === 0 ? -1 : 0;
    if (focused) focusGrid();
  }

  /** The focus to the cursor's cell (the grid while it is not drawn); the view scrolls itself (moveTo). */
  function focusGrid() {
    const target = cursorCell ?? els.grid;
    if (document.activeElement !== target) target.focus({ preventScroll: true });
  }

  // One listener each for every cell.
  const slotOf = (td) => pool.find((s) => s.tr === td?.parentElement);
  els.body.addEventListener('click', (event) => {
    const td = event.target.closest('td');
    const slot = slotOf(td);
    if (slot) moveTo(slot.index, td.cellIndex);
  });
  els.body.addEventListener('dblclick', (event) => {
    if (event.target.closest('td')) openCell();
  });
  // A cell's tooltip (its whole text, or what missing and empty mean) is made as the
  // pointer comes, not for every cell drawn.
  els.body.addEventListener('mouseover', (event) => {
    const td = event.target.closest('td');
    const slot = slotOf(td);
    if (slot) td.title = cellTitle(slot.kinds[td.cellIndex], slot.texts[td.cellIndex]);
  });

  function moveTo(row, col) {
    if (!shape || shape.shown === 0) return;
    cursor = {
      row: Math.max(0, Math.min(shape.shown - 1, row)),
      col: Math.max(0, Math.min(shape.columns.length - 1, col)),
    };
    reveal();
    drawRows();
  }

  /** Scrolls the cursor's cell into view: below the header, and out from under the first column. */
  function reveal() {
    const top = cursor.row * ROW_HEIGHT;
    const view = els.viewport;
    const headHeight = els.head.getBoundingClientRect().height;
    if (top < view.scrollTop) view.scrollTop = top;
    else if (top + ROW_HEIGHT > view.scrollTop + view.clientHeight - headHeight) {
      view.scrollTop = top + ROW_HEIGHT - view.clientHeight + headHeight;
    }
    // Sideways, the cell comes out from under the first column, which stays in view.
    const ths = els.head.querySelectorAll('tr:first-child th');
    const th = ths[cursor.col];
    if (th && cursor.col > 0) {
      const frozen = ths[0].getBoundingClientRect().width;
      const box = th.getBoundingClientRect();
      const left = box.left - view.getBoundingClientRect().left - view.clientLeft + view.scrollLeft;
      if (left - frozen < view.scrollLeft) view.scrollLeft = left - frozen;
      else if (left + box.width > view.scrollLeft + view.clientWidth) view.scrollLeft = left + box.width - view.clientWidth;
    }
  }
  // Tab into the grid scrolls the cell into view as the webview sees it, which may be
  // under the first column: out from under it, once that scroll is done. (Within the
  // grid the focus follows the cursor, and the view is the user's to scroll.)
  els.body.addEventListener('focusin', (event) => {
    const within = event.relatedTarget === els.grid || els.body.contains(event.relatedTarget);
    if (event.target === cursorCell && !within) requestAnimationFrame(reveal);
  });

  async function openCell() {
    if (!shape || shape.shown === 0) return;
    let place;
    try {
      place = await api.tableElement(cursor.row, cursor.col);
    } catch (e) {
      els.status.textContent = problemWords(e);
      return;
    }
    await open({ aasId: place.aas_id, assetType: place.asset_type, submodel: place.submodel, path: place.path });
  }

  els.viewport.addEventListener('scroll', () => requestAnimationFrame(drawRows));
  els.grid.addEventListener('keydown', (event) => {
    if (event.target !== els.grid && !els.body.contains(event.target)) return; // typing in a filter box
    const page = Math.max(1, Math.floor(els.viewport.clientHeight / ROW_HEIGHT) - 2);
    const moves = {
      ArrowDown: [1, 0], ArrowUp: [-1, 0], ArrowRight: [0, 1], ArrowLeft: [0, -1],
      PageDown: [page, 0], PageUp: [-page, 0],
    };
    if (event.key in moves) {
      const [dr, dc] = moves[event.key];
      moveTo(cursor.row + dr, cursor.col + dc);
    } else if (event.key === 'Home') {
      els.viewport.scrollLeft = 0; // the row's start
      moveTo(event.ctrlKey ? 0 : cursor.row, 0);
    } else if (event.key === 'End') {
      moveTo(event.ctrlKey ? shape.shown - 1 : cursor.row, shape.columns.length - 1);
    } else if (event.key === 'Enter') {
      openCell();
    } else {
      return;
    }
    event.preventDefault();
  });

  for (const [button, format] of [[els.exportXlsx, 'xlsx'], [els.exportCsv, 'csv']]) {
    button.addEventListener('click', async () => {
      try {
        const path = await api.exportTable(format);
        if (path) els.status.textContent = `Saved ${path}`;
      } catch (e) {
        els.status.textContent = problemWords(e);
      }
    });
  }

  // The column picker: every element path of the plant's shells, with how many have it.
  let offered = [];
  let shells = 0;
  let pickerChecked = new Set(); // the picker's ticks, the ones searched away too
  async function openPicker() {
    els.pickerList.replaceChildren();
    els.pickerSearch.value = '';
    els.picker.showModal();
    els.pickerList.textContent = 'Reading the plant\u2019s elements…';
    let choice;
    try {
      choice = await api.tableColumns(plant(), snapshot(), assetType());
    } catch (e) {
      els.pickerList.textContent = problemWords(e);
      return;
    }
    offered = choice.census.columns;
    shells = choice.census.shells;
    const current = new Set(shape?.columns.map((c) => c.column) ?? choice.defaults);
    const shellFields = ['shell:idShort', 'shell:id', 'shell:assetType']
      .map((column) => ({ column, shells, model_type: 'shell', semantic_id: null }));
    // A join by semanticId comes before the first of the paths it joins.
    const joins = new Map(joinable(offered, shells).map((j) => [j.joins[0], j]));
    offered = [...shellFields, ...offered.flatMap((o) => (joins.has(o.column) ? [joins.get(o.column), o] : [o]))];
    drawPicker(current);
    drawSets();
    els.pickerSearch.focus();
  }

  /** The named sets: choosing one shows its columns; the name box saves the ticked ones, or deletes a set. */
  function drawSets() {
    const sets = memory.sets();
    const names = Object.keys(sets).sort();
    els.sets.replaceChildren(new Option(names.length ? 'Use a saved set…' : 'No saved sets yet', ''),
      ...names.map((n) => new Option(`${n} (${sets[n].length})`, n)));
    nameTyped();
  }

  // Delete is offered for a name that is saved.
  const nameTyped = () => {
    els.setName.setCustomValidity('');
    els.deleteSet.disabled = !Object.hasOwn(memory.sets(), els.setName.value.trim());
  };
  els.setName.addEventListener('input', nameTyped);

  // Choosing a saved set shows its columns, in its order.
  els.sets.addEventListener('change', () => {
    const columns = memory.sets()[els.sets.value];
    if (!columns) return;
    memory.remember(plant(), assetType(), columns);
    els.picker.close();
    show(true);
  });
  els.saveSet.addEventListener('click', async () => {
    try {
      await memory.saveSet(els.setName.value, picked(pickerChecked));
    } catch (e) {
      els.setName.setCustomValidity(e.message);
      els.setName.reportValidity();
      return;
    }
    drawSets();
  });
  els.deleteSet.addEventListener('click', async () => {
    await memory.deleteSet(els.setName.value.trim());
    els.setName.value = '';
    drawSets();
  });

  /** The ticked columns: the shown order first, then the newly picked in the plant's order. */
  function picked(checked) {
    const before = shape?.columns.map((c) => c.column).filter((c) => checked.has(c)) ?? [];
    const added = offered.map((o) => o.column).filter((c) => checked.has(c) && !before.includes(c));
    return [...before, ...added];
  }

  function drawPicker(checked) {
    pickerChecked = checked;
    const query = els.pickerSearch.value;
    const items = offered.filter((o) => offeredMatches(o, query)).slice(0, 500).map((o) => {
      const li = document.createElement('li');
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = o.column;
      box.checked = checked.has(o.column);
      box.addEventListener('change', () => (box.checked ? checked.add(o.column) : checked.delete(o.column)));
      label.append(box, ` ${o.joins ? joinLabel(o, shells) : offeredLabel(o, shells)}`);
      label.title = o.joins ? joinTitle(o)
        : [o.model_type, o.value_type, o.unit, o.semantic_id].filter(Boolean).join(' · ');
      if (o.joins) li.className = 'join';
      li.append(label);
      return li;
    });
    els.pickerList.replaceChildren(...items);
    els.pickerSearch.oninput = () => drawPicker(checked);
    els.pickerApply.onclick = () => {
      memory.remember(plant(), assetType(), picked(checked));
      els.picker.close();
      show(true);
    };
  }

  els.columns.addEventListener('click', openPicker);
  // Full width: the tree gives its room to the table while the Table tab is shown (style.css).
  function setFullWidth(full) {
    els.fullWidth.setAttribute('aria-pressed', String(full));
    els.panes.toggleAttribute('data-full-width', full);
  }
  setFullWidth(memory.fullWidth());
  els.fullWidth.addEventListener('click', () => {
    const full = els.fullWidth.getAttribute('aria-pressed') !== 'true';
    setFullWidth(full);
    memory.rememberFullWidth(full);
  });
  els.pickerDefaults.addEventListener('click', () => {
    memory.remember(plant(), assetType(), []);
    els.picker.close();
    show(true);
  });
  els.pickerCancel.addEventListener('click', () => els.picker.close());

  return {
    show,
    /** Another profile: its plants' tables, even of a plant of the same code. */
    reset() {
      built = null;
      empty('');
    },
  };
}
