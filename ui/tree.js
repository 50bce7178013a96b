// The tree on screen: renders the visible rows of the tree model as ARIA treeitems,
// loads children on expand (spinner, error with Retry), and handles mouse and keyboard.

import { adopt, isExpandable, navigate, visibleRows } from './tree-model.js';
import { badgeFor } from './format.js';

export class TreeView {
  constructor(list, { onSelect }) {
    this.list = list;
    this.onSelect = onSelect;
    this.roots = [];
    this.rows = [];
    this.focusKey = null;
    this.selectedKey = null;
    list.addEventListener('click', (e) => this.#onClick(e));
    list.addEventListener('keydown', (e) => this.#onKey(e));
  }

  setRoots(nodes) {
    this.roots = nodes;
    this.focusKey = nodes[0]?.key ?? null;
    this.selectedKey = null;
    this.render();
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
        node.error = error;
        node.expanded = false;
      }
    }
    this.render();
  }

  collapse(node) {
    node.expanded = false;
    this.render();
  }

  select(node) {
    this.selectedKey = node.key;
    this.focusKey = node.key;
    this.render();
    this.onSelect(node);
  }

  render() {
    const hadFocus = this.list.contains(document.activeElement);
    this.rows = visibleRows(this.roots);
    if (!this.rows.some((r) => r.node.key === this.focusKey)) this.focusKey = this.rows[0]?.node.key ?? null;
    this.list.replaceChildren(...this.rows.map((row) => this.#renderRow(row)));
    if (hadFocus) this.list.querySelector('[tabindex="0"]')?.focus();
  }

  #renderRow({ node, depth }) {
    const li = document.createElement('li');
    li.setAttribute('role', 'treeitem');
    li.setAttribute('aria-level', String(depth));
    li.setAttribute('aria-selected', String(node.key === this.selectedKey));
    if (isExpandable(node)) li.setAttribute('aria-expanded', String(node.expanded));
    li.tabIndex = node.key === this.focusKey ? 0 : -1;
    li.dataset.key = node.key;
    li.dataset.label = node.label;
    li.style.setProperty('--depth', String(depth - 1));

    const twisty = span('twisty', isExpandable(node) ? (node.expanded ? '▾' : '▸') : '');
    twisty.setAttribute('aria-hidden', 'true');
    const badge = badgeFor(node.data?.model_type);
    li.append(twisty, span(`badge ${badge.css}`, badge.text), span('label', node.label));
    const value = node.data?.value;
    if (value) li.append(span('value', value));
    if (node.data?.error) li.append(span('node-error', `cannot read: ${node.data.error}`));
    if (node.state === 'loading') li.append(span('spinner', ''));
    if (node.state === 'error') {
      const retry = document.createElement('button');
      retry.type = 'button';
      retry.className = 'retry';
      retry.textContent = 'Retry';
      li.append(span('node-error', node.error.message), retry);
    }
    return li;
  }

  #rowNode(target) {
    const li = target.closest('li[role="treeitem"]');
    return li ? this.rows.find((r) => r.node.key === li.dataset.key)?.node : null;
  }

  #onClick(e) {
    const node = this.#rowNode(e.target);
    if (!node) return;
    if (e.target.classList.contains('retry')) {
      node.state = 'idle';
      this.expand(node);
    } else if (e.target.classList.contains('twisty')) {
      node.expanded ? this.collapse(node) : this.expand(node);
    } else {
      this.select(node);
    }
  }

  #onKey(e) {
    const index = this.rows.findIndex((r) => r.node.key === this.focusKey);
    if (index < 0) return;
    const node = this.rows[index].node;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.select(node);
      if (!node.expanded) this.expand(node);
      return;
    }
    const move = navigate(this.rows, index, e.key);
    if (move.index === index && move.action === null && !['Home', 'End', 'ArrowUp', 'ArrowDown'].includes(e.key)) return;
    e.preventDefault();
    if (move.action === 'expand') this.expand(node);
    else if (move.action === 'collapse') this.collapse(node);
    else {
      this.focusKey = this.rows[move.index].node.key;
      this.render();
    }
  }
}

function span(className, text) {
  const s = document.createElement('span');
  s.className = className;
  s.textContent = text;
  return s;
}
