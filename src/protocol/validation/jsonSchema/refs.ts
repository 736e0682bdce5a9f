import { MAX_REF_LENGTH, MAX_SCHEMA_DEPTH } from './run';
import { isObject } from '../../guards';

/**
 * The identifiers of one schema document: its resources (`$id`), anchors (`$anchor`, `$dynamicAnchor`,
 * draft-07's `$id: "#name"`) and the JSON pointers into them. Nothing is fetched: a reference outside the
 * document cannot be resolved, and the verdict says so.
 */

export type Dialect = 'draft-07' | '2020-12';

/** A schema the document defines: an object or a boolean. */
type RawSchema = Record<string, unknown> | boolean;

/** The base of a document without `$id`; never fetched, only a root to resolve relative references against. */
export const DEFAULT_BASE = 'https://schema.mcp-workbench.invalid/root.json';

export class SchemaError extends Error {}

/** Keywords whose value is one subschema, a list of them or a map of them; the walk follows these. */
const SCHEMA_KEYWORDS = new Set([
  'not',
  'if',
  'then',
  'else',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
  'items',
]);
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
/** Keywords whose value is data: a pointer through them does not change the base. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

function resolveUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

/** `href` without its fragment, and the fragment (percent-decoded), or undefined when it is malformed. */
function splitFragment(href: string): { resource: string; fragment: string | undefined } {
  const hash = href.indexOf('#');
  if (hash < 0) return { resource: href, fragment: '' };
  let fragment: string | undefined;
  try {
    fragment = decodeURIComponent(href.slice(hash + 1));
  } catch {
    fragment = undefined;
  }
  return { resource: href.slice(0, hash), fragment };
}

/**
 * The `$id` of a schema object, if it counts: in draft-07 (and earlier) a schema object with `$ref` is only that
 * reference, and its other keywords, `$id` included, are ignored; in 2020-12 `$ref` applies beside them.
 */
function idOf(schema: Record<string, unknown>, dialect: Dialect): string | undefined {
  if (typeof schema.$id !== 'string') return undefined;
  return refOnly(schema, dialect) ? undefined : schema.$id;
}

/** Whether `schema` is only its `$ref` (draft-07: the keywords beside a `$ref` are ignored). */
export function refOnly(schema: Record<string, unknown>, dialect: Dialect): boolean {
  return dialect === 'draft-07' && typeof schema.$ref === 'string';
}

/** The base of a schema object whose parent's base is `base`. */
export function baseOf(schema: unknown, base: string, dialect: Dialect): string {
  if (!isObject(schema)) return base;
  const id = idOf(schema, dialect);
  if (id === undefined || id.startsWith('#')) return base;
  const resolved = resolveUri(id, base);
  return resolved === undefined ? base : splitFragment(resolved).resource;
}

/** Calls `visit` for each subschema of `schema` (one level), with the key path below it. */
function forEachSubschema(
  schema: Record<string, unknown>,
  visit: (child: unknown, keyword: string, key: string | undefined) => void,
): void {
  for (const keyword of Object.keys(schema)) {
    const value = schema[keyword];
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      if (SCHEMA_LIST_KEYWORDS.has(keyword)) value.forEach((item, index) => visit(item, keyword, String(index)));
    } else if (SCHEMA_MAP_KEYWORDS.has(keyword)) {
      for (const key of Object.keys(value)) visit((value as Record<string, unknown>)[key], keyword, key);
    } else if (SCHEMA_KEYWORDS.has(keyword)) visit(value, keyword, undefined);
  }
}

export class SchemaIndex {
  private readonly resources = new Map<string, RawSchema>();
  private readonly anchors = new Map<string, RawSchema>();
  /** `$dynamicAnchor` / `$recursiveAnchor` names defined by more than one resource (see dynamicTarget). */
  private readonly dynamicAnchors = new Map<string, number>();
  private recursiveAnchors = 0;

  constructor(
    readonly root: Record<string, unknown>,
    readonly dialect: Dialect,
  ) {
    this.resources.set(DEFAULT_BASE, root);
    this.walk();
  }

  /** Registers resources and anchors, iteratively; a schema nested too deep is refused here. */
  private walk(): void {
    const pending: { schema: Record<string, unknown>; base: string; depth: number }[] = [
      { schema: this.root, base: DEFAULT_BASE, depth: 1 },
    ];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const { schema, depth } = next;
      if (depth > MAX_SCHEMA_DEPTH) throw new RangeError('the schema is too deeply nested');
      const base = baseOf(schema, next.base, this.dialect);
      if (base !== next.base) this.resources.set(base, schema);
      const id = idOf(schema, this.dialect);
      if (typeof id === 'string' && id.includes('#') && id.indexOf('#') < id.length - 1) {
        const resolved = resolveUri(id, next.base);
        if (resolved !== undefined) this.anchors.set(resolved, schema);
      }
      const anchor = this.dialect === '2020-12' ? schema.$anchor : undefined;
      if (typeof anchor === 'string') this.anchors.set(`${base}#${anchor}`, schema);
      const dynamic = this.dialect === '2020-12' ? schema.$dynamicAnchor : undefined;
      if (typeof dynamic === 'string') {
        this.anchors.set(`${base}#${dynamic}`, schema);
        this.dynamicAnchors.set(dynamic, (this.dynamicAnchors.get(dynamic) ?? 0) + 1);
      }
      if (this.dialect === '2020-12' && schema.$recursiveAnchor === true) this.recursiveAnchors++;
      forEachSubschema(schema, (child) => {
        if (isObject(child)) pending.push({ schema: child, base, depth: depth + 1 });
      });
    }
  }

  /** The schema `reference` names from a schema whose base is `base`, and that schema's base. */
  resolve(reference: string, base: string): { schema: RawSchema; base: string } {
    if (reference.length > MAX_REF_LENGTH) throw new RangeError('the reference is too long');
    const href = resolveUri(reference, base);
    const missing = () =>
      new SchemaError(`can't resolve reference ${reference} from id ${base === DEFAULT_BASE ? '#' : base}`);
    if (href === undefined) throw missing();
    const { resource, fragment } = splitFragment(href);
    const document = this.resources.get(resource);
    if (document === undefined || fragment === undefined) throw missing();
    if (fragment === '') return { schema: document, base: resource };
    if (!fragment.startsWith('/')) {
      const anchored = this.anchors.get(`${resource}#${fragment}`);
      if (anchored === undefined) throw missing();
      return { schema: anchored, base: baseOf(anchored, resource, this.dialect) };
    }
    let current: unknown = document;
    let currentBase = resource;
    for (const part of fragment.slice(1).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      if (Array.isArray(current) && /^(?:0|[1-9]\d*)$/.test(key)) current = current[Number(key)];
      else if (isObject(current) && Object.hasOwn(current, key)) current = current[key];
      else throw missing();
      if (!DATA_KEYWORDS.has(key)) currentBase = baseOf(current, currentBase, this.dialect);
    }
    if (typeof current !== 'boolean' && !isObject(current)) throw missing();
    return { schema: current, base: currentBase };
  }

  /**
   * `$dynamicRef` and `$recursiveRef` are resolved like `$ref`. That is what they mean unless the dynamic scope
   * holds another resource with the same dynamic anchor; such a schema is refused rather than checked wrongly.
   */
  dynamicTarget(
    keyword: '$dynamicRef' | '$recursiveRef',
    reference: string,
    base: string,
  ): { schema: RawSchema; base: string } {
    const hash = reference.indexOf('#');
    const name = hash >= 0 ? reference.slice(hash + 1) : '';
    const extended =
      keyword === '$recursiveRef'
        ? this.recursiveAnchors > 1
        : !name.startsWith('/') && (this.dynamicAnchors.get(name) ?? 0) > 1;
    if (extended)
      throw new SchemaError(
        `${keyword} ${JSON.stringify(reference)} has more than one dynamic target in the schema, which this validator does not evaluate`,
      );
    return this.resolve(reference, base);
  }
}
