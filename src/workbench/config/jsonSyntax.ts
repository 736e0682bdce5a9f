import type { ParseError } from 'jsonc-parser';

/**
 * jsonc-parser's syntax errors in words a person reads: "expected a property name at line 12, column 5" instead of
 * "PropertyNameExpected at offset 443". Shared by the extension (the Servers view's error row), the CLI and the
 * importers, so every surface names the same problem the same way.
 */

export interface JsonSyntaxProblem {
  /** What is wrong, in plain words, without the position ("expected a comma"). */
  reason: string;
  /** 1-based, as editors count. */
  line: number;
  /** 1-based, in UTF-16 code units, as VS Code's editor counts. */
  column: number;
  /** 0-based character offset and length in the text, for selecting the spot. */
  offset: number;
  length: number;
}

// Keyed by jsonc-parser's ParseErrorCode values (a const enum, which isolatedModules cannot read at run time).
const REASONS: Readonly<Record<number, string>> = {
  1: 'unexpected character',
  2: 'invalid number',
  3: 'expected a property name',
  4: 'expected a value',
  5: 'expected a colon',
  6: 'expected a comma',
  7: 'expected a closing brace "}"',
  8: 'expected a closing bracket "]"',
  9: 'expected the end of the file',
  10: 'invalid comment',
  11: 'a comment is not closed',
  12: 'a string is not closed',
  13: 'a number is not finished',
  14: 'invalid unicode escape',
  15: 'invalid escape character',
  16: 'invalid character',
};

/** Every reason `describeJsonErrorCode` can return, for translation tables. */
export const JSON_SYNTAX_REASONS: readonly string[] = [...Object.values(REASONS), 'invalid JSON'];

/** The plain-language reason for a jsonc-parser error code. */
export function describeJsonErrorCode(code: number): string {
  return REASONS[code] ?? 'invalid JSON';
}

/** 1-based line and column of `offset` in `text`. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: before.length - lineStart + 1 };
}

export function jsonSyntaxProblem(text: string, error: ParseError): JsonSyntaxProblem {
  return {
    reason: describeJsonErrorCode(error.error),
    ...positionAt(text, error.offset),
    offset: error.offset,
    length: error.length,
  };
}

/** "expected a property name at line 12, column 5". */
export function formatJsonSyntaxProblem(problem: Pick<JsonSyntaxProblem, 'reason' | 'line' | 'column'>): string {
  return `${problem.reason} at line ${problem.line}, column ${problem.column}`;
}
