import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  gapNote, gapPlace, kindWords, nearMissWords, percentComplete, placeWords, progressWords, shellsWord, summaryLine,
  verdictLine, withoutTemplateLine,
} from '../../ui/quality/quality-model.js';

const line = { title: 'Digital Nameplate 3.0', origin: 'built in', shells: 10000, complete: 8212, near_misses: 0 };

test('the verdict per template counts shells, by their asset type when one was audited', () => {
  assert.equal(verdictLine(line, 'machine'), 'Digital Nameplate 3.0: 8,212 of 10,000 machines complete');
  assert.equal(verdictLine({ ...line, shells: 1, complete: 0 }, null), 'Digital Nameplate 3.0: 0 of 1 shell complete');
  assert.equal(shellsWord(1, 'machine'), 'machine');
});

test('a share complete is never rounded up to 100 %', () => {
  assert.equal(percentComplete(line), 82);
  assert.equal(percentComplete({ shells: 1000, complete: 999 }), 99);
  assert.equal(percentComplete({ shells: 0, complete: 0 }), 0);
});

test('near misses and shells without a template are said, not hidden', () => {
  assert.equal(nearMissWords(line), '');
  assert.match(nearMissWords({ ...line, near_misses: 1 }), /^1 near miss .*not judged$/);
  assert.match(nearMissWords({ ...line, near_misses: 3 }), /^3 near misses/);
  assert.equal(withoutTemplateLine({ without_template: 0 }), '');
  assert.equal(withoutTemplateLine({ without_template: 37, asset_type: 'machine' }),
    '37 machines carry no submodel of a known template');
  assert.equal(withoutTemplateLine({ without_template: 1, asset_type: null }),
    '1 shell carries no submodel of a known template');
});

test('the summary line says errors, warnings and a partial snapshot', () => {
  const s = { shells: 480, asset_type: null, errors: 12, shells_with_errors: 9, warnings: 1, partial: false };
  assert.equal(summaryLine(s), '480 shells audited: 12 errors in 9 shells, 1 warning');
  assert.equal(summaryLine({ ...s, errors: 0, warnings: 0 }), '480 shells audited: no errors, 0 warnings');
  assert.match(summaryLine({ ...s, partial: true }), /partial: this is the verdict of what it holds$/);
});

test('a group says where and what in words', () => {
  assert.equal(placeWords(''), 'the submodel');
  assert.equal(placeWords('Document__00__/DocumentId'), 'Document__00__/DocumentId');
  assert.equal(kindWords('too_many'), 'more than allowed');
  assert.equal(kindWords('something_new'), 'something new');
});

test('a gap is placed and named as the tree shows it', () => {
  const missing = {
    submodel: 'Nameplate', open: ['Markings'], named: 'Marking', kind: 'missing', rule: 'cardinality OneToMany', seen: '',
  };
  assert.equal(gapPlace(missing), 'Nameplate › Markings › Marking');
  assert.equal(gapNote(missing), 'Missing here: Marking. The template says: cardinality OneToMany.');
  const mistyped = {
    submodel: 'Nameplate', open: ['YearOfConstruction'], named: null, kind: 'value_not_of_type', rule: 'value type xs:gYear', seen: '"last year"',
  };
  assert.equal(gapPlace(mistyped), 'Nameplate › YearOfConstruction');
  assert.equal(gapNote(mistyped), 'Value not of its type. The template says: value type xs:gYear. Seen: "last year".');
  const wrongKind = { ...mistyped, kind: 'wrong_model_type', rule: 'expected MultiLanguageProperty', seen: 'Property' };
  assert.equal(gapNote(wrongKind), 'Wrong model type: expected MultiLanguageProperty, found Property.');
  assert.equal(gapNote({ ...missing, kind: 'too_many', seen: '2 elements: A, B' }),
    'More Marking here than allowed. The template says: cardinality OneToMany. Seen: 2 elements: A, B.');
});

test('progress counts shells', () => {
  assert.equal(progressWords({ shells_done: 2500, shells: 10000 }), 'Auditing: 2,500 of 10,000 shells');
});
