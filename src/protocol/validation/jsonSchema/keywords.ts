import type { SchemaDependency, SchemaNode } from './compile';
import type { Annotations, Evaluation } from './evaluate';
import { canonicalJson, longerThan, shorterThan } from './values';

/**
 * The keywords for one type of value, in ajv's order within each group, with ajv's messages. Properties are
 * own properties only (`Object.hasOwn`): a property named `__proto__` is an ordinary property, and `toString`
 * is never found on an object that does not have it.
 */

export function numberKeywords(evaluation: Evaluation, node: SchemaNode, value: number): boolean {
  let valid = true;
  if (node.maximum !== undefined && !(value <= node.maximum)) valid = evaluation.failed(`must be <= ${node.maximum}`);
  if (node.minimum !== undefined && !(value >= node.minimum)) valid = evaluation.failed(`must be >= ${node.minimum}`);
  if (node.exclusiveMaximum !== undefined && !(value < node.exclusiveMaximum))
    valid = evaluation.failed(`must be < ${node.exclusiveMaximum}`);
  if (node.exclusiveMinimum !== undefined && !(value > node.exclusiveMinimum))
    valid = evaluation.failed(`must be > ${node.exclusiveMinimum}`);
  if (node.multipleOf !== undefined) {
    // ajv's test, floating point included: 0.3 is not a multiple of 0.1 (0.3 / 0.1 is 2.9999999999999996).
    const quotient = value / node.multipleOf;
    if (quotient !== parseInt(String(quotient), 10))
      valid = evaluation.failed(`must be multiple of ${node.multipleOf}`);
  }
  if (node.format?.kind === 'number' && !node.format.test(value))
    valid = evaluation.failed(`must match format "${node.formatName}"`);
  return valid;
}

export function stringKeywords(evaluation: Evaluation, node: SchemaNode, value: string): boolean {
  let valid = true;
  if (node.maxLength !== undefined && longerThan(value, node.maxLength))
    valid = evaluation.failed(`must NOT have more than ${node.maxLength} characters`);
  if (node.minLength !== undefined && shorterThan(value, node.minLength))
    valid = evaluation.failed(`must NOT have fewer than ${node.minLength} characters`);
  if (node.pattern && !evaluation.matches(node.pattern, value))
    valid = evaluation.failed(`must match pattern "${node.pattern.source}"`);
  const format = node.format;
  if (format?.kind === 'string') {
    const label = node.formatLabel;
    const run = evaluation.run;
    if (run.admit(label, value.length * format.cost())) {
      let passed: boolean | undefined;
      try {
        passed = format.test(value);
      } catch (error) {
        run.note(label, `it failed on a string of ${value.length} characters (${(error as Error).message})`);
        passed = true;
      }
      if (passed === undefined) run.note(label, 'its expression could not be compiled');
      else if (!passed) valid = evaluation.failed(`must match format "${node.formatName}"`);
    }
  }
  return valid;
}

export function arrayKeywords(
  evaluation: Evaluation,
  node: SchemaNode,
  value: unknown[],
  annotations: Annotations | undefined,
): boolean {
  let valid = true;
  const length = value.length;
  if (node.maxItems !== undefined && length > node.maxItems)
    valid = evaluation.failed(`must NOT have more than ${node.maxItems} items`);
  if (node.minItems !== undefined && length < node.minItems)
    valid = evaluation.failed(`must NOT have fewer than ${node.minItems} items`);
  const prefix = node.prefixItems;
  // draft-07 checks additionalItems before the items array; 2020-12 checks prefixItems before items.
  const restFirst = node.restItemsKeyword === 'additionalItems';
  if (prefix && !restFirst) valid = prefixItems(evaluation, prefix, value, annotations) && valid;
  const rest = node.restItems;
  if (rest && !rest.alwaysValid) {
    const start = prefix ? prefix.length : 0;
    if (rest.boolean === false && prefix) {
      if (length > start) valid = evaluation.failed(`must NOT have more than ${start} items`);
    } else {
      for (let index = start; index < length; index++)
        valid = evaluation.evaluateAt(rest, value[index], index) && valid;
    }
  }
  if (rest && annotations) annotations.allItems = true;
  if (prefix && restFirst) valid = prefixItems(evaluation, prefix, value, annotations) && valid;
  if (node.contains) valid = contains(evaluation, node, node.contains, value, annotations) && valid;
  if (node.unevaluatedItems && !(annotations?.allItems ?? false)) {
    const evaluated = annotations?.items ?? 0;
    const matched = annotations?.itemIndexes;
    const schema = node.unevaluatedItems;
    if (schema.boolean === false) {
      let unevaluated = false;
      for (let index = evaluated; index < length && !unevaluated; index++) unevaluated = !matched?.has(index);
      if (unevaluated) valid = evaluation.failed(`must NOT have more than ${evaluated} items`);
    } else if (!schema.alwaysValid) {
      for (let index = evaluated; index < length; index++)
        if (!matched?.has(index)) valid = evaluation.evaluateAt(schema, value[index], index) && valid;
    }
    if (annotations) annotations.allItems = true;
  }
  if (node.uniqueItems) {
    // Hashing a canonical form of each item is linear; comparing every pair (ajv) took half a minute for 20,000.
    const seen = new Map<string, number>();
    for (let index = 0; index < length; index++) {
      const key = canonicalJson(value[index]);
      const first = seen.get(key);
      if (first !== undefined) {
        valid = evaluation.failed(`must NOT have duplicate items (items ## ${first} and ${index} are identical)`);
        break;
      }
      seen.set(key, index);
    }
  }
  return valid;
}

function prefixItems(
  evaluation: Evaluation,
  prefix: readonly SchemaNode[],
  value: unknown[],
  annotations: Annotations | undefined,
): boolean {
  let valid = true;
  const count = Math.min(prefix.length, value.length);
  for (let index = 0; index < count; index++)
    valid = evaluation.evaluateAt(prefix[index], value[index], index) && valid;
  if (annotations) annotations.items = Math.max(annotations.items, count);
  return valid;
}

function contains(
  evaluation: Evaluation,
  node: SchemaNode,
  schema: SchemaNode,
  value: unknown[],
  annotations: Annotations | undefined,
): boolean {
  const min = node.minContains;
  const max = node.maxContains;
  // minContains 0 checks nothing, but the items contains matches still count for unevaluatedItems.
  if (max === undefined && min === 0 && !annotations) return true;
  const message = () =>
    max === undefined
      ? `must contain at least ${min} valid item(s)`
      : `must contain at least ${min} and no more than ${max} valid item(s)`;
  if (max !== undefined && min > max) return evaluation.failed(message());
  if (schema.alwaysValid) {
    if (annotations) annotations.allItems = true;
    return value.length >= min && (max === undefined || value.length <= max) ? true : evaluation.failed(message());
  }
  const mark = evaluation.errorCount;
  let count = 0;
  for (let index = 0; index < value.length; index++) {
    if (!evaluation.evaluateAt(schema, value[index], index)) continue;
    count++;
    annotations?.addItem(index);
    // Without annotations to collect, stop as soon as the verdict is known.
    if (!annotations && (max === undefined ? count >= min : count > max)) break;
  }
  if (count >= min && (max === undefined || count <= max)) {
    evaluation.reset(mark);
    return true;
  }
  return evaluation.failed(message());
}

const EMPTY: readonly string[] = [];

export function objectKeywords(
  evaluation: Evaluation,
  node: SchemaNode,
  value: Record<string, unknown>,
  annotations: Annotations | undefined,
): boolean {
  let valid = true;
  // Object.keys only when a keyword goes through every property.
  const keys = node.needsKeys ? Object.keys(value) : EMPTY;
  if (node.maxProperties !== undefined && keys.length > node.maxProperties)
    valid = evaluation.failed(`must NOT have more than ${node.maxProperties} properties`);
  if (node.minProperties !== undefined && keys.length < node.minProperties)
    valid = evaluation.failed(`must NOT have fewer than ${node.minProperties} properties`);
  if (node.required)
    for (const name of node.required)
      if (!Object.hasOwn(value, name)) valid = evaluation.failed(`must have required property '${name}'`);
  if (node.propertyNames) {
    for (const key of keys)
      if (!evaluation.evaluate(node.propertyNames, key)) valid = evaluation.failed('property name must be valid');
  }
  const properties = node.properties;
  const patterns = node.patternProperties;
  const additional = node.additionalProperties;
  if (additional && !additional.alwaysValid) {
    for (const key of keys) {
      if (properties?.has(key) || patterns?.some(([pattern]) => evaluation.matches(pattern, key))) continue;
      if (additional.boolean === false) valid = evaluation.failed('must NOT have additional properties');
      else valid = evaluation.evaluateAt(additional, value[key], key) && valid;
    }
  }
  if (additional && annotations) annotations.allProperties = true;
  if (node.dependencies) valid = dependencies(evaluation, node.dependencies, value, annotations) && valid;
  if (properties) {
    for (const [name, schema] of properties) {
      if (!Object.hasOwn(value, name)) continue;
      if (!schema.alwaysValid) valid = evaluation.evaluateAt(schema, value[name], name) && valid;
      annotations?.addProperty(name);
    }
  }
  if (patterns) {
    for (const [pattern, schema] of patterns) {
      for (const key of keys) {
        if (!evaluation.matches(pattern, key)) continue;
        if (!schema.alwaysValid) valid = evaluation.evaluateAt(schema, value[key], key) && valid;
        annotations?.addProperty(key);
      }
    }
  }
  if (node.dependentRequired) valid = dependencies(evaluation, node.dependentRequired, value, annotations) && valid;
  if (node.dependentSchemas) valid = dependencies(evaluation, node.dependentSchemas, value, annotations) && valid;
  const unevaluated = node.unevaluatedProperties;
  if (unevaluated && !(annotations?.allProperties ?? false)) {
    for (const key of keys) {
      if (annotations?.properties?.has(key)) continue;
      if (unevaluated.boolean === false) valid = evaluation.failed('must NOT have unevaluated properties');
      else if (!unevaluated.alwaysValid) valid = evaluation.evaluateAt(unevaluated, value[key], key) && valid;
    }
    if (annotations) annotations.allProperties = true;
  }
  return valid;
}

/** dependencies, dependentRequired, dependentSchemas: property lists first, then schemas, as ajv. */
function dependencies(
  evaluation: Evaluation,
  list: readonly SchemaDependency[],
  value: Record<string, unknown>,
  annotations: Annotations | undefined,
): boolean {
  let valid = true;
  for (const { property, required } of list) {
    if (!required || required.length === 0 || !Object.hasOwn(value, property)) continue;
    const message = `must have ${required.length === 1 ? 'property' : 'properties'} ${required.join(', ')} when property ${property} is present`;
    for (const name of required) {
      if (Object.hasOwn(value, name)) continue;
      evaluation.fail(message);
      valid = false;
    }
  }
  for (const { property, schema } of list) {
    if (schema && Object.hasOwn(value, property)) valid = evaluation.evaluate(schema, value, annotations) && valid;
  }
  return valid;
}
