import { DIALECTS, type DialectId, type ReadOrigin } from '../../../workbench/config/dialects';
import { addInputToConfig } from '../../../workbench/config/jsoncEdit';
import type { InputDefinition, ServerDefinition, TextSpot } from '../../../workbench/config/mcpConfig';
import { uniqueName } from '../../../workbench/node/importers';

/**
 * What Copy Server to… writes (vscode-free, so a unit test covers the conversion and the write): the entry in the
 * target client's dialect, added to the file's current text keeping its comments and order, under a name the file
 * does not use yet; or every reason the target cannot express it. Throws ConfigEditError when the file does not parse.
 */

export interface CopySource {
  name: string;
  definition: ServerDefinition;
  /** The inputs of the source file, for `${input:…}` in the entry. */
  inputs: readonly InputDefinition[];
}

export interface CopyTarget {
  dialect: DialectId;
  /** The file's current text ('' when it does not exist yet). */
  text: string;
  origin: ReadOrigin;
}

export type CopyPlan =
  | { kind: 'refused'; reasons: string[] }
  | { kind: 'write'; name: string; text: string; notes: string[]; at?: TextSpot };

export function planCopy(
  source: CopySource,
  target: CopyTarget,
  words: { inputsElsewhere(fileLabel: string): string },
): CopyPlan {
  const dialect = DIALECTS[target.dialect];
  if (!dialect.add) return { kind: 'refused', reasons: [`${dialect.label} is read here but never written`] };
  const written = dialect.write(source.definition);
  const used = JSON.stringify(source.definition);
  const usesInputs = used.includes('${input:');
  const keepsInputs = target.dialect === 'vscode-workspace' || target.dialect === 'vscode-user';
  const reasons = 'refused' in written ? [...written.refused] : [];
  // A file without VS Code's `inputs` would keep `${input:…}` as literal text: the server would get the words, not the secret.
  if (usesInputs && 'entry' in written && !keepsInputs) reasons.push(words.inputsElsewhere(dialect.label));
  if (reasons.length > 0 || !('entry' in written)) return { kind: 'refused', reasons };
  const current = dialect.read(target.text, target.origin);
  const name = uniqueName(source.name, [
    ...current.servers.map((server) => server.definition.name),
    ...current.problems.flatMap((problem) => (problem.server ? [problem.server] : [])),
  ]);
  let text = dialect.add(target.text, name, written.entry, target.origin);
  // VS Code's own file: the inputs the entry refers to go with it (the same ids; ones already there are kept).
  if (usesInputs)
    for (const input of source.inputs) {
      if (!used.includes(`\${input:${input.id}}`)) continue;
      if (current.inputs.some((existing) => existing.id === input.id)) continue;
      text = addInputToConfig(text, input);
    }
  const at = dialect.read(text, target.origin).servers.find((server) => server.definition.name === name)?.at;
  return { kind: 'write', name, text, notes: written.notes, ...(at ? { at } : {}) };
}
