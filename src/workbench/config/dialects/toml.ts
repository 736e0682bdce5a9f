import { positionAt, type JsonSyntaxProblem } from '../jsonSyntax';

/**
 * A bounded TOML reader for what Codex's `config.toml` uses: tables (`[a.b]`, quoted keys), dotted keys, basic,
 * literal and multi-line strings, numbers, booleans, dates (kept as text), arrays and inline tables. It reads, never
 * writes (Codex's file is read-only here), runs in one pass over at most MAX_CONFIG_BYTES, and nests at most
 * MAX_DEPTH deep, so a hostile file costs linear time. Written by hand rather than taken from npm: the subset is small,
 * and a TOML package would add a dependency to the window's start-up chunk for one file.
 */

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

const MAX_DEPTH = 32;

class TomlError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
  ) {
    super(reason);
  }
}

export function parseToml(text: string): { value: TomlTable } | { problem: JsonSyntaxProblem } {
  try {
    return { value: new Reader(text).document() };
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    return { problem: { reason: error.reason, ...positionAt(text, error.offset), offset: error.offset, length: 1 } };
  }
}

const isObjectValue = (value: TomlValue | undefined): value is TomlTable =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  document(): TomlTable {
    const root: TomlTable = {};
    let table = root;
    for (;;) {
      this.skipBlankLines();
      if (this.at >= this.text.length) return root;
      if (this.text[this.at] === '[') {
        const arrayOfTables = this.text.startsWith('[[', this.at);
        this.at += arrayOfTables ? 2 : 1;
        const path = this.keyPath();
        this.expect(arrayOfTables ? ']]' : ']');
        table = arrayOfTables ? this.appendTable(root, path) : this.tableAt(root, path);
      } else {
        const path = this.keyPath();
        this.expect('=');
        const value = this.value(0);
        const parent = this.tableAt(table, path.slice(0, -1));
        const key = path[path.length - 1];
        if (key in parent) this.fail(`the key "${key}" is defined twice`);
        parent[key] = value;
      }
      this.endOfLine();
    }
  }

  private tableAt(root: TomlTable, path: readonly string[]): TomlTable {
    let table = root;
    for (const key of path) {
      let next = table[key];
      if (Array.isArray(next)) next = next[next.length - 1];
      if (next === undefined) {
        next = {};
        table[key] = next;
      }
      if (!isObjectValue(next)) this.fail(`"${key}" is a value, not a table`);
      table = next;
    }
    return table;
  }

  private appendTable(root: TomlTable, path: readonly string[]): TomlTable {
    const parent = this.tableAt(root, path.slice(0, -1));
    const key = path[path.length - 1];
    const list = parent[key] ?? [];
    if (!Array.isArray(list)) this.fail(`"${key}" is not an array of tables`);
    const table: TomlTable = {};
    list.push(table);
    parent[key] = list;
    return table;
  }

  private keyPath(): string[] {
    const path: string[] = [];
    for (;;) {
      this.skipSpaces();
      path.push(this.key());
      this.skipSpaces();
      if (this.text[this.at] !== '.') return path;
      this.at++;
    }
  }

  private key(): string {
    const char = this.text[this.at];
    if (char === '"') return this.basicString();
    if (char === "'") return this.literalString();
    const match = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.at, this.at + 256));
    if (!match) this.fail('expected a key');
    this.at += match[0].length;
    return match[0];
  }

  private value(depth: number): TomlValue {
    if (depth > MAX_DEPTH) this.fail(`nested more than ${MAX_DEPTH} deep`);
    this.skipSpaces();
    const rest = this.text.slice(this.at, this.at + 64);
    if (rest.startsWith('"""')) return this.multiline('"""');
    if (rest.startsWith("'''")) return this.multiline("'''");
    switch (rest[0]) {
      case '"':
        return this.basicString();
      case "'":
        return this.literalString();
      case '[':
        return this.array(depth);
      case '{':
        return this.inlineTable(depth);
      default:
        break;
    }
    const word = /^[A-Za-z0-9_+\-.:]+/.exec(rest)?.[0];
    if (!word) this.fail('expected a value');
    this.at += word.length;
    if (word === 'true' || word === 'false') return word === 'true';
    const number = Number(word.replace(/_/g, ''));
    // Dates and times stay text: nothing Codex's servers use is a date.
    return /^[+-]?(\d[\d_]*)(\.\d[\d_]*)?([eE][+-]?\d+)?$/.test(word) && Number.isFinite(number) ? number : word;
  }

  private array(depth: number): TomlValue[] {
    this.at++;
    const items: TomlValue[] = [];
    for (;;) {
      this.skipBlankLines();
      if (this.text[this.at] === ']') {
        this.at++;
        return items;
      }
      items.push(this.value(depth + 1));
      this.skipBlankLines();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] !== ']') this.fail('expected "," or "]"');
    }
  }

  private inlineTable(depth: number): TomlTable {
    this.at++;
    const table: TomlTable = {};
    this.skipSpaces();
    if (this.text[this.at] === '}') {
      this.at++;
      return table;
    }
    for (;;) {
      const path = this.keyPath();
      this.expect('=');
      const parent = this.tableAt(table, path.slice(0, -1));
      parent[path[path.length - 1]] = this.value(depth + 1);
      this.skipSpaces();
      if (this.text[this.at] === '}') {
        this.at++;
        return table;
      }
      this.expect(',');
    }
  }

  private basicString(): string {
    this.at++;
    let result = '';
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined || char === '\n') this.fail('a string is not closed');
      this.at++;
      if (char === '"') return result;
      result += char === '\\' ? this.escape() : char;
    }
  }

  private escape(): string {
    const char = this.text[this.at++];
    const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
    if (char !== undefined && simple[char] !== undefined) return simple[char];
    const size = char === 'u' ? 4 : char === 'U' ? 8 : 0;
    const hex = this.text.slice(this.at, this.at + size);
    if (size === 0 || !/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== size) this.fail('invalid escape character');
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) this.fail('invalid unicode escape');
    this.at += size;
    return String.fromCodePoint(code);
  }

  private literalString(): string {
    const end = this.text.indexOf("'", this.at + 1);
    const newline = this.text.indexOf('\n', this.at + 1);
    if (end === -1 || (newline !== -1 && newline < end)) this.fail('a string is not closed');
    const value = this.text.slice(this.at + 1, end);
    this.at = end + 1;
    return value;
  }

  private multiline(quote: '"""' | "'''"): string {
    this.at += 3;
    if (this.text[this.at] === '\n') this.at++;
    else if (this.text.startsWith('\r\n', this.at)) this.at += 2;
    let result = '';
    for (;;) {
      if (this.at >= this.text.length) this.fail('a string is not closed');
      if (this.text.startsWith(quote, this.at)) {
        this.at += 3;
        return result;
      }
      const char = this.text[this.at++];
      if (quote === '"""' && char === '\\') {
        // A backslash at the end of a line joins the next non-blank text.
        if (/^[ \t]*\r?\n/.test(this.text.slice(this.at, this.at + 64))) {
          while (/\s/.test(this.text[this.at] ?? '')) this.at++;
          continue;
        }
        result += this.escape();
      } else result += char;
    }
  }

  private expect(token: string): void {
    this.skipSpaces();
    if (!this.text.startsWith(token, this.at)) this.fail(`expected "${token}"`);
    this.at += token.length;
  }

  private skipSpaces(): void {
    while (this.text[this.at] === ' ' || this.text[this.at] === '\t') this.at++;
  }

  /** Blanks, line breaks and comments. */
  private skipBlankLines(): void {
    for (;;) {
      const char = this.text[this.at];
      if (char === ' ' || char === '\t' || char === '\r' || char === '\n') this.at++;
      else if (char === '#') this.skipComment();
      else return;
    }
  }

  private skipComment(): void {
    const end = this.text.indexOf('\n', this.at);
    this.at = end === -1 ? this.text.length : end;
  }

  private endOfLine(): void {
    this.skipSpaces();
    if (this.text[this.at] === '#') this.skipComment();
    if (this.text[this.at] === '\r') this.at++;
    if (this.at < this.text.length && this.text[this.at] !== '\n') this.fail('expected the end of the line');
  }

  private fail(reason: string): never {
    throw new TomlError(reason, this.at);
  }
}
