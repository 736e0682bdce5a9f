import * as vscode from 'vscode';
import type { ServerEntry } from '../config/serverEntry';
import { toolAllowed } from './toolAllowList';

/** The refusal of a call to a tool Copilot's allow-list leaves out (toolAllowList.ts), naming the file and the list. */
export function toolNotOffered(name: string, entry: ServerEntry): Error | undefined {
  const allowed = entry.allowedTools;
  if (toolAllowed(name, allowed)) return undefined;
  return new Error(
    vscode.l10n.t(
      'The tool "{0}" is not offered: Copilot\'s "tools" allow-list in {1} allows only {2}',
      name,
      entry.origin.label,
      allowed?.join(', ') || vscode.l10n.t('no tools'),
    ),
  );
}
