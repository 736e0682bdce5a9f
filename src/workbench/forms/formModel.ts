/**
 * Turns a JSON Schema into a form description that a webview can render without knowing JSON Schema: tool
 * input forms (nested objects, arrays, enums, required fields, defaults) and elicitation forms (MCP's flat
 * primitive schemas with titled and multi-select enums). Whatever a form cannot express becomes a raw JSON
 * field, so no schema is ever unusable. The final values are still validated against the original schema.
 */

import { truncateForDisplay } from '../display';
import { isObject } from '../../protocol/guards';

type Schema = Record<string, unknown>;

interface FieldBase {
  /** Property name; empty for array item templates and the root. */
  name: string;
  label: string;
  description?: string;
  required: boolean;
}

interface EnumOption {
  value: string | number | boolean;
  label: string;
}

export type FormField =
  | (FieldBase & {
      kind: 'string';
      default?: string;
      format?: string;
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      secret?: boolean;
    })
  | (FieldBase & { kind: 'number'; integer: boolean; default?: number; minimum?: number; maximum?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'enum'; options: EnumOption[]; default?: EnumOption['value'] })
  | (FieldBase & {
      kind: 'multi-enum';
      options: EnumOption[];
      default?: string[];
      minItems?: number;
      maxItems?: number;
    })
  | (FieldBase & { kind: 'array'; item: FormField; default?: unknown[]; minItems?: number; maxItems?: number })
  | (FieldBase & { kind: 'object'; fields: FormField[] })
  | (FieldBase & { kind: 'json'; default?: unknown; reason: string });

const MAX_DEPTH = 8;

/**
 * Fields in one form, all levels together. A depth limit alone does not bound a schema from a server: `$ref`s
 * can fan out (ten properties each referring to the next definition expand to 10^8 fields in eight levels) and
 * one object can list a million properties. Past the budget the rest of the schema becomes one raw JSON field.
 */
export const MAX_FORM_FIELDS = 500;

/** Enum options in one form, all fields together, so a 100,000-value enum does not become a dropdown. */
export const MAX_FORM_OPTIONS = 5_000;

/** Labels and descriptions are for reading; a server's 100 MB description must not travel to the webview whole. */
const MAX_LABEL_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 10_000;

interface Expansion {
  readonly root: unknown;
  /** Fields and options still available to the whole form. */
  readonly budget: { fields: number; options: number };
  /** `$ref`s being expanded by the enclosing fields: meeting one again means the schema is recursive. */
  readonly expanding: readonly string[];
  /**
   * How many schema-valued properties each `properties` object has, counted once: many `$ref`s to one
   * definition with a million properties must not count them again for every reference.
   */
  readonly propertyCounts: WeakMap<object, number>;
}

export function buildFormModel(schema: unknown): FormField {
  const expansion: Expansion = {
    root: schema,
    budget: { fields: MAX_FORM_FIELDS - 1, options: MAX_FORM_OPTIONS },
    expanding: [],
    propertyCounts: new WeakMap(),
  };
  return toField(isObject(schema) ? schema : {}, '', true, 0, expansion);
}

/** Builds the field for `schema`; its caller has already counted this field against the budget. */
function toField(schema: Schema, name: string, required: boolean, depth: number, expansion: Expansion): FormField {
  const { schema: resolved, refs } = resolveLocalRef(schema, expansion.root);
  const base: FieldBase = {
    name,
    label: truncateForDisplay(typeof resolved.title === 'string' ? resolved.title : name, MAX_LABEL_LENGTH),
    description:
      typeof resolved.description === 'string'
        ? truncateForDisplay(resolved.description, MAX_DESCRIPTION_LENGTH)
        : undefined,
    required,
  };
  const recursive = refs.find((ref) => expansion.expanding.includes(ref));
  if (recursive !== undefined)
    return {
      ...base,
      kind: 'json',
      reason: `recursive schema ($ref ${quoteRef(recursive)} contains itself)`,
      default: resolved.default,
    };
  if (depth > MAX_DEPTH)
    return { ...base, kind: 'json', reason: 'nested too deeply for a form', default: resolved.default };
  const inner: Expansion =
    refs.length === 0 ? expansion : { ...expansion, expanding: [...expansion.expanding, ...refs] };

  const variants = resolved.oneOf ?? resolved.anyOf;
  // Longer than the options left: JSON whatever the variants are, without scanning a million of them.
  if (Array.isArray(variants) && variants.length > expansion.budget.options)
    return tooManyChoices(base, variants.length, resolved.default);
  const titled = titledOptions(variants);
  if (titled) {
    if (!spendOptions(expansion, titled.length)) return tooManyChoices(base, titled.length, resolved.default);
    return { ...base, kind: 'enum', options: titled, default: asEnumValue(resolved.default) };
  }
  if (Array.isArray(resolved.enum)) {
    if (!spendOptions(expansion, resolved.enum.length))
      return tooManyChoices(base, resolved.enum.length, resolved.default);
    const names = Array.isArray(resolved.enumNames) ? resolved.enumNames : [];
    const options = resolved.enum
      .filter((value): value is EnumOption['value'] => ['string', 'number', 'boolean'].includes(typeof value))
      .map((value, index) => ({
        value,
        label: truncateForDisplay(
          typeof names[index] === 'string' ? String(names[index]) : String(value),
          MAX_LABEL_LENGTH,
        ),
      }));
    return { ...base, kind: 'enum', options, default: asEnumValue(resolved.default) };
  }
  if (resolved.const !== undefined && ['string', 'number', 'boolean'].includes(typeof resolved.const)) {
    const value = resolved.const as EnumOption['value'];
    return { ...base, kind: 'enum', options: [{ value, label: String(value) }], default: value };
  }

  // Tool inputs are objects even when a sloppy schema omits the type.
  const type = singleType(resolved.type) ?? (isObject(resolved.properties) || name === '' ? 'object' : undefined);
  switch (type) {
    case 'string':
      return {
        ...base,
        kind: 'string',
        default: typeof resolved.default === 'string' ? resolved.default : undefined,
        format: typeof resolved.format === 'string' ? resolved.format : undefined,
        minLength: numberOr(resolved.minLength),
        maxLength: numberOr(resolved.maxLength),
        pattern: typeof resolved.pattern === 'string' ? resolved.pattern : undefined,
        secret: resolved.format === 'password' || resolved.writeOnly === true ? true : undefined,
      };
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: type === 'integer',
        default: typeof resolved.default === 'number' ? resolved.default : undefined,
        minimum: numberOr(resolved.minimum),
        maximum: numberOr(resolved.maximum),
      };
    case 'boolean':
      return {
        ...base,
        kind: 'boolean',
        default: typeof resolved.default === 'boolean' ? resolved.default : undefined,
      };
    case 'array': {
      const items = isObject(resolved.items) ? resolveLocalRef(resolved.items, expansion.root).schema : {};
      const itemVariants = items.anyOf ?? items.oneOf;
      const choices = Array.isArray(itemVariants)
        ? itemVariants.length
        : Array.isArray(items.enum)
          ? items.enum.length
          : 0;
      if (choices > expansion.budget.options) return tooManyChoices(base, choices, resolved.default);
      const multi =
        titledOptions(itemVariants) ??
        (Array.isArray(items.enum)
          ? items.enum
              .filter(isOptionValue)
              .map((v) => ({ value: v, label: truncateForDisplay(String(v), MAX_LABEL_LENGTH) }))
          : undefined);
      const defaultArray = Array.isArray(resolved.default) ? resolved.default : undefined;
      if (multi) {
        if (!spendOptions(expansion, multi.length)) return tooManyChoices(base, multi.length, resolved.default);
        return {
          ...base,
          kind: 'multi-enum',
          options: multi,
          default: defaultArray?.filter((v): v is string => typeof v === 'string'),
          minItems: numberOr(resolved.minItems),
          maxItems: numberOr(resolved.maxItems),
        };
      }
      if (expansion.budget.fields < 1) return tooLarge(base, resolved.default);
      expansion.budget.fields -= 1;
      return {
        ...base,
        kind: 'array',
        item: toField(isObject(resolved.items) ? resolved.items : {}, '', true, depth + 1, inner),
        default: defaultArray,
        minItems: numberOr(resolved.minItems),
        maxItems: numberOr(resolved.maxItems),
      };
    }
    case 'object': {
      const properties = isObject(resolved.properties) ? resolved.properties : {};
      const requiredNames = new Set(
        Array.isArray(resolved.required) ? resolved.required.filter((n): n is string => typeof n === 'string') : [],
      );
      // The children are counted before any is built, so the fields of one object are all forms or all JSON.
      if (countProperties(properties, expansion) > expansion.budget.fields) return tooLarge(base, resolved.default);
      const entries = Object.entries(properties).filter((entry): entry is [string, Schema] => isObject(entry[1]));
      expansion.budget.fields -= entries.length;
      const fields = entries.map(([key, value]) => toField(value, key, requiredNames.has(key), depth + 1, inner));
      if (fields.length === 0 && resolved.additionalProperties !== false && name !== '') {
        return { ...base, kind: 'json', reason: 'free-form object', default: resolved.default };
      }
      return { ...base, kind: 'object', fields };
    }
    default:
      return {
        ...base,
        kind: 'json',
        reason: type ? `type ${type}` : 'no single type (anyOf/oneOf or untyped)',
        default: resolved.default,
      };
  }
}

function countProperties(properties: Schema, expansion: Expansion): number {
  let count = expansion.propertyCounts.get(properties);
  if (count === undefined) {
    count = 0;
    for (const key in properties) if (Object.hasOwn(properties, key) && isObject(properties[key])) count += 1;
    expansion.propertyCounts.set(properties, count);
  }
  return count;
}

function tooLarge(base: FieldBase, fallback: unknown): FormField {
  return {
    ...base,
    kind: 'json',
    reason: `too large for a form (more than ${MAX_FORM_FIELDS} fields)`,
    default: fallback,
  };
}

/** Takes `count` enum options from the form's budget; false when they do not fit (the field becomes JSON). */
function spendOptions(expansion: Expansion, count: number): boolean {
  if (count > expansion.budget.options) return false;
  expansion.budget.options -= count;
  return true;
}

function tooManyChoices(base: FieldBase, count: number, fallback: unknown): FormField {
  return { ...base, kind: 'json', reason: `too many choices for a form (${count})`, default: fallback };
}

/** Initial values of a form: defaults where given (SEP-1034 asks clients to pre-fill them). */
export function defaultValues(field: FormField): unknown {
  switch (field.kind) {
    case 'object': {
      // An optional nested object is absent until the person adds it (its defaults apply once it is there): its
      // required fields must not block a call that leaves it out.
      if (field.name !== '' && !field.required) return undefined;
      const result: Record<string, unknown> = {};
      for (const child of field.fields) {
        const value = defaultValues(child);
        if (value !== undefined) result[child.name] = value;
      }
      // A nested object with nothing to pre-fill stays absent, so optional objects are not sent as {}.
      return field.name !== '' && Object.keys(result).length === 0 ? undefined : result;
    }
    case 'array':
    case 'multi-enum':
    case 'string':
    case 'number':
    case 'boolean':
    case 'enum':
    case 'json':
      return field.default;
    default: {
      const exhaustive: never = field;
      return exhaustive;
    }
  }
}

function titledOptions(variants: unknown): EnumOption[] | undefined {
  if (!Array.isArray(variants) || variants.length === 0) return undefined;
  // Only primitive constants are options; String() of a server's 100,000-level array const would overflow.
  if (!variants.every((v) => isObject(v) && isOptionValue(v.const))) return undefined;
  return (variants as Schema[]).map((variant) => ({
    value: variant.const as EnumOption['value'],
    label: truncateForDisplay(
      typeof variant.title === 'string' ? variant.title : String(variant.const),
      MAX_LABEL_LENGTH,
    ),
  }));
}

/** Follows in-document `$ref` chains; `refs` lists the references followed, for recursion detection. */
function resolveLocalRef(schema: Schema, root: unknown): { schema: Schema; refs: string[] } {
  let current = schema;
  const refs: string[] = [];
  for (let hops = 0; hops < 10 && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref as string;
    // Only in-document references; a network $ref is never followed.
    if (ref !== '#' && !ref.startsWith('#/')) break;
    let target: unknown = root;
    for (const part of ref === '#' ? [] : ref.slice(2).split('/')) {
      target = isObject(target) ? target[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    }
    if (!isObject(target)) break;
    refs.push(ref);
    const { $ref: _ref, ...rest } = current;
    // A bare reference shares its target instead of copying it (a target can have a million keys).
    current = Object.keys(rest).length === 0 ? target : { ...target, ...rest };
  }
  return { schema: current, refs };
}

function quoteRef(ref: string): string {
  return JSON.stringify(ref.length > 100 ? `${ref.slice(0, 100)}…` : ref);
}

function singleType(type: unknown): string | undefined {
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== 'null');
    return nonNull.length === 1 ? String(nonNull[0]) : undefined;
  }
  return undefined;
}

function isOptionValue(value: unknown): value is EnumOption['value'] {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function asEnumValue(value: unknown): EnumOption['value'] | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}
