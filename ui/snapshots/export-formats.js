// The export formats the page offers, labelled with the AAS version they write, and the
// words for a conversion written. Pure (no DOM) but fillFormats.

/** Every export format, in the order offered; `group` names the AAS version (or none). */
export const EXPORT_FORMATS = [
  { value: 'env', label: 'AAS V2.0.1 environment JSON', group: 'AAS V2.0.1' },
  { value: 'aasx', label: 'AAS V2.0.1 AASX', group: 'AAS V2.0.1' },
  { value: 'v3-env', label: 'AAS V3.0 environment JSON', group: 'AAS V3.0' },
  { value: 'v3-aasx', label: 'AAS V3.0 AASX', group: 'AAS V3.0' },
  { value: 'v3.0-xml', label: 'AAS V3.0 environment XML', group: 'AAS V3.0' },
  { value: 'v3.0-aasx-xml', label: 'AAS V3.0 AASX with XML', group: 'AAS V3.0' },
  { value: 'v3.1-json', label: 'AAS V3.1 environment JSON', group: 'AAS V3.1' },
  { value: 'v3.1-aasx', label: 'AAS V3.1 AASX', group: 'AAS V3.1' },
  { value: 'v3.1-xml', label: 'AAS V3.1 environment XML', group: 'AAS V3.1' },
  { value: 'v3.1-aasx-xml', label: 'AAS V3.1 AASX with XML', group: 'AAS V3.1' },
  { value: 'raw', label: 'Raw bundle', group: 'Other' },
  { value: 'csv', label: 'CSV of properties', group: 'Other' },
];

/** The formats' values, as the export commands and the preference take them. */
export const FORMAT_VALUES = EXPORT_FORMATS.map((f) => f.value);

/** The formats by group, in the order offered: `[{group, formats: [{value, label}]}]`. */
export function formatGroups(formats = EXPORT_FORMATS) {
  const groups = [];
  for (const { value, label, group } of formats) {
    let last = groups.at(-1);
    if (last?.group !== group) groups.push(last = { group, formats: [] });
    last.formats.push({ value, label });
  }
  return groups;
}

/** Fills `select` with the formats, one optgroup per AAS version. */
export function fillFormats(select) {
  select.replaceChildren(...formatGroups().map(({ group, formats }) => {
    const optgroup = document.createElement('optgroup');
    optgroup.label = group;
    optgroup.append(...formats.map(({ value, label }) => new Option(label, value)));
    return optgroup;
  }));
}

/** The last part of `path`, separated by / or \ (the app runs on Windows too). */
export function fileName(path) {
  return String(path).split(/[\\/]/).pop();
}

/**
 * The line beside the progress bar after Convert a V2 file to V3…: the file written, by
 * name (its full path goes to the status bar, the conversion's line below the bar).
 */
export function convertedText(saved) {
  return `Converted to ${fileName(saved.path)}`;
}
