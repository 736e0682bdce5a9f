/**
 * Limits and the state of one validation: its string budget, its step count, the checks it could not evaluate,
 * the errors it found. Validation is synchronous and re-entrant only through a new run, so a run is passed
 * along explicitly, never kept in a module variable.
 */

/**
 * Characters of string values that one validation may feed to patterns and formats, each weighed by its
 * pattern's cost per character. The linear regex engine and the format checks are linear but not free (ordinary
 * patterns run at roughly 200 million characters a second on the engine's DFA, big programs at worst about 60 ns
 * per cost unit), so this caps one verdict at about a second; past it, the checks are reported as not evaluated.
 */
export const PATTERN_BUDGET_CHARS = 16 * 1024 * 1024;

/** Errors listed in one verdict; a million failing array items would otherwise make a million lines. */
export const MAX_REPORTED_ERRORS = 100;

/**
 * Schema objects one schema may contain. Preparing a schema takes microseconds per subschema, but nothing a
 * real tool declares comes near this (they have tens to a few hundred), and a 100,000-property schema sent to
 * exhaust memory gets an 'unchecked' verdict at once.
 */
export const MAX_SCHEMA_OBJECTS = 1_000;

/**
 * Subschema evaluations one validation may take. Alternatives multiply: eight lines of `anyOf: [{$ref: next},
 * {$ref: next}]` make 2^n evaluations of a failing value (forty levels would take days), and the same happens
 * per level of a deep value. Every subschema evaluation counts; past the limit validation stops with an
 * 'unchecked' verdict. Ordinary values take one step per value node and subschema, so only results with
 * millions of nodes come near it.
 */
export const MAX_VALIDATION_STEPS = 1_000_000;

/**
 * Pattern-compilation work one schema may cause (see linearRegExp.ts): about a second at worst, while an
 * ordinary schema's patterns use a few hundred units.
 */
export const PATTERN_COMPILE_BUDGET = 50_000;

/** Nesting of schema objects in one schema; real schemas nest a few dozen levels. */
export const MAX_SCHEMA_DEPTH = 500;

/**
 * Subschema evaluations nested in one another (value depth times the subschemas per level). Evaluation recurses,
 * so this keeps it well within the stack; a deeper value gets an 'unchecked' verdict, never a RangeError.
 */
export const MAX_EVALUATION_DEPTH = 800;

/** A `$ref` longer than this is not resolved at all: no schema needs a pointer of megabytes. */
export const MAX_REF_LENGTH = 4 * 1024 * 1024;

/** Longest error line: an instance path can hold a 100 MB property name. */
export const MAX_ERROR_LENGTH = 1_000;

/** Why validation stopped before its verdict. */
export class ValidationStopped extends Error {}

export class StringCheckRun {
  private spent = 0;
  /** Subschema evaluations so far (see MAX_VALIDATION_STEPS). */
  steps = 0;
  /** Subschema evaluations in progress (see MAX_EVALUATION_DEPTH). */
  depth = 0;
  /** What could not be evaluated, keyed by a label such as `pattern "^a+$"` or `format "uri"`. */
  unevaluated: Map<string, string> | undefined = undefined;

  /** `cost`: the subject's length times the check's cost per character. */
  admit(label: string, cost: number): boolean {
    if (this.spent + cost > PATTERN_BUDGET_CHARS) {
      this.note(label, `the strings it applies to exceed the budget of ${PATTERN_BUDGET_CHARS} characters`);
      return false;
    }
    this.spent += cost;
    return true;
  }

  note(label: string, why: string): void {
    this.unevaluated ??= new Map();
    if (!this.unevaluated.has(label)) this.unevaluated.set(label, why);
  }
}
