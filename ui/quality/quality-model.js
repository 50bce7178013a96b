// The Quality view's words, free of the DOM: the verdict per template, a group of
// findings, one gap, and the note that names a gap in the details pane.

const count = (n) => n.toLocaleString('en-US');

/** `shells`, or the asset type's plural when one was audited (`machines`). */
export function shellsWord(n, assetType) {
  if (assetType) return n === 1 ? assetType : `${assetType}s`;
  return n === 1 ? 'shell' : 'shells';
}

/** The share complete, in whole percent rounded down: 99.9 % complete is not 100 %. */
export function percentComplete({ complete, shells }) {
  return shells === 0 ? 0 : Math.floor((complete * 100) / shells);
}

/** "Digital Nameplate 3.0: 812 of 1,000 machines complete". */
export function verdictLine(t, assetType) {
  return `${t.title}: ${count(t.complete)} of ${count(t.shells)} ${shellsWord(t.shells, assetType)} complete`;
}

/** What a template line adds: near misses (not judged). */
export function nearMissWords(t) {
  if (t.near_misses === 0) return '';
  return `${count(t.near_misses)} near ${t.near_misses === 1 ? 'miss' : 'misses'} (another version or a typo of its semanticId): not judged`;
}

/** The audit in one line: what was audited and what it found. */
export function summaryLine(s) {
  const what = shellsWord(s.shells, s.asset_type);
  const errors = s.errors === 0
    ? 'no errors'
    : `${count(s.errors)} ${s.errors === 1 ? 'error' : 'errors'} in ${count(s.shells_with_errors)} ${shellsWord(s.shells_with_errors, s.asset_type)}`;
  const warnings = `${count(s.warnings)} ${s.warnings === 1 ? 'warning' : 'warnings'}`;
  const partial = s.partial ? ' · the snapshot is partial: this is the verdict of what it holds' : '';
  return `${count(s.shells)} ${what} audited: ${errors}, ${warnings}${partial}`;
}

/** "37 machines carry no known template", or '' when every shell carries one. */
export function withoutTemplateLine(s) {
  if (s.without_template === 0) return '';
  const verb = s.without_template === 1 ? 'carries' : 'carry';
  return `${count(s.without_template)} ${shellsWord(s.without_template, s.asset_type)} ${verb} no submodel of a known template`;
}

const KIND_WORDS = {
  missing: 'missing',
  too_many: 'more than allowed',
  wrong_model_type: 'wrong model type',
  value_not_of_type: 'value not of its type',
  wrong_value_type: 'wrong value type',
  empty_value: 'empty value',
  missing_language: 'language missing',
  near_miss: 'near miss of the template',
  unreadable: 'unreadable',
};

/** A finding's kind in words. */
export const kindWords = (kind) => KIND_WORDS[kind] ?? kind.replaceAll('_', ' ');

/** Where in the template a group is: its path, or the submodel itself. */
export const placeWords = (templatePath) => templatePath || 'the submodel';

/** A gap's place as the tree shows it: `Nameplate › Markings › Marking01`. */
export function gapPlace(gap) {
  return [gap.submodel, ...gap.open, ...(gap.named ? [gap.named] : [])].join(' › ');
}

/**
 * The note the details pane shows above an opened gap: the element that is missing
 * (or too many) named on its parent, else what is wrong with the element selected.
 */
export function gapNote(gap) {
  const rule = gap.rule ? ` The template says: ${gap.rule}.` : '';
  const seen = gap.seen ? ` Seen: ${gap.seen}.` : '';
  if (gap.kind === 'missing') return `Missing here: ${gap.named}.${rule}`;
  if (gap.kind === 'too_many') return `More ${gap.named} here than allowed.${rule}${seen}`;
  // The rule says which kind was expected: the note says which was found beside it.
  if (gap.kind === 'wrong_model_type') return `Wrong model type: ${gap.rule}, found ${gap.seen}.`;
  return `${kindWords(gap.kind).replace(/^./, (c) => c.toUpperCase())}.${rule}${seen}`;
}

/** The progress bar's words. */
export const progressWords = (p) => `Auditing: ${count(p.shells_done)} of ${count(p.shells)} shells`;
