import { applyEdits, modify } from 'jsonc-parser';
import { detectFormatting } from '../config/jsoncEdit';
import type { StepAnswer } from './stepMethods';

/**
 * The file's text with one step's answer replaced by the answer that came (Test Explorer's "re-record"): an edit
 * of that member only, so the other steps, the rules and the file's own formatting stay as they are.
 */
export function rerecordStep(text: string, stepIndex: number, actual: StepAnswer): string {
  const formatting = detectFormatting(text);
  const edits = modify(text, ['steps', stepIndex, 'answer'], actual, {
    formattingOptions: { insertSpaces: formatting.insertSpaces, tabSize: formatting.tabSize, eol: formatting.eol },
  });
  return applyEdits(text, edits);
}
