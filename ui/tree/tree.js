// The tree on screen, virtualised: only the rows in the scroll viewport (plus a few)
// are <li> treeitems, placed absolutely in the list, which is as tall as all rows.
// Loads children on expand (spinner, error with Retry), shows the filtered view while
// a filter is set, marks what changed (when given marks), and handles mouse and
// keyboard as a WAI-ARIA tree with a roving tabindex, the selection following the
// keyboard's cursor (the focused row).

import { adopt, checkState, isExpandable, navigate, setChecked, visibleRows } from './tree-model.js';
import { filterRows, highlight, matcher } from './filter.js';
import { pageRows, revealOffset, rowBox, visibleRange } from './viewport.js';
import { badgeFor } from '../lib/format.js';

const ROW_HEIGHT = 26; // px
const INDENT = 18; // px a level
const OVERSCAN = 8;
// The details follow the cursor once the keys rest this long: holding ↓ through a
// plant asks the service for no shell on the way.
const FOLLOW_MS = 120;
// Marked once, in the frame that first paints rows, so a start-up benchmark can read
// the time from performance.getEntriesByName('tree-first-rows').
const FIRST_ROWS_MARK = 'tree-first-rows';
let firstRowsMarked = false;

export class TreeView {
  #items = new Map(); // node -> its <li>, while rendered
  #range = null; // the rows last painted, so scrolling within them costs nothing
  #free = []; // <li>s scrolled out, reused for the rows scrolled in (no garbage while scrolling)
  #following = null; // the timer that tells onSelect of a row the cursor moved to

  constructor(viewport, list, { onSelect, onMatches, onCheck = () => {} }) {
    this.viewport = viewport;
    this.list = list;
    this.onSelect = onSelect;
    this.onMatches = onMatches;
    this.onCheck = onCheck;
    this.roots = [];
    this.rows = [];
    this.focused = null;
    this.selected = null;
    this.filter = null; // the matcher while a filter is set
    this.folded = new Set(); // nodes collapsed while filtering; cleared with each query
    this.markOf = null; // node -> {kind, title} or null, while changes are marked
    list.addEventListener('click', (e) => this.#onClick(e));
    // A row's twisty, box and Retry act without taking the focus: the cursor stays where it is drawn.
    list.addEventListener('mousedown', (e) => {
      if (e.target.closest('.twisty, .check, .retry')) e.preventDefault();
    });
    list.addEventListener('keydown', (e) => this.#onKey(e));
    viewport.addEventListener('scroll', () => this.#paint());
    new ResizeObserver(() => this.#paint()).observe(viewport);
  }

  /** Shows `nodes`, nothing selected (onSelect hears null). */
  setRoots(nodes) {
    clearTimeout(this.#following);
    this.roots = nodes;
    this.focused = nodes[0] ?? null;
    this.selected = null;
    this.viewport.scrollTop = 0;
    this.render();
    this.onSelect(null);
  }

  setFilter(query) {
    this.filter = matcher(query);
    this.folded.clear();
    this.render();
    this.#reveal(this.rows.findIndex((r) => r.node === this.focused));
  }

  /** Marks rows with `markOf(node)` (`{kind, title}` or null); null removes every mark. */
  setMarks(markOf) {
    this.markOf = markOf;
    this.#paint(true);
  }

  async expand(node) {
    if (node.expanded || !isExpandable(node)) return;
    node.expanded = true;
    if (node.load && node.state !== 'loaded') {
      node.state = 'loading';
      node.error = null;
      this.render();
      try {
        adopt(node, await node.load());
        node.state = 'loaded';
      } catch (error) {
        node.state = 'error';
        node.error = withReason(error);
        node.expanded = false;
      }
    }
    this.render();
  }

  /** Ticks or unticks a checkable node (and its subtree) for export. */
  toggleCheck(node) {
    if (!node.checkable) return;
    setChecked(node, checkState(node) !== 'checked');
    this.#paint(true);
    this.onCheck();
  }

  /** Expands again the nodes that failed with `kind` (e.g. when the server is back). */
  retryFailed(kind) {
    const walk = (nodes) => {
      for (const node of nodes ?? []) {
        if (node.state === 'error' && node.error?.kind === kind) {
          node.state = 'idle';
          this.expand(node);
        }
        walk(node.children);
      }
    };
    walk(this.roots);
  }

  collapse(node) {
    node.expanded = false;
    this.render();
  }

  select(node) {
    clearTimeout(this.#following);
    this.selected = node;
    this.focused = node;
    this.#paint(true);
    this.onSelect(node);
  }

  /** Expands the ancestors of `node`, then scrolls to, selects and focuses it. */
  async show(node) {
    const ancestors = [];
    for (let n = node.parent; n; n = n.parent) ancestors.unshift(n);
    for (const ancestor of ancestors) await this.expand(ancestor);
    this.#reveal(this.rows.findIndex((r) => r.node === node));
    this.select(node);
    this.#items.get(node)?.focus({ preventScroll: true });
  }

  /** Recomputes the rows after the tree, its expansion or the filter changed. */
  render() {
    let matches = null;
    if (this.filter) ({ rows: this.rows, matches } = filterRows(this.roots, this.filter, this.folded));
    else this.rows = visibleRows(this.roots);
    this.onMatches(matches);
    // A hidden focused node hands the focus to its nearest shown ancestor.
    const shown = new Set(this.rows.map((r) => r.node));
    let focus = this.focused;
    while (focus && !shown.has(focus)) focus = focus.parent;
    this.focused = focus ?? this.rows[0]?.node ?? null;
    this.list.style.height = `${this.rows.length * ROW_HEIGHT}px`;
    this.#paint(true);
  }

  #height() {
    return this.viewport.clientHeight || window.innerHeight; // 0 before the first layout
  }

  #reveal(index) {
    if (index < 0) return;
    const { scrollTop } = this.viewport;
    this.viewport.scrollTop = revealOffset({ index, scrollTop, viewportHeight: this.#height(), rowHeight: ROW_HEIGHT });
  }

  /** Puts the rows in view into the DOM; `force` when rows or their state changed. */
  #paint(force = false) {
    const { start, end } = visibleRange({
      scrollTop: this.viewport.scrollTop, viewportHeight: this.#height(),
      rowHeight: ROW_HEIGHT, count: this.rows.length, overscan: OVERSCAN,
    });
    if (!force && this.#range?.start === start && this.#range?.end === end) return;
    this.#range = { start, end };
    const indices = [];
    for (let i = start; i < end; i += 1) indices.push(i);
    // The focused row stays rendered when scrolled away, so it keeps the focus.
    const focus = this.rows.findIndex((r) => r.node === this.focused);
    if (focus >= 0 && (focus < start || focus >= end)) indices.push(focus);
    indices.sort((a, b) => a - b);

    const hadFocus = this.list.contains(document.activeElement);
    const wanted = new Set(indices.map((i) => this.rows[i].node));
    for (const [node, li] of this.#items) {
      if (!wanted.has(node)) {
        li.remove();
        this.#items.delete(node);
        this.#free.push(li);
      }
    }
    // Rows kept stay in place (their order never changes), so the focused one is not
    // moved, which would blur it; new rows go in between, in row order. A row kept
    // while scrolling shows what it showed, so only new rows are filled then.
    let cursor = this.list.firstElementChild;
    for (const i of indices) {
      const node = this.rows[i].node;
      let li = this.#items.get(node);
      const kept = li !== undefined;
      if (li && li === cursor) {
        cursor = cursor.nextElementSibling;
      } else {
        li ??= this.#free.pop() ?? document.createElement('li');
        this.#items.set(node, li);
        this.list.insertBefore(li, cursor);
      }
      if (force || !kept) this.#fill(li, this.rows[i], i);
    }
    if (!firstRowsMarked && indices.length > 0) {
      firstRowsMarked = true;
      requestAnimationFrame(() => performance.mark(FIRST_ROWS_MARK));
    }
    const focusedItem = this.#items.get(this.focused);
    if (hadFocus && focusedItem && document.activeElement !== focusedItem) focusedItem.focus({ preventScroll: true });
  }

  #fill(li, { node, depth, posinset, setsize, expandable, expanded }, index) {
    li.setAttribute('role', 'treeitem');
    li.setAttribute('aria-level', String(depth));
    li.setAttribute('aria-posinset', String(posinset));
    li.setAttribute('aria-setsize', String(setsize));
    li.setAttribute('aria-selected', String(node === this.selected));
    if (expandable) li.setAttribute('aria-expanded', String(expanded));
    else li.removeAttribute('aria-expanded');
    if (node.state === 'error') li.dataset.failure = node.error.kind ?? 'unknown';
    else delete li.dataset.failure;
    if (node.checkable) li.setAttribute('aria-checked', checkState(node) === 'mixed' ? 'mixed' : String(checkState(node) === 'checked'));
    else li.removeAttribute('aria-checked');
    li.tabIndex = node === this.focused ? 0 : -1;
    li.dataset.index = String(index);
    li.dataset.label = node.label;
    Object.assign(li.style, rowBox({ index, depth, rowHeight: ROW_HEIGHT, indent: INDENT }));

    const part = partsOf(li);
    setText(part.twisty, expandable ? (expanded ? '▾' : '▸') : '');
    const badge = badgeFor(node.data?.model_type);
    part.badge.className = `badge ${badge.css}`;
    setText(part.badge, badge.text);
    this.#marked(part.label, node.label);
    const shown = [part.twisty];
    if (node.checkable) shown.push(part.check);
    shown.push(part.badge, part.label);
    const mark = this.markOf?.(node);
    if (mark) {
      part.mark.dataset.change = mark.kind;
      part.mark.title = mark.title;
      part.mark.setAttribute('aria-label', mark.title);
      shown.push(part.mark);
    }
    const value = node.data?.value;
    if (value) shown.push(this.#marked(part.value, value));
    if (node.data?.error) shown.push(setError(part.unreadable, `cannot read: ${node.data.error}`));
    if (node.state === 'loading') shown.push(part.spinner);
    if (node.state === 'error') shown.push(setError(part.failure, node.error.message), part.retry);
    if (shown.length !== li.childNodes.length || shown.some((el, i) => li.childNodes[i] !== el)) li.replaceChildren(...shown);
  }

  /** Shows `text` in `el` with the filter's hits in <mark>; returns `el`. */
  #marked(el, text) {
    if (!this.filter) return setText(el, text);
    el.replaceChildren();
    for (const part of highlight(text, this.filter)) {
      if (!part.hit) el.append(part.text);
      else el.append(Object.assign(document.createElement('mark'), { textContent: part.text }));
    }
    return el;
  }

  #rowOf(target) {
    const li = target.closest('li[role="treeitem"]');
    return li ? this.rows[Number(li.dataset.index)] : null;
  }

  #setExpanded(row, open) {
    if (!row.expandable || row.expanded === open) return;
    if (this.filter) {
      if (open) this.folded.delete(row.node);
      else this.folded.add(row.node);
      this.render();
    } else if (open) {
      this.expand(row.node);
    } else {
      this.collapse(row.node);
    }
  }

  #onClick(e) {
    const row = this.#rowOf(e.target);
    if (!row) return;
    if (e.target.classList.contains('check')) {
      this.toggleCheck(row.node);
    } else if (e.target.classList.contains('retry')) {
      row.node.state = 'idle';
      this.expand(row.node);
    } else if (e.target.classList.contains('twisty') && row.expandable) {
      this.#setExpanded(row, !row.expanded);
    } else {
      this.select(row.node);
    }
  }

  #onKey(e) {
    const index = this.rows.findIndex((r) => r.node === this.focused);
    if (index < 0) return;
    const row = this.rows[index];
    if (e.key === ' ' && row.node.checkable) {
      e.preventDefault();
      this.toggleCheck(row.node);
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.select(row.node);
      this.#setExpanded(row, true);
      return;
    }
    const move = navigate(this.rows, index, e.key, pageRows(this.#height(), ROW_HEIGHT));
    if (!move) return;
    e.preventDefault();
    if (move.action) {
      this.#setExpanded(row, move.action === 'expand');
    } else {
      this.#follow(move.index);
    }
  }

  /** Moves the cursor to row `index` and selects it; onSelect hears of it when the keys rest. */
  #follow(index) {
    const { node } = this.rows[index];
    this.focused = node;
    this.selected = node;
    this.#reveal(index);
    this.#paint(true);
    clearTimeout(this.#following);
    this.#following = setTimeout(() => this.onSelect(node), FOLLOW_MS);
  }
}

/**
 * A node's failure in words for its row: a node the server no longer finds was shown
 * before, so the customer withdrew it (the service answers 404 for both).
 */
function withReason(error) {
  if (error.kind === 'not_found' || error.kind === 'not_allowed') {
    const revoked = new Error('No longer shared with this application');
    revoked.kind = error.kind;
    return revoked;
  }
  return error;
}

// A row's spans, made once per <li> and reused whenever the <li> shows another node.
const rowParts = new WeakMap();

function partsOf(li) {
  let parts = rowParts.get(li);
  if (parts) return parts;
  const twisty = span('twisty');
  twisty.setAttribute('aria-hidden', 'true');
  // The box is drawn from the row's aria-checked; screen readers read that.
  const check = span('check');
  check.setAttribute('aria-hidden', 'true');
  check.title = 'Tick for export (Space)';
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'retry';
  retry.textContent = 'Retry';
  retry.tabIndex = -1; // the tree is one tab stop; Enter or → on the row retries too
  // A change mark is a dot: its words are its label (read with the row) and title.
  const mark = span('change-mark');
  mark.setAttribute('role', 'img');
  parts = {
    twisty, check, retry, mark, badge: span('badge'), label: span('label'), value: span('value'),
    unreadable: span('node-error'), failure: span('node-error'), spinner: span('spinner'),
  };
  rowParts.set(li, parts);
  return parts;
}

/** Sets `el`'s text, reusing its text node (scrolling then makes no garbage); returns `el`. */
function setText(el, text) {
  const only = el.firstChild;
  if (only && only === el.lastChild && only.nodeType === Node.TEXT_NODE) {
    if (only.data !== text) only.data = text;
  } else {
    el.textContent = text;
  }
  return el;
}

// Rows cut long text, so the whole message is in the tooltip.
function setError(el, text) {
  el.title = text;
  return setText(el, text);
}

function span(className) {
  const s = document.createElement('span');
  s.className = className;
  return s;
}
