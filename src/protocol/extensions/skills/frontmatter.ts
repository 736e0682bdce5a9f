/**
 * The YAML frontmatter of a SKILL.md, read for verification (SEP-2640: parse it and compare it field by field with
 * the listing). This reads the subset skills use: block mappings and sequences, plain / quoted / block scalars,
 * one-line flow collections, comments, with YAML 1.2 core-schema typing. Anything outside the subset (anchors,
 * aliases, tags, complex keys, several documents) is refused rather than read differently from a full YAML parser:
 * a refusal fails verification, which is the safe side.
 */
import { isObject } from '../../guards';

export class FrontmatterError extends Error {
  override readonly name = 'FrontmatterError';
}

interface SkillMarkdown {
  frontmatter: Record<string, unknown>;
  body: string;
}

const MAX_DEPTH = 16;

/** Splits a SKILL.md into its frontmatter (parsed) and its Markdown body. */
export function parseSkillMarkdown(markdown: string): SkillMarkdown {
  let text = markdown.replace(/\r\n/g, '\n');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text.startsWith('---\n')) throw new FrontmatterError('SKILL.md does not begin with a "---" line');
  const rest = text.slice(4);
  const close = /^---[ \t]*$/m.exec(rest);
  if (!close) throw new FrontmatterError('the frontmatter has no closing "---" line');
  let body = rest.slice(close.index + close[0].length);
  if (body.startsWith('\n')) body = body.slice(1);
  return { frontmatter: parseFrontmatterYaml(rest.slice(0, close.index)), body };
}

interface Line {
  no: number;
  indent: number;
  text: string;
}

function parseFrontmatterYaml(yaml: string): Record<string, unknown> {
  const lines: Line[] = yaml.split('\n').map((raw, index) => {
    const indent = /^ */.exec(raw)![0].length;
    if (raw[indent] === '\t') throw new FrontmatterError(`line ${index + 2}: tabs cannot indent YAML`);
    return { no: index + 2, indent, text: raw.slice(indent).replace(/[ \t]+$/, '') };
  });
  const reader = new Reader(lines);
  const first = reader.peek();
  if (!first) return {};
  if (first.indent !== 0) throw new FrontmatterError(`line ${first.no}: unexpected indentation`);
  const value = reader.block(0, 0);
  const extra = reader.peek();
  if (extra) throw new FrontmatterError(`line ${extra.no}: unexpected content`);
  if (!isObject(value)) throw new FrontmatterError('the frontmatter is not a mapping of keys to values');
  return value as Record<string, unknown>;
}

class Reader {
  private index = 0;
  constructor(private readonly lines: Line[]) {}

  peek(): Line | undefined {
    while (
      this.index < this.lines.length &&
      (this.lines[this.index].text === '' || this.lines[this.index].text.startsWith('#'))
    )
      this.index++;
    return this.lines[this.index];
  }

  /** A block node whose lines start at `indent`: a sequence (`- `) or a mapping (`key: value`). */
  block(indent: number, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new FrontmatterError('the frontmatter nests too deeply');
    const first = this.peek()!;
    return isItem(first.text) ? this.sequence(indent, depth) : this.mapping(indent, depth);
  }

  private mapping(indent: number, depth: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    for (let line = this.peek(); line && line.indent === indent && !isItem(line.text); line = this.peek()) {
      const { key, rest } = splitKey(line);
      if (Object.prototype.hasOwnProperty.call(map, key))
        throw new FrontmatterError(`line ${line.no}: duplicate key "${key}"`);
      this.index++;
      Object.defineProperty(map, key, {
        value: this.value(rest, line, indent, depth, true),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    const next = this.peek();
    if (next && next.indent > indent) throw new FrontmatterError(`line ${next.no}: unexpected indentation`);
    return map;
  }

  private sequence(indent: number, depth: number): unknown[] {
    const items: unknown[] = [];
    for (let line = this.peek(); line && line.indent === indent && isItem(line.text); line = this.peek()) {
      const after = line.text.slice(1);
      const rest = after.trimStart();
      if (rest !== '' && !rest.startsWith('#') && (isItem(rest) || findColon(rest) >= 0)) {
        // `- key: value` starts a block node at the column after the dash: re-read this line there.
        const column = indent + 1 + (after.length - rest.length);
        this.lines[this.index] = { no: line.no, indent: column, text: rest };
        items.push(this.block(column, depth + 1));
        continue;
      }
      this.index++;
      items.push(this.value(rest, line, indent, depth, false));
    }
    const next = this.peek();
    if (next && next.indent > indent) throw new FrontmatterError(`line ${next.no}: unexpected indentation`);
    return items;
  }

  /** The value after `key:` or `- ` on `line`: inline, a block scalar, or a nested block on the following lines. */
  private value(rest: string, line: Line, parentIndent: number, depth: number, inMapping: boolean): unknown {
    if (rest === '' || rest.startsWith('#')) {
      const next = this.peek();
      if (next && next.indent > parentIndent) return this.block(next.indent, depth + 1);
      // `key:` followed by `- item` lines at the same indentation is a sequence (compact YAML).
      if (inMapping && next && next.indent === parentIndent && isItem(next.text))
        return this.sequence(parentIndent, depth + 1);
      return null;
    }
    const head = rest[0];
    if (head === '&' || head === '*' || head === '!' || head === '?' || head === '%' || head === '@' || head === '`') {
      throw new FrontmatterError(
        `line ${line.no}: anchors, aliases, tags and complex keys are not supported in skill frontmatter`,
      );
    }
    if (head === '|' || head === '>') return this.blockScalar(rest, line, parentIndent);
    if (head === '"' || head === "'") {
      const { value, end } = quoted(rest, line.no);
      const tail = rest.slice(end).trim();
      if (tail !== '' && !tail.startsWith('#'))
        throw new FrontmatterError(`line ${line.no}: unexpected text after a quoted value`);
      return value;
    }
    if (head === '[' || head === '{') return flow(rest, line.no);
    // A plain scalar may continue on more-indented lines (folded with spaces).
    let text = stripComment(rest);
    if (/: |:$/.test(text)) throw new FrontmatterError(`line ${line.no}: a plain value cannot contain ": " (quote it)`);
    for (let next = this.peekRaw(); next && next.indent > parentIndent && next.text !== ''; next = this.peekRaw()) {
      if (next.text.startsWith('#') || findColon(next.text) >= 0 || isItem(next.text))
        throw new FrontmatterError(`line ${next.no}: unexpected content in a multi-line value`);
      text += ` ${stripComment(next.text)}`;
      this.index++;
    }
    return typed(text);
  }

  /** The next line, blank lines included (they end a multi-line plain scalar). */
  private peekRaw(): Line | undefined {
    return this.lines[this.index];
  }

  private blockScalar(header: string, line: Line, parentIndent: number): string {
    const match = /^([|>])([+-]?)(?:[ \t]+#.*)?$/.exec(header);
    if (!match) throw new FrontmatterError(`line ${line.no}: unsupported block scalar header "${header}"`);
    const [, style, chomp] = match;
    const body: string[] = [];
    let indent: number | undefined;
    while (this.index < this.lines.length) {
      const next = this.lines[this.index];
      if (next.text === '') {
        body.push('');
        this.index++;
        continue;
      }
      if (next.indent <= parentIndent) break;
      indent ??= next.indent;
      if (next.indent < indent) break;
      body.push(`${' '.repeat(next.indent - indent)}${next.text}`);
      this.index++;
    }
    let trailing = 0;
    while (body.length > 0 && body[body.length - 1] === '') {
      body.pop();
      trailing++;
    }
    const joined = style === '|' ? body.join('\n') : fold(body);
    if (joined === '') return '';
    if (chomp === '-') return joined;
    if (chomp === '+') return `${joined}\n${'\n'.repeat(trailing)}`;
    return `${joined}\n`;
  }
}

function fold(lines: string[]): string {
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const current = lines[i];
    if (i === 0) out = current;
    else if (current === '' || current.startsWith(' ')) out += `\n${current}`;
    else out += lines[i - 1] === '' || lines[i - 1].startsWith(' ') ? current : ` ${current}`;
  }
  return out;
}

const isItem = (text: string): boolean => text === '-' || text.startsWith('- ');

/** The index of the `: ` (or final `:`) that ends a plain key, or -1. */
function findColon(text: string): number {
  if (text.startsWith('"') || text.startsWith("'")) {
    const { end } = quoted(text, 0);
    return text[end] === ':' && (end + 1 === text.length || text[end + 1] === ' ') ? end : -1;
  }
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '#' && i > 0 && text[i - 1] === ' ') return -1;
    if (text[i] === ':' && (i + 1 === text.length || text[i + 1] === ' ')) return i;
  }
  return -1;
}

function splitKey(line: Line): { key: string; rest: string } {
  const colon = findColon(line.text);
  if (colon < 0) throw new FrontmatterError(`line ${line.no}: expected "key: value"`);
  const rawKey = line.text.slice(0, colon);
  const key = rawKey.startsWith('"') || rawKey.startsWith("'") ? quoted(rawKey, line.no).value : rawKey.trim();
  if (key === '' || /^[&*!?|>%@`]/.test(key))
    throw new FrontmatterError(`line ${line.no}: unsupported key "${rawKey}"`);
  return { key, rest: line.text.slice(colon + 1).trim() };
}

function stripComment(text: string): string {
  const hash = text.search(/[ \t]#/);
  return (hash >= 0 ? text.slice(0, hash) : text).trim();
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_WIDTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/** A single- or double-quoted scalar on one line starting at text[0]; `end` is the index after its closing quote. */
function quoted(text: string, lineNo: number): { value: string; end: number } {
  const quote = text[0];
  let value = '';
  for (let i = 1; i < text.length; i++) {
    const ch = text[i];
    if (quote === "'") {
      if (ch !== "'") value += ch;
      else if (text[i + 1] === "'") {
        value += "'";
        i++;
      } else return { value, end: i + 1 };
      continue;
    }
    if (ch === '"') return { value, end: i + 1 };
    if (ch !== '\\') {
      value += ch;
      continue;
    }
    const escape = text[++i];
    const width = HEX_WIDTH[escape];
    if (width !== undefined) {
      const hex = text.slice(i + 1, i + 1 + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex))
        throw new FrontmatterError(`line ${lineNo}: bad \\${escape} escape`);
      value += String.fromCodePoint(parseInt(hex, 16));
      i += width;
    } else if (escape !== undefined && ESCAPES[escape] !== undefined) value += ESCAPES[escape];
    else throw new FrontmatterError(`line ${lineNo}: unknown escape \\${escape ?? ''}`);
  }
  throw new FrontmatterError(
    `line ${lineNo}: a quoted value is not closed on its line (multi-line quoted values are not supported)`,
  );
}

/** A one-line flow collection: `[a, "b", 3]` or `{k: v}`, nested allowed. */
function flow(text: string, lineNo: number): unknown {
  let i = 0;
  const fail = (why: string): never => {
    throw new FrontmatterError(`line ${lineNo}: ${why} in a flow collection`);
  };
  const skip = () => {
    while (text[i] === ' ') i++;
  };
  const scalar = (): unknown => {
    skip();
    if (text[i] === '[' || text[i] === '{') return node();
    if (text[i] === '"' || text[i] === "'") {
      const { value, end } = quoted(text.slice(i), lineNo);
      i += end;
      return value;
    }
    const start = i;
    while (i < text.length && !',]}'.includes(text[i]) && !(text[i] === ':' && text[i + 1] === ' ')) i++;
    const raw = text.slice(start, i).trim();
    if (/^[&*!?|>%@`#]/.test(raw)) fail(`unsupported value "${raw}"`);
    return typed(raw);
  };
  const node = (depth = 0): unknown => {
    if (depth > MAX_DEPTH) fail('nesting too deep');
    const open = text[i++];
    const close = open === '[' ? ']' : '}';
    const list: unknown[] = [];
    const map: Record<string, unknown> = {};
    skip();
    if (text[i] === close) return (i++, open === '[' ? list : map);
    for (;;) {
      if (open === '[') list.push(scalar());
      else {
        const key = scalar();
        skip();
        if (text[i] !== ':') fail('expected ":"');
        i++;
        if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean') fail('unsupported key');
        Object.defineProperty(map, String(key), {
          value: scalar(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      skip();
      if (text[i] === ',') {
        i++;
        skip();
        if (text[i] === close) return (i++, open === '[' ? list : map);
        continue;
      }
      if (text[i] === close) return (i++, open === '[' ? list : map);
      return fail('expected "," or a closing bracket');
    }
  };
  const value = node();
  const tail = text.slice(i).trim();
  if (tail !== '' && !tail.startsWith('#')) fail('unexpected text after the collection');
  return value;
}

/** YAML 1.2 core schema: null, booleans, integers and floats; everything else is a string. */
function typed(raw: string): unknown {
  if (raw === '' || raw === '~' || /^(null|Null|NULL)$/.test(raw)) return null;
  if (/^(true|True|TRUE)$/.test(raw)) return true;
  if (/^(false|False|FALSE)$/.test(raw)) return false;
  if (/^[-+]?[0-9]+$/.test(raw)) return Number(raw);
  if (/^0o[0-7]+$/.test(raw)) return parseInt(raw.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(raw)) return parseInt(raw.slice(2), 16);
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(raw)) return Number(raw);
  if (/^[-+]?\.(inf|Inf|INF)$/.test(raw)) return raw.startsWith('-') ? -Infinity : Infinity;
  if (/^\.(nan|NaN|NAN)$/.test(raw)) return NaN;
  return raw;
}
