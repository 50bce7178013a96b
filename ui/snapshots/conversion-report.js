// Show report: the conversion report of the last V3 export or conversion, read by the
// app (api.conversionReport), shown rule by rule: what each rule did, how often, and
// its first changes with their path in the source, the value there and what the file
// holds instead. The report file beside the export holds every change.

import * as api from '../lib/api.js';
import { plural } from '../lib/format.js';
import { fileName } from './export-formats.js';

/**
 * The dialog's heading line for `report` (what ConversionReport serialises to); its
 * `source` is the report's own words (a file and its version, or a plant as read then).
 */
export function reportHeading(report) {
  const changes = report.total === 0 ? 'no changes' : plural(report.total, 'change');
  return `${report.target}: ${changes} writing ${fileName(report.written)} from ${report.source}`;
}

/** Below a rule's first changes: how many more the report file lists, if any. */
export function moreText(rule) {
  const more = rule.count - rule.changes.length;
  return more > 0 ? `… and ${plural(more, 'more change')}: the report file lists every one.` : '';
}

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

/** One rule: a disclosure (name, count, meaning) holding the table of its first changes. */
function ruleSection(rule) {
  const details = document.createElement('details');
  details.className = 'report-rule';
  details.dataset.rule = rule.rule;
  const summary = document.createElement('summary');
  const name = document.createElement('strong');
  name.textContent = `${rule.rule} (${rule.count})`;
  summary.append(name, ` ${rule.meaning}`);
  const table = document.createElement('table');
  table.className = 'report-changes';
  const head = table.createTHead().insertRow();
  for (const title of ['Where in the source', 'Was', 'Now']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = title;
    head.append(th);
  }
  const body = table.createTBody();
  for (const change of rule.changes) {
    const tr = body.insertRow();
    tr.append(cell(change.path || '(the top of the file)', 'report-path'), cell(change.was, 'report-value'),
      cell(change.now ?? '(left out)', 'report-value'));
  }
  details.append(summary, table);
  const more = moreText(rule);
  if (more) {
    const p = document.createElement('p');
    p.className = 'hint';
    p.textContent = more;
    details.append(p);
  }
  return details;
}

/** `els`: show (the button beside the export's line), dialog, heading, rules, status, close. */
export function initConversionReport(els) {
  els.close.addEventListener('click', () => els.dialog.close());
  els.show.addEventListener('click', async () => {
    els.heading.textContent = 'Reading the report…';
    els.rules.replaceChildren();
    els.status.textContent = '';
    els.dialog.showModal();
    try {
      const report = await api.conversionReport();
      els.heading.textContent = reportHeading(report);
      els.rules.replaceChildren(...report.rules.map(ruleSection));
      els.status.textContent = report.total === 0 ? 'The file holds everything as it was.' : '';
    } catch (e) {
      els.heading.textContent = 'The report cannot be shown';
      els.status.textContent = e.message;
    }
  });
}
