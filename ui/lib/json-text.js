// A node's text shown as it came, only its whitespace changed. JSON is pretty-printed
// without parsing it into values, so what is shown is exactly what the server sent:
// numbers keep their digits (1.50 stays 1.50), keys keep their order and duplicates,
// strings keep their escapes. A file's XML keeps its own layout, moved to the margin.

const WHITESPACE = new Set([' ', '\n', '\r', '\t']);

export function prettyJson(text, indent = '  ') {
  let out = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  const newline = () => '\n' + indent.repeat(depth);
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      out += c;
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (WHITESPACE.has(c)) continue;
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      let j = i + 1;
      while (j < text.length && WHITESPACE.has(text[j])) j += 1;
      if (text[j] === close) {
        out += c + close;
        i = j;
      } else {
        depth += 1;
        out += c + newline();
      }
    } else if (c === '}' || c === ']') {
      depth -= 1;
      out += newline() + c;
    } else if (c === ',') {
      out += ',' + newline();
    } else if (c === ':') {
      out += ': ';
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * An XML element's text from its start tag: its later lines keep the indentation they
 * had in the file, which its end tag's line shows; taken off, the element starts at the
 * left margin as its first line does. Only whitespace changes.
 */
export function dedented(xml) {
  const lines = xml.split('\n');
  const indent = lines.length > 1 ? /^[ \t]*/.exec(lines[lines.length - 1])[0] : '';
  return lines.map((line, i) => (i > 0 && line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n');
}
