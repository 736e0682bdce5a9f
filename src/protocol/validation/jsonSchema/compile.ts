import { compileLinearPattern, type CompileBudget, type CompiledPattern } from '../linearRegExp';
import { formatCheck, type Format } from './formats';
import { baseOf, DEFAULT_BASE, refOnly, SchemaError, SchemaIndex, type Dialect } from './refs';
import { PATTERN_COMPILE_BUDGET } from './run';
import { JSON_TYPES } from './values';
import { isObject } from '../../guards';

/**
 * A schema prepared for evaluation: each schema object becomes a SchemaNode with its keywords read, checked
 * and resolved once (references to nodes, patterns compiled, formats looked up), so evaluation reads fields
 * instead of parsing the schema on every value. Nothing is generated or evaluated as code.
 */

/** Where ajv reports a type error: first, or in the group of keywords for that type (see evaluate.ts). */
export const enum Group {
  First = 0,
  Number = 1,
  String = 2,
  Array = 3,
  Object = 4,
}

export interface PatternCheck {
  readonly label: string;
  readonly source: string;
  readonly compiled: CompiledPattern;
}

export interface SchemaDependency {
  readonly property: string;
  readonly required?: readonly string[];
  readonly schema?: SchemaNode;
}

const NUMBER_KEYWORDS = ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'format'];
const STRING_KEYWORDS = ['maxLength', 'minLength', 'pattern', 'format'];
const ARRAY_KEYWORDS = ['maxItems', 'minItems', 'items', 'contains', 'uniqueItems'];
const ARRAY_KEYWORDS_2020 = ['prefixItems', 'maxContains', 'minContains', 'unevaluatedItems'];
const OBJECT_KEYWORDS = [
  'maxProperties',
  'minProperties',
  'required',
  'propertyNames',
  'additionalProperties',
  'dependencies',
  'properties',
  'patternProperties',
];
const OBJECT_KEYWORDS_2020 = ['dependentRequired', 'dependentSchemas', 'unevaluatedProperties'];
/** Keywords that do nothing by themselves: a schema with only these accepts everything. */
const INERT_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$defs',
  'definitions',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  'then',
  'else',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  '$vocabulary',
]);

export class SchemaNode {
  /** For a boolean schema, its value; `undefined` for an object. */
  boolean: boolean | undefined = undefined;
  /** Nothing to check: `true`, `{}`, or only annotations. */
  alwaysValid = false;
  types: readonly string[] | undefined = undefined;
  /** `must be string,null`: the declared types (ajv leaves out the null that `nullable` adds). */
  typeMessage = '';
  typeGroup: Group = Group.First;
  ref: SchemaNode | undefined = undefined;
  dynamicRef: SchemaNode | undefined = undefined;
  hasConst = false;
  constValue: unknown = undefined;
  enumValues: readonly unknown[] | undefined = undefined;
  not: SchemaNode | undefined = undefined;
  anyOf: readonly SchemaNode[] | undefined = undefined;
  oneOf: readonly SchemaNode[] | undefined = undefined;
  allOf: readonly SchemaNode[] | undefined = undefined;
  ifSchema: SchemaNode | undefined = undefined;
  thenSchema: SchemaNode | undefined = undefined;
  elseSchema: SchemaNode | undefined = undefined;
  numberGroup = false;
  maximum: number | undefined = undefined;
  minimum: number | undefined = undefined;
  exclusiveMaximum: number | undefined = undefined;
  exclusiveMinimum: number | undefined = undefined;
  multipleOf: number | undefined = undefined;
  formatName: string | undefined = undefined;
  /** `format "uri"`, the label of a format check that could not be evaluated. */
  formatLabel = '';
  format: Format | undefined = undefined;
  stringGroup = false;
  maxLength: number | undefined = undefined;
  minLength: number | undefined = undefined;
  pattern: PatternCheck | undefined = undefined;
  arrayGroup = false;
  maxItems: number | undefined = undefined;
  minItems: number | undefined = undefined;
  /** 2020-12 prefixItems, or draft-07 items as an array. */
  prefixItems: readonly SchemaNode[] | undefined = undefined;
  /** The schema for items after prefixItems: 2020-12 items, draft-07 items (a schema) or additionalItems. */
  restItems: SchemaNode | undefined = undefined;
  restItemsKeyword = 'items';
  contains: SchemaNode | undefined = undefined;
  minContains = 1;
  maxContains: number | undefined = undefined;
  unevaluatedItems: SchemaNode | undefined = undefined;
  uniqueItems = false;
  objectGroup = false;
  maxProperties: number | undefined = undefined;
  minProperties: number | undefined = undefined;
  required: readonly string[] | undefined = undefined;
  propertyNames: SchemaNode | undefined = undefined;
  additionalProperties: SchemaNode | undefined = undefined;
  dependencies: readonly SchemaDependency[] | undefined = undefined;
  properties: ReadonlyMap<string, SchemaNode> | undefined = undefined;
  patternProperties: readonly [PatternCheck, SchemaNode][] | undefined = undefined;
  dependentRequired: readonly SchemaDependency[] | undefined = undefined;
  dependentSchemas: readonly SchemaDependency[] | undefined = undefined;
  unevaluatedProperties: SchemaNode | undefined = undefined;
  /** A keyword of the object group goes through every property (not only properties and required). */
  needsKeys = false;
  /** Has unevaluatedItems or unevaluatedProperties: evaluation collects what its other keywords evaluated. */
  collects = false;
  /** For a `$ref` loop check: the reference text. */
  refText: string | undefined = undefined;

  constructor(readonly where: string) {}
}

export interface CompiledSchema {
  readonly root: SchemaNode;
  readonly dialect: Dialect;
}

const TRUE_NODE = Object.assign(new SchemaNode('true'), { boolean: true, alwaysValid: true });
const FALSE_NODE = Object.assign(new SchemaNode('false'), { boolean: false });

/** Reads `root` into nodes; throws SchemaError (the schema is invalid) or RangeError (too deep, too long). */
export function compileSchema(root: Record<string, unknown>, dialect: Dialect): CompiledSchema {
  const index = new SchemaIndex(root, dialect);
  const budget: CompileBudget = { remaining: PATTERN_COMPILE_BUDGET };
  const nodes = new Map<object, SchemaNode>();
  const pending: { node: SchemaNode; schema: Record<string, unknown>; base: string }[] = [];
  /** `ownBase`: the base of `schema` itself when known (a reference's target), else it is derived from `parentBase`. */
  const nodeFor = (schema: unknown, parentBase: string, where: string, ownBase?: string): SchemaNode => {
    if (schema === true) return TRUE_NODE;
    if (schema === false) return FALSE_NODE;
    if (!isObject(schema)) throw new SchemaError(`schema is invalid: data${where} must be object,boolean`);
    let node = nodes.get(schema);
    if (!node) {
      node = new SchemaNode(where);
      nodes.set(schema, node);
      pending.push({ node, schema, base: ownBase ?? baseOf(schema, parentBase, dialect) });
    }
    return node;
  };
  const rootNode = nodeFor(root, DEFAULT_BASE, '');
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    readKeywords(next.node, next.schema, next.base, { index, budget, nodeFor });
  }
  return { root: rootNode, dialect };
}

interface Context {
  readonly index: SchemaIndex;
  readonly budget: CompileBudget;
  nodeFor(schema: unknown, parentBase: string, where: string, ownBase?: string): SchemaNode;
}

function readKeywords(node: SchemaNode, schema: Record<string, unknown>, base: string, context: Context): void {
  const { index, nodeFor } = context;
  const modern = index.dialect === '2020-12';
  const where = node.where;
  const invalid = (keyword: string, what: string) =>
    new SchemaError(`schema is invalid: data${where}/${keyword} must be ${what}`);
  const has = (keyword: string) => Object.hasOwn(schema, keyword) && schema[keyword] !== undefined;
  const number = (keyword: string): number | undefined => {
    if (!has(keyword)) return undefined;
    const value = schema[keyword];
    if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(keyword, 'number');
    return value;
  };
  const count = (keyword: string): number | undefined => {
    const value = number(keyword);
    if (value !== undefined && (!Number.isInteger(value) || value < 0))
      throw invalid(keyword, 'a non-negative integer');
    return value;
  };
  const child = (keyword: string): SchemaNode | undefined =>
    has(keyword) ? nodeFor(schema[keyword], base, `${where}/${keyword}`) : undefined;
  const list = (keyword: string): SchemaNode[] | undefined => {
    if (!has(keyword)) return undefined;
    const value = schema[keyword];
    if (!Array.isArray(value) || (value.length === 0 && keyword !== 'prefixItems'))
      throw invalid(keyword, 'a non-empty array');
    return value.map((item, i) => nodeFor(item, base, `${where}/${keyword}/${i}`));
  };
  const map = (keyword: string): [string, unknown][] | undefined => {
    if (!has(keyword)) return undefined;
    const value = schema[keyword];
    if (!isObject(value)) throw invalid(keyword, 'object');
    return Object.keys(value).map((key) => [key, value[key]]);
  };
  const strings = (value: unknown, keyword: string): string[] => {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string'))
      throw invalid(keyword, 'array of strings');
    return value as string[];
  };
  const pattern = (source: unknown, keyword: string): PatternCheck => {
    if (typeof source !== 'string') throw invalid(keyword, 'string');
    return { label: `pattern ${quotePattern(source)}`, source, compiled: compileLinearPattern(source, context.budget) };
  };

  const reference = (text: string) => {
    node.refText = text;
    const target = index.resolve(text, base);
    node.ref = nodeFor(target.schema, target.base, `${where}/$ref`, target.base);
  };
  if (refOnly(schema, index.dialect)) {
    // draft-07: the reference is the whole schema; the keywords beside it are not read, let alone applied.
    reference(schema.$ref as string);
    return;
  }
  if (has('type')) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.every((type) => typeof type === 'string' && JSON_TYPES.has(type)))
      throw new SchemaError(`type must be JSONType or JSONType[]: ${types.join(',')}`);
    node.types = types as string[];
    node.typeMessage = `must be ${types.join(',')}`;
  }
  if (schema.nullable === true) {
    if (!node.types) throw new SchemaError('"nullable" cannot be used without "type"');
    if (!node.types.includes('null')) node.types = [...node.types, 'null'];
  }
  if (typeof schema.$ref === 'string') reference(schema.$ref);
  else if (has('$ref')) throw invalid('$ref', 'string');
  for (const keyword of modern ? (['$dynamicRef', '$recursiveRef'] as const) : []) {
    if (!has(keyword)) continue;
    if (typeof schema[keyword] !== 'string') throw invalid(keyword, 'string');
    const target = index.dynamicTarget(keyword, schema[keyword] as string, base);
    node.dynamicRef = nodeFor(target.schema, target.base, `${where}/${keyword}`, target.base);
  }
  if (has('const')) {
    node.hasConst = true;
    node.constValue = schema.const;
  }
  if (has('enum')) {
    if (!Array.isArray(schema.enum)) throw invalid('enum', 'array');
    node.enumValues = schema.enum;
  }
  node.not = child('not');
  node.anyOf = list('anyOf');
  node.oneOf = list('oneOf');
  node.allOf = list('allOf');
  // `if` without `then` and `else` checks nothing, but what it evaluates counts for unevaluated*.
  node.ifSchema = child('if');
  if (node.ifSchema) {
    node.thenSchema = child('then');
    node.elseSchema = child('else');
  }

  node.maximum = number('maximum');
  node.minimum = number('minimum');
  node.exclusiveMaximum = number('exclusiveMaximum');
  node.exclusiveMinimum = number('exclusiveMinimum');
  node.multipleOf = number('multipleOf');
  if (node.multipleOf !== undefined && node.multipleOf <= 0) throw invalid('multipleOf', '> 0');
  if (has('format')) {
    if (typeof schema.format !== 'string') throw invalid('format', 'string');
    node.formatName = schema.format;
    node.formatLabel = `format ${JSON.stringify(schema.format)}`;
    node.format = formatCheck(schema.format);
  }
  node.maxLength = count('maxLength');
  node.minLength = count('minLength');
  if (has('pattern')) node.pattern = pattern(schema.pattern, 'pattern');

  node.maxItems = count('maxItems');
  node.minItems = count('minItems');
  if (modern) {
    node.prefixItems = list('prefixItems');
    if (Array.isArray(schema.items)) throw invalid('items', 'object,boolean');
    node.restItems = child('items');
    node.contains = child('contains');
    node.minContains = count('minContains') ?? 1;
    node.maxContains = count('maxContains');
    node.unevaluatedItems = child('unevaluatedItems');
  } else {
    node.contains = child('contains');
    if (Array.isArray(schema.items)) {
      node.prefixItems = list('items');
      node.restItems = child('additionalItems');
      node.restItemsKeyword = 'additionalItems';
    } else node.restItems = child('items');
  }
  if (has('uniqueItems')) {
    if (typeof schema.uniqueItems !== 'boolean') throw invalid('uniqueItems', 'boolean');
    node.uniqueItems = schema.uniqueItems;
  }

  node.maxProperties = count('maxProperties');
  node.minProperties = count('minProperties');
  if (has('required')) node.required = strings(schema.required, 'required');
  node.propertyNames = child('propertyNames');
  node.additionalProperties = child('additionalProperties');
  const dependencies = map('dependencies');
  if (dependencies) {
    node.dependencies = dependencies.map(([property, value]) =>
      Array.isArray(value)
        ? { property, required: strings(value, `dependencies/${property}`) }
        : { property, schema: nodeFor(value, base, `${where}/dependencies/${property}`) },
    );
  }
  const properties = map('properties');
  if (properties)
    node.properties = new Map(
      properties.map(([name, value]) => [name, nodeFor(value, base, `${where}/properties/${name}`)]),
    );
  const patterns = map('patternProperties');
  if (patterns)
    node.patternProperties = patterns.map(([source, value]) => [
      pattern(source, 'patternProperties'),
      nodeFor(value, base, `${where}/patternProperties/${source}`),
    ]);
  if (modern) {
    node.dependentRequired = map('dependentRequired')?.map(([property, value]) => ({
      property,
      required: strings(value, `dependentRequired/${property}`),
    }));
    node.dependentSchemas = map('dependentSchemas')?.map(([property, value]) => ({
      property,
      schema: nodeFor(value, base, `${where}/dependentSchemas/${property}`),
    }));
    node.unevaluatedProperties = child('unevaluatedProperties');
  }

  const present = (keywords: readonly string[]) => keywords.some(has);
  node.numberGroup = present(NUMBER_KEYWORDS);
  node.stringGroup = present(STRING_KEYWORDS);
  node.arrayGroup = present(ARRAY_KEYWORDS) || (modern ? present(ARRAY_KEYWORDS_2020) : has('additionalItems'));
  node.objectGroup = present(OBJECT_KEYWORDS) || (modern && present(OBJECT_KEYWORDS_2020));
  node.needsKeys = [
    'maxProperties',
    'minProperties',
    'propertyNames',
    'additionalProperties',
    'patternProperties',
    'unevaluatedProperties',
  ].some(has);
  node.collects = node.unevaluatedItems !== undefined || node.unevaluatedProperties !== undefined;
  // As ajv: a single type whose keyword group is present reports its error in that group, after the keywords
  // for any type (enum, anyOf, ...); otherwise the type error comes first.
  if (node.types?.length === 1) {
    const [type] = node.types;
    if (type === 'number' && node.numberGroup) node.typeGroup = Group.Number;
    else if (type === 'string' && node.stringGroup) node.typeGroup = Group.String;
    else if (type === 'array' && node.arrayGroup) node.typeGroup = Group.Array;
    else if (type === 'object' && node.objectGroup) node.typeGroup = Group.Object;
  }
  node.alwaysValid = Object.keys(schema).every(
    (keyword) => INERT_KEYWORDS.has(keyword) || !isKnownKeyword(keyword, modern) || schema[keyword] === undefined,
  );
}

const KNOWN_KEYWORDS = new Set([
  'type',
  'nullable',
  '$ref',
  'const',
  'enum',
  'not',
  'anyOf',
  'oneOf',
  'allOf',
  'if',
  ...NUMBER_KEYWORDS,
  ...STRING_KEYWORDS,
  ...ARRAY_KEYWORDS,
  'additionalItems',
  ...OBJECT_KEYWORDS,
]);
const KNOWN_KEYWORDS_2020 = new Set(['$dynamicRef', '$recursiveRef', ...ARRAY_KEYWORDS_2020, ...OBJECT_KEYWORDS_2020]);

function isKnownKeyword(keyword: string, modern: boolean): boolean {
  return KNOWN_KEYWORDS.has(keyword) || (modern && KNOWN_KEYWORDS_2020.has(keyword));
}

/** Longest pattern quoted in a verdict. */
const MAX_QUOTED_PATTERN = 200;

function quotePattern(pattern: string): string {
  const shown = pattern.length > MAX_QUOTED_PATTERN ? `${pattern.slice(0, MAX_QUOTED_PATTERN)}…` : pattern;
  return JSON.stringify(shown);
}
