// The Quality tab: every shell of the plant's snapshot (the one on screen, or the
// newest complete one) audited against the IDTA submodel templates it claims. It
// shows, per template, how many shells carry it and how many are complete; the groups
// of findings, most frequent first; and for the group chosen, the shells with that
// gap. Enter on a gap opens it in the tree. The audit runs as a job on the Rust side
// (progress, Cancel); the findings export from there as XLSX, CSV or JSON.

import * as api from '../lib/api.js';
import { problemWords, sameSnapshot, snapshotKey, snapshotName } from '../snapshots/snapshot-model.js';
import {
  gapPlace, kindWords, nearMissWords, percentComplete, placeWords, progressWords, summaryLine,
  verdictLine, withoutTemplateLine,
} from './quality-model.js';

const GAPS_PAGE = 100; // gaps asked at once

/**
 * `els`: type (the asset type select), run, bar, cancel, status, verdict, groups (the
 * groups' tbody), groupsViewport, gaps (tbody), gapsViewport, gapsTitle, more,
 * exportXlsx, exportCsv, exportJson. `plant()`, `snapshot()` (the one on screen, or
 * null) and `assetTypes()` say what to audit; `snapshots()` the plant's (to name the one
 * audited as the snapshots list does); `open(gap, snapshot)` shows a gap of the
 * snapshot audited in the tree.
 * Returns `{show}`: audits what is on screen, unless the view shows its audit already.
 */
export function initQuality(els, { plant, snapshot, snapshots, assetTypes, open }) {
  let summary = null;
  let audited = null; // the key the audit on screen was made for
  let running = false;
  let cancelled = false;
  let groupCursor = 0;
  let gapCursor = 0;
  let gaps = []; // the chosen group's gaps asked so far
  let gapsTotal = 0;
  let gapsAsked = 0; // bumped by every group chosen: older answers are dropped
  const noGroupTitle = els.gapsTitle.textContent; // the page's words while no group is chosen

  const key = () => `${plant()}|${els.type.value}|${snapshot() ? snapshotKey(snapshot()) : 'latest'}`;
  // Opening a gap browses the snapshot audited: that shows the same audit still.
  const showing = () => summary && audited && (audited === key()
    || (audited.startsWith(`${plant()}|${els.type.value}|`) && sameSnapshot(snapshot(), summary.snapshot)));

  /** Fills the asset type choice: every type, or one. */
  function fillTypes() {
    const chosen = els.type.value;
    const types = assetTypes();
    els.type.replaceChildren(new Option('every asset type', ''), ...types.map((t) => new Option(`${t} assets`, t)));
    els.type.value = types.includes(chosen) ? chosen : '';
  }

  /** Audits what is on screen, unless the view shows that audit already (or one runs). */
  async function show(force = false) {
    if (els.type.options.length === 0) fillTypes();
    if (running || (!force && showing())) return;
    if (!plant()) return;
    const asked = key();
    audited = asked;
    running = true;
    cancelled = false;
    clear();
    els.run.disabled = true;
    els.bar.hidden = false;
    els.bar.removeAttribute('value');
    els.cancel.hidden = false;
    els.status.textContent = 'Auditing the snapshot…';
    const request = {
      plant: plant(), snapshot: snapshot(), asset_type: els.type.value || null, languages: [],
    };
    let finished = false; // a progress message may arrive after the answer
    try {
      summary = await api.auditPlant(request, (p) => {
        if (finished) return;
        els.bar.max = Math.max(p.shells, 1);
        els.bar.value = p.shells_done;
        els.status.textContent = progressWords(p);
      });
    } catch (e) {
      summary = null;
      audited = null; // asked again next time the tab is shown
      els.status.textContent = cancelled ? 'Audit cancelled: Audit again starts it anew.' : problemWords(e);
      return;
    } finally {
      finished = true;
      running = false;
      els.run.disabled = false;
      els.bar.hidden = true;
      els.cancel.hidden = true;
    }
    // Another profile (reset), plant or snapshot meanwhile: this audit is not of what is on screen.
    if (audited !== asked || key() !== asked) {
      summary = null;
      show();
      return;
    }
    drawSummary();
  }

  function clear() {
    summary = null;
    els.gapsTitle.textContent = noGroupTitle;
    els.verdict.replaceChildren();
    els.groups.replaceChildren();
    els.gaps.replaceChildren();
    els.more.hidden = true;
    for (const b of [els.exportXlsx, els.exportCsv, els.exportJson]) b.disabled = true;
  }

  function drawSummary() {
    const s = summary;
    els.status.textContent = `${summaryLine(s)} · ${snapshotName(s.snapshot, snapshots())}`;
    const lines = s.templates.filter((t) => t.shells > 0 || t.near_misses > 0).map((t) => {
      const li = document.createElement('li');
      const meter = document.createElement('meter');
      meter.min = 0;
      meter.max = Math.max(t.shells, 1);
      meter.value = t.complete;
      meter.low = meter.max * 0.9;
      meter.optimum = meter.max;
      meter.setAttribute('aria-hidden', 'true');
      const words = document.createElement('span');
      words.textContent = `${verdictLine(t, s.asset_type)} (${percentComplete(t)} %)`;
      words.title = t.origin;
      li.append(meter, words);
      const near = nearMissWords(t);
      if (near) li.append(Object.assign(document.createElement('span'), { className: 'muted', textContent: ` · ${near}` }));
      return li;
    });
    const without = withoutTemplateLine(s);
    if (without) lines.push(Object.assign(document.createElement('li'), { className: 'muted', textContent: without }));
    const carried = new Set(s.templates.filter((t) => t.shells > 0).map((t) => t.title));
    const none = s.templates.filter((t) => !carried.has(t.title) && t.near_misses === 0).map((t) => t.title);
    if (none.length) {
      lines.push(Object.assign(document.createElement('li'), { className: 'muted', textContent: `No shell carries: ${none.join(', ')}` }));
    }
    els.verdict.replaceChildren(...lines);
    for (const b of [els.exportXlsx, els.exportCsv, els.exportJson]) b.disabled = false;
    groupCursor = 0;
    drawGroups();
    if (s.groups.length) chooseGroup(0);
    else els.gapsTitle.textContent = 'No findings: every shell carries what its templates require.';
  }

  function drawGroups() {
    const rows = summary.groups.map((g, i) => {
      const tr = document.createElement('tr');
      tr.dataset.severity = g.severity;
      const cells = [
        [g.severity, 'severity'], [g.findings.toLocaleString('en-US'), 'number'], [g.shells.toLocaleString('en-US'), 'number'],
        [`${kindWords(g.kind)}${g.rule ? ` (${g.rule})` : ''}`, 'what'], [placeWords(g.template_path), ''], [g.template, ''],
      ];
      for (const [text, css] of cells) {
        const td = document.createElement('td');
        td.textContent = text;
        td.title = text;
        if (css) td.className = css;
        tr.append(td);
      }
      if (i === groupCursor) tr.classList.add('cursor');
      tr.setAttribute('aria-selected', String(i === groupCursor));
      tr.addEventListener('click', () => chooseGroup(i));
      tr.addEventListener('dblclick', () => els.gapsViewport.focus());
      return tr;
    });
    els.groups.replaceChildren(...rows);
  }

  /** Makes group `i` the chosen one and lists its first gaps. */
  async function chooseGroup(i) {
    if (!summary || summary.groups.length === 0) return;
    groupCursor = Math.max(0, Math.min(summary.groups.length - 1, i));
    for (const [n, tr] of [...els.groups.children].entries()) {
      tr.classList.toggle('cursor', n === groupCursor);
      tr.setAttribute('aria-selected', String(n === groupCursor));
    }
    els.groups.children[groupCursor]?.scrollIntoView({ block: 'nearest' });
    const g = summary.groups[groupCursor];
    els.gapsTitle.textContent = `Shells with: ${g.template} · ${placeWords(g.template_path)} · ${kindWords(g.kind)}`;
    gaps = [];
    gapCursor = 0;
    gapsAsked += 1;
    await moreGaps();
  }

  async function moreGaps() {
    const asked = gapsAsked;
    const g = summary.groups[groupCursor];
    let page;
    try {
      page = await api.auditGroup(g.group, gaps.length, GAPS_PAGE);
    } catch (e) {
      els.status.textContent = problemWords(e);
      return;
    }
    if (asked !== gapsAsked) return;
    gaps = gaps.concat(page.gaps);
    gapsTotal = page.total;
    drawGaps();
  }

  function drawGaps() {
    const rows = gaps.map((gap, i) => {
      const tr = document.createElement('tr');
      for (const text of [gap.id_short, gap.asset_type ?? '', gapPlace(gap), gap.seen]) {
        const td = document.createElement('td');
        td.textContent = text;
        td.title = text;
        tr.append(td);
      }
      if (i === gapCursor) tr.classList.add('cursor');
      tr.setAttribute('aria-selected', String(i === gapCursor));
      tr.title = 'Enter or double-click: open it in the tree';
      tr.addEventListener('click', () => moveGap(i));
      tr.addEventListener('dblclick', () => open(gaps[i], summary.snapshot));
      return tr;
    });
    els.gaps.replaceChildren(...rows);
    els.more.hidden = gaps.length >= gapsTotal;
    els.more.textContent = `Show more (${gaps.length.toLocaleString('en-US')} of ${gapsTotal.toLocaleString('en-US')} shown)`;
  }

  function moveGap(i) {
    if (gaps.length === 0) return;
    gapCursor = Math.max(0, Math.min(gaps.length - 1, i));
    for (const [n, tr] of [...els.gaps.children].entries()) {
      tr.classList.toggle('cursor', n === gapCursor);
      tr.setAttribute('aria-selected', String(n === gapCursor));
    }
    els.gaps.children[gapCursor]?.scrollIntoView({ block: 'nearest' });
  }

  /**
   * Arrow keys, Page Up/Down, Home and End move `cursor()` in the list of `viewport` (26-pixel rows) by
   * calling `move(row)`; `more` maps further keys to what they do.
   */
  function listKeys(viewport, cursor, move, more) {
    viewport.addEventListener('keydown', (event) => {
      const page = Math.max(1, Math.floor(viewport.clientHeight / 26) - 2);
      const moves = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
      if (event.key in moves) move(cursor() + moves[event.key]);
      else if (event.key === 'Home') move(0);
      else if (event.key === 'End') move(Infinity);
      else if (Object.hasOwn(more, event.key)) more[event.key]();
      else return;
      event.preventDefault();
    });
  }
  const toGaps = () => els.gapsViewport.focus();
  listKeys(els.groupsViewport, () => groupCursor, chooseGroup, { Enter: toGaps, ArrowRight: toGaps });
  const toGroups = () => els.groupsViewport.focus();
  const openGap = () => gaps[gapCursor] && open(gaps[gapCursor], summary.snapshot);
  listKeys(els.gapsViewport, () => gapCursor, moveGap, { Enter: openGap, Escape: toGroups, ArrowLeft: toGroups });
  els.more.addEventListener('click', moreGaps);
  els.run.addEventListener('click', () => show(true));
  els.type.addEventListener('change', () => show(true));
  els.cancel.addEventListener('click', () => {
    cancelled = true;
    api.cancelJob();
  });
  for (const [button, format] of [[els.exportXlsx, 'xlsx'], [els.exportCsv, 'csv'], [els.exportJson, 'json']]) {
    button.addEventListener('click', async () => {
      try {
        const path = await api.exportAudit(format);
        if (path) els.status.textContent = `Saved ${path}`;
      } catch (e) {
        els.status.textContent = problemWords(e);
      }
    });
  }

  return {
    show,
    /** Another profile: its asset types, and nothing of the last one's audit. */
    reset() {
      fillTypes();
      audited = null;
      clear();
      els.status.textContent = '';
    },
  };
}
