// The page draws the tooltips of `title` attributes itself, in place of the webview's:
// WebKitGTK's hung below the pointer over the tree's filter box, and stayed over a
// dialog a click had opened until the pointer moved. While the pointer is on an
// element, its title is held here (so the webview has none to show) and given back
// when the pointer leaves; the page's tooltip is placed where it covers no element of
// `avoid()`, and hides on a click, a key, a scroll and whenever a dialog opens. In an
// open modal dialog it is drawn inside it (the top layer covers anything else).

const SHOW_AFTER_MS = 500;
const GAP = 6; // between the element and its tooltip

/**
 * The top of a tooltip `box` (`{left, width, height}`) of an element at `anchor` (a
 * DOMRect) in a window `height` tall: below the element, else above it, else below one
 * of `shunned` (the rects it must not cover), whichever first fits the window and
 * covers none of them; below, kept in the window, when none does.
 */
export function tooltipTop(anchor, box, shunned, height) {
  const covers = (top) => shunned.some((r) => top < r.bottom && top + box.height > r.top
    && box.left < r.right && box.left + box.width > r.left);
  const fits = (top) => top >= 0 && top + box.height <= height;
  const below = anchor.bottom + GAP;
  const tops = [below, anchor.top - GAP - box.height, ...shunned.map((r) => r.bottom + GAP)];
  return tops.find((top) => fits(top) && !covers(top)) ?? Math.max(0, Math.min(below, height - box.height));
}

/** `tip`: the tooltip's element; `avoid()`: the elements no tooltip may cover. */
export function initTooltips(tip, avoid) {
  let anchor = null; // the element whose title is held
  let held = '';
  let timer = null;
  let pointerX = 0;

  function hide() {
    clearTimeout(timer);
    tip.hidden = true;
  }

  /** Gives the title back (unless the page set a new one meanwhile) and hides the tooltip. */
  function release() {
    hide();
    if (anchor && !anchor.hasAttribute('title')) anchor.setAttribute('title', held);
    anchor = null;
  }

  /** Holds `el`'s title as the tooltip's text. */
  function hold(el) {
    held = el.getAttribute('title');
    el.removeAttribute('title');
    if (!tip.hidden) tip.textContent = held;
  }

  function show() {
    const dialog = document.querySelector('dialog[open]');
    if (!anchor?.isConnected || (dialog && !dialog.contains(anchor))) return; // behind a dialog
    tip.textContent = held;
    const host = dialog ?? document.body;
    if (tip.parentElement !== host) host.append(tip);
    tip.hidden = false;
    const box = tip.getBoundingClientRect();
    const left = Math.max(4, Math.min(pointerX, innerWidth - box.width - 4));
    const shunned = avoid().filter((el) => getComputedStyle(el).visibility === 'visible' && el.getClientRects().length > 0)
      .map((el) => el.getBoundingClientRect());
    const top = tooltipTop(anchor.getBoundingClientRect(), { left, width: box.width, height: box.height }, shunned, innerHeight);
    tip.style.left = `${left}px`;
    tip.style.top = `${top}px`;
  }

  document.addEventListener('pointermove', (event) => {
    pointerX = event.clientX;
    const target = event.target instanceof Element ? event.target : null;
    if (anchor && anchor.contains(target)) {
      if (anchor.hasAttribute('title')) hold(anchor); // the page gave it a new title
      return;
    }
    release();
    const el = target?.closest('[title]');
    if (!el || el.getAttribute('title') === '') return; // an empty title asks for none
    anchor = el;
    hold(el);
    timer = setTimeout(show, SHOW_AFTER_MS);
  }, true);
  document.documentElement.addEventListener('pointerleave', release);
  for (const type of ['pointerdown', 'keydown', 'wheel']) document.addEventListener(type, hide, true);
  document.addEventListener('scroll', hide, true);
  // A dialog opened by the page itself, with no click or key.
  new MutationObserver(hide).observe(document.body, { subtree: true, attributeFilter: ['open'] });
}
