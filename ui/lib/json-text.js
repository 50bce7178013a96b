// Pretty-prints JSON text without parsing it into values, so what is shown is exactly
// what the server sent: numbers keep their digits (1.50 stays 1.50), keys keep their
// order and duplicates, strings keep their escapes. Only whitespace changes.

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
