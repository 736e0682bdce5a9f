import type { ElicitResult, JsonObject } from '../../protocol/types';

type Primitive = string | number | boolean | string[];

/**
 * Fills the `default` of each property of a flat elicitation schema into content that lacks it
 * (SEP-1034: clients should pre-fill defaults; an accepted form then carries them).
 */
export function applySchemaDefaults(
  schema: JsonObject | undefined,
  content: Record<string, Primitive> = {},
): NonNullable<ElicitResult['content']> {
  const result: Record<string, Primitive> = { ...content };
  const properties =
    schema && typeof schema.properties === 'object' && schema.properties !== null
      ? (schema.properties as Record<string, JsonObject>)
      : {};
  for (const [name, property] of Object.entries(properties)) {
    if (result[name] !== undefined) continue;
    const fallback = property?.default;
    if (isPrimitive(fallback)) result[name] = fallback;
  }
  return result;
}

function isPrimitive(value: unknown): value is Primitive {
  return (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}
