/**
 * RFC 6570 URI Templates, levels 1 to 4, for MCP resource templates (`resources/templates/list`). Parsing is strict
 * (a malformed template throws, naming the position) so a broken server template is reported instead of
 * producing a wrong URI.
 */

type UriTemplateOperator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

interface UriTemplateVariable {
  name: string;
  operator: UriTemplateOperator;
  explode: boolean;
  /** Maximum number of characters of the value to use (`{var:3}`), if given. */
  prefix?: number;
}

interface ParsedUriTemplate {
  variables: UriTemplateVariable[];
}

/** A list value is an array; an associative value is an object of string pairs (kept in insertion order). */
export type UriTemplateValue =
  string | number | boolean | readonly string[] | Readonly<Record<string, string>> | null | undefined;

export class UriTemplateError extends Error {
  override readonly name = 'UriTemplateError';
}

interface OperatorSpec {
  first: string;
  separator: string;
  named: boolean;
  ifEmpty: string;
  allowReserved: boolean;
}

// RFC 6570 Appendix A.
const OPERATORS: Record<UriTemplateOperator, OperatorSpec> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', allowReserved: false },
};

/** Operators reserved by the RFC for future extensions: a template using them is invalid. */
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

type Part =
  | { kind: 'literal'; text: string }
  | { kind: 'expression'; operator: UriTemplateOperator; variables: UriTemplateVariable[] };

function parseParts(template: string): Part[] {
  const parts: Part[] = [];
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf('{', index);
    const literalEnd = open === -1 ? template.length : open;
    const stray = template.indexOf('}', index);
    if (stray !== -1 && stray < literalEnd)
      throw new UriTemplateError(`unmatched "}" at position ${stray} in ${template}`);
    if (literalEnd > index) parts.push({ kind: 'literal', text: template.slice(index, literalEnd) });
    if (open === -1) break;
    const close = template.indexOf('}', open);
    if (close === -1) throw new UriTemplateError(`unclosed "{" at position ${open} in ${template}`);
    parts.push(parseExpression(template.slice(open + 1, close), open, template));
    index = close + 1;
  }
  return parts;
}

function parseExpression(body: string, position: number, template: string): Part {
  const where = `in expression {${body}} at position ${position} of ${template}`;
  let rest = body;
  let operator: UriTemplateOperator = '';
  if (rest[0] !== undefined && rest[0] in OPERATORS && rest[0] !== '') {
    operator = rest[0] as UriTemplateOperator;
    rest = rest.slice(1);
  } else if (rest[0] !== undefined && RESERVED_OPERATORS.has(rest[0])) {
    throw new UriTemplateError(`operator "${rest[0]}" is reserved for future extensions ${where}`);
  }
  if (rest === '') throw new UriTemplateError(`empty expression ${where}`);
  const variables = rest.split(',').map((spec): UriTemplateVariable => {
    const match = /^([^:*]*)(?:(\*)|:(\d+))?$/.exec(spec);
    if (!match || !VARNAME.test(match[1])) throw new UriTemplateError(`invalid variable "${spec}" ${where}`);
    const variable: UriTemplateVariable = { name: match[1], operator, explode: match[2] === '*' };
    if (match[3] !== undefined) {
      const prefix = Number(match[3]);
      if (prefix < 1 || prefix > 9999 || match[3].startsWith('0'))
        throw new UriTemplateError(`prefix must be 1-9999 in "${spec}" ${where}`);
      variable.prefix = prefix;
    }
    return variable;
  });
  return { kind: 'expression', operator, variables };
}

export function parseUriTemplate(template: string): ParsedUriTemplate {
  return { variables: parseParts(template).flatMap((part) => (part.kind === 'expression' ? part.variables : [])) };
}

export function expandUriTemplate(template: string, values: Readonly<Record<string, UriTemplateValue>>): string {
  return parseParts(template)
    .map((part) =>
      part.kind === 'literal' ? encode(part.text, true) : expandExpression(part.operator, part.variables, values),
    )
    .join('');
}

function expandExpression(
  operator: UriTemplateOperator,
  variables: UriTemplateVariable[],
  values: Readonly<Record<string, UriTemplateValue>>,
): string {
  const spec = OPERATORS[operator];
  const expanded: string[] = [];
  for (const variable of variables) {
    const value = Object.prototype.hasOwnProperty.call(values, variable.name) ? values[variable.name] : undefined;
    const text = expandVariable(variable, value, spec);
    if (text !== undefined) expanded.push(text);
  }
  return expanded.length === 0 ? '' : spec.first + expanded.join(spec.separator);
}

/** RFC 6570 section 3.2.1: undefined values, empty lists and empty maps produce nothing (not even the name). */
function expandVariable(
  variable: UriTemplateVariable,
  value: UriTemplateValue,
  spec: OperatorSpec,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  const enc = (text: string) => encode(text, spec.allowReserved);
  const named = (name: string, text: string) =>
    spec.named ? (text === '' ? name + spec.ifEmpty : `${name}=${text}`) : text;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    let text = String(value);
    if (variable.prefix !== undefined) text = [...text].slice(0, variable.prefix).join(''); // code points, not UTF-16 units
    return named(variable.name, enc(text));
  }
  // Prefixes do not apply to composite values (section 2.4.1); they are ignored rather than rejected.
  const pairs: [string, string][] | undefined = isList(value) ? undefined : Object.entries(value);
  if (isList(value) ? value.length === 0 : pairs?.length === 0) return undefined;
  if (!variable.explode) {
    const items = isList(value) ? value.map(enc) : (pairs ?? []).flatMap(([key, item]) => [enc(key), enc(item)]);
    return named(variable.name, items.join(','));
  }
  if (isList(value)) return value.map((item) => named(variable.name, enc(item))).join(spec.separator);
  return (pairs ?? [])
    .map(([key, item]) => (spec.named ? named(enc(key), enc(item)) : `${enc(key)}=${enc(item)}`))
    .join(spec.separator);
}

function isList(value: readonly string[] | Readonly<Record<string, string>>): value is readonly string[] {
  return Array.isArray(value);
}

/** Percent-encodes UTF-8; with `allowReserved`, reserved characters and existing %XX triplets pass through. */
function encode(text: string, allowReserved: boolean): string {
  let result = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (UNRESERVED.test(char)) result += char;
    else if (allowReserved && RESERVED.test(char)) result += char;
    else if (allowReserved && char === '%' && /^[0-9A-Fa-f]{2}$/.test(chars.slice(i + 1, i + 3).join('')))
      result += char;
    else result += percentEncode(char);
  }
  return result;
}

function percentEncode(char: string): string {
  try {
    return encodeURIComponent(char).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  } catch {
    return '%EF%BF%BD'; // a lone surrogate has no UTF-8 form: U+FFFD, as TextEncoder would produce
  }
}
