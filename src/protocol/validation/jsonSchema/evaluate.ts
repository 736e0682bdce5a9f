import { Group, type PatternCheck, type SchemaNode } from './compile';
import { arrayKeywords, numberKeywords, objectKeywords, stringKeywords } from './keywords';
import {
  MAX_ERROR_LENGTH,
  MAX_EVALUATION_DEPTH,
  MAX_REPORTED_ERRORS,
  MAX_VALIDATION_STEPS,
  ValidationStopped,
  type StringCheckRun,
} from './run';
import { hasType, jsonEqual } from './values';
import { isObject } from '../../guards';

/**
 * Evaluates a prepared schema (compile.ts) against a value, with ajv's semantics and messages (ajv with
 * allErrors: every failing keyword reports, and a combinator that fails keeps its subschemas' errors before its
 * own). Keywords run in ajv's order: first those for any type, then the groups for numbers, strings, arrays and
 * objects, so error lists come out in the same order.
 *
 * Evaluation recurses once per subschema, so it counts its steps (MAX_VALIDATION_STEPS) and its depth
 * (MAX_EVALUATION_DEPTH) and stops with ValidationStopped instead of running for hours or overflowing the stack.
 */

/** What the keywords of a schema evaluated, for unevaluatedProperties and unevaluatedItems (2020-12). */
export class Annotations {
  allProperties = false;
  properties: Set<string> | undefined = undefined;
  /** Items before this index were evaluated (prefixItems). */
  items = 0;
  allItems = false;
  /** Items `contains` matched. */
  itemIndexes: Set<number> | undefined = undefined;

  addProperty(name: string): void {
    (this.properties ??= new Set()).add(name);
  }

  addItem(index: number): void {
    (this.itemIndexes ??= new Set()).add(index);
  }

  merge(other: Annotations): void {
    this.allProperties ||= other.allProperties;
    if (other.properties) for (const name of other.properties) this.addProperty(name);
    this.items = Math.max(this.items, other.items);
    this.allItems ||= other.allItems;
    if (other.itemIndexes) for (const index of other.itemIndexes) this.addItem(index);
  }
}

export class StepLimitReached extends ValidationStopped {}
export class DepthLimitReached extends ValidationStopped {}
export class ReferenceLoop extends ValidationStopped {}

export class Evaluation {
  /** Errors so far; only the first MAX_REPORTED_ERRORS are kept, and turned into lines at the end (lines()). */
  errorCount = 0;
  private readonly errors: { path: (string | number)[]; message: string }[] = [];
  /** The instance location being evaluated, as keys and indexes; turned into a pointer only for an error. */
  readonly path: (string | number)[] = [];
  /** References being followed, with the instance depth they were entered at (see reference). */
  private readonly references: { node: SchemaNode; value: unknown; depth: number }[] = [];

  constructor(readonly run: StringCheckRun) {}

  fail(message: string): void {
    // A copy of the path, not a pointer: alternatives that pass throw most errors away.
    if (this.errorCount++ < MAX_REPORTED_ERRORS) this.errors.push({ path: this.path.slice(), message });
  }

  failed(message: string): false {
    this.fail(message);
    return false;
  }

  /** Forgets the errors after `mark` (a combinator that passed, or a subschema whose errors do not count). */
  reset(mark: number): void {
    this.errorCount = mark;
    if (this.errors.length > mark) this.errors.length = mark;
  }

  /** The errors kept, as `<instance pointer or (root)> <message>` lines. */
  lines(): string[] {
    return this.errors.map((error) => errorLine(error.path, error.message));
  }

  /** `outer`: the annotations of the schema this one applies in place of (allOf, $ref, ...), if it collects. */
  evaluate(node: SchemaNode, value: unknown, outer?: Annotations): boolean {
    if (node.boolean !== undefined) {
      if (!node.boolean) this.fail('boolean schema is false');
      return node.boolean;
    }
    if (node.alwaysValid) return true;
    const run = this.run;
    if (++run.steps > MAX_VALIDATION_STEPS) throw new StepLimitReached();
    if (++run.depth > MAX_EVALUATION_DEPTH) throw new DepthLimitReached();
    const local = node.collects || outer ? new Annotations() : undefined;
    const valid = this.keywords(node, value, local);
    run.depth--;
    if (outer && local && valid) outer.merge(local);
    return valid;
  }

  /** Evaluates `node` at a child of the current instance location. */
  evaluateAt(node: SchemaNode, value: unknown, key: string | number): boolean {
    this.path.push(key);
    const valid = this.evaluate(node, value);
    this.path.pop();
    return valid;
  }

  /** Tests a pattern; one that cannot be evaluated (unsupported, past the budget) passes and is noted. */
  matches(check: PatternCheck, subject: string): boolean {
    const compiled = check.compiled;
    if (compiled.kind === 'unsupported') {
      this.run.note(check.label, compiled.reason);
      return true;
    }
    if (!this.run.admit(check.label, subject.length * compiled.cost)) return true;
    return compiled.test(subject);
  }

  private keywords(node: SchemaNode, value: unknown, annotations: Annotations | undefined): boolean {
    let valid = true;
    const types = node.types;
    if (types !== undefined && node.typeGroup === Group.First && !hasSomeType(value, types))
      valid = this.failed(node.typeMessage);
    if (node.dynamicRef) valid = this.reference(node.dynamicRef, value, annotations) && valid;
    if (node.ref) valid = this.reference(node.ref, value, annotations) && valid;
    if (node.hasConst && !jsonEqual(value, node.constValue)) {
      this.fail('must be equal to constant');
      valid = false;
    }
    if (node.enumValues !== undefined && !isOneOf(value, node.enumValues)) {
      this.fail('must be equal to one of the allowed values');
      valid = false;
    }
    if (node.not) {
      const mark = this.errorCount;
      const passed = this.evaluate(node.not, value);
      this.reset(mark);
      if (passed) {
        this.fail('must NOT be valid');
        valid = false;
      }
    }
    if (node.anyOf) valid = this.anyOf(node.anyOf, value, annotations) && valid;
    if (node.oneOf) valid = this.oneOf(node.oneOf, value, annotations) && valid;
    if (node.allOf) for (const item of node.allOf) valid = this.evaluate(item, value, annotations) && valid;
    if (node.ifSchema) valid = this.conditional(node, node.ifSchema, value, annotations) && valid;

    if (node.numberGroup) {
      if (typeof value === 'number') valid = numberKeywords(this, node, value) && valid;
      else if (node.typeGroup === Group.Number) valid = this.typeError(node);
    }
    if (node.stringGroup) {
      if (typeof value === 'string') valid = stringKeywords(this, node, value) && valid;
      else if (node.typeGroup === Group.String) valid = this.typeError(node);
    }
    if (node.arrayGroup) {
      if (Array.isArray(value)) valid = arrayKeywords(this, node, value, annotations) && valid;
      else if (node.typeGroup === Group.Array) valid = this.typeError(node);
    }
    if (node.objectGroup) {
      if (isObject(value)) valid = objectKeywords(this, node, value as Record<string, unknown>, annotations) && valid;
      else if (node.typeGroup === Group.Object) valid = this.typeError(node);
    }
    return valid;
  }

  private typeError(node: SchemaNode): false {
    this.fail(node.typeMessage);
    return false;
  }

  /**
   * Follows a reference. Entering the same schema for the same value at the same depth again means the
   * references loop without consuming the value (`{"$ref": "#"}`): that would never end, so it stops here.
   */
  private reference(target: SchemaNode, value: unknown, annotations: Annotations | undefined): boolean {
    const depth = this.path.length;
    const references = this.references;
    for (let i = references.length - 1; i >= 0 && references[i].depth === depth; i--) {
      if (references[i].node === target && references[i].value === value) throw new ReferenceLoop(target.where);
    }
    references.push({ node: target, value, depth });
    const valid = this.evaluate(target, value, annotations);
    references.pop();
    return valid;
  }

  private anyOf(schemas: readonly SchemaNode[], value: unknown, annotations: Annotations | undefined): boolean {
    const mark = this.errorCount;
    let passed = false;
    for (const schema of schemas) {
      // Every passing alternative adds annotations; without them the first one that passes decides.
      if (this.evaluate(schema, value, annotations)) {
        passed = true;
        if (!annotations) break;
      }
    }
    if (passed) this.reset(mark);
    else this.fail('must match a schema in anyOf');
    return passed;
  }

  private oneOf(schemas: readonly SchemaNode[], value: unknown, annotations: Annotations | undefined): boolean {
    const mark = this.errorCount;
    let passing = 0;
    // Annotations count only from the one alternative that passes: collect them apart until that is known.
    const collected = annotations ? new Annotations() : undefined;
    // As ajv, the alternatives after a second one that passes are not evaluated (nor do they report).
    for (const schema of schemas) if (this.evaluate(schema, value, collected) && ++passing > 1) break;
    if (passing === 1) {
      this.reset(mark);
      if (annotations && collected) annotations.merge(collected);
      return true;
    }
    this.fail('must match exactly one schema in oneOf');
    return false;
  }

  private conditional(
    node: SchemaNode,
    condition: SchemaNode,
    value: unknown,
    annotations: Annotations | undefined,
  ): boolean {
    if (!node.thenSchema && !node.elseSchema && !annotations) return true;
    const mark = this.errorCount;
    const holds = this.evaluate(condition, value, annotations);
    this.reset(mark);
    const clause = holds ? node.thenSchema : node.elseSchema;
    if (clause === undefined || this.evaluate(clause, value, annotations)) return true;
    this.fail(`must match "${holds ? 'then' : 'else'}" schema`);
    return false;
  }
}

function hasSomeType(value: unknown, types: readonly string[]): boolean {
  for (const type of types) if (hasType(value, type)) return true;
  return false;
}

function isOneOf(value: unknown, values: readonly unknown[]): boolean {
  if (typeof value !== 'object' || value === null) return values.includes(value);
  for (const allowed of values) if (jsonEqual(value, allowed)) return true;
  return false;
}

/** `<instance pointer or (root)> <message>`, at most MAX_ERROR_LENGTH characters and an ellipsis. */
function errorLine(path: readonly (string | number)[], message: string): string {
  let pointer = '';
  for (const key of path) {
    if (pointer.length > MAX_ERROR_LENGTH) break;
    const text =
      typeof key === 'number' ? String(key) : key.length > MAX_ERROR_LENGTH ? key.slice(0, MAX_ERROR_LENGTH + 1) : key;
    pointer += `/${text.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  }
  const line = `${pointer || '(root)'} ${message}`;
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH)}…` : line;
}
