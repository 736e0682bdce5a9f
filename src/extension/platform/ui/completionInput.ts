import * as vscode from 'vscode';
import { completionRows, enterRow } from './completionOrder';

interface CompletionInputOptions {
  title: string;
  /** What the value is for (the argument's description), shown as the placeholder. */
  prompt: string;
  required: boolean;
  step: number;
  totalSteps: number;
  /** Suggestions for the current text (`completion/complete`); absent when the server offers no completions. */
  complete?: (value: string) => Promise<string[]>;
}

const COMPLETION_DELAY_MS = 150;

/** The completion pick on screen as the integration suites see it (test build only, see testHooks.ts). */
export interface CompletionPickSnapshot {
  title: string;
  step: number;
  /** The rows' labels, in order. */
  items: readonly string[];
  /** The highlighted row's label: what Enter takes. */
  active: string | undefined;
  /** True once the server's suggestions for the current text are in the rows: no completion request waits or runs. */
  settled: boolean;
}

let shownPick: (() => CompletionPickSnapshot) | undefined;

/** The completion pick on screen, or undefined; always undefined outside the test build. */
export function shownCompletionPick(): CompletionPickSnapshot | undefined {
  return shownPick?.();
}

/**
 * One value, typed freely or picked from the server's suggestions: a quick pick whose first item is always
 * what the user typed. Resolves undefined when the user cancels.
 */
export function askWithCompletions(options: CompletionInputOptions): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
  pick.title = options.title;
  pick.placeholder =
    options.prompt +
    (options.required ? ` (${vscode.l10n.t('required')})` : ` (${vscode.l10n.t('optional, Enter to skip')})`);
  pick.step = options.step;
  pick.totalSteps = options.totalSteps;
  pick.ignoreFocusOut = true;
  // The server already filtered the values for the typed text; VS Code's fuzzy filter would hide free text.
  pick.matchOnDescription = false;
  let suggestions: string[] = [];
  let request = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** No completion request is due (timer) or running for the current text. */
  let settled = false;

  const render = () => {
    const rows = completionRows(pick.value, suggestions);
    const items = rows.map((row) => ({
      label: row.value,
      description: row.kind === 'typed' ? vscode.l10n.t('use this value') : vscode.l10n.t('suggested by the server'),
      alwaysShow: true,
    }));
    pick.items = items;
    // Set with the rows (one update to the window, applied after them): VS Code would otherwise highlight the row its
    // label sort puts first, the typed text when it is a prefix of the suggestion (completionOrder.ts, enterRow).
    const preferred = enterRow(pick.value, suggestions);
    const active =
      preferred && items[rows.findIndex((row) => row.kind === preferred.kind && row.value === preferred.value)];
    if (active) pick.activeItems = [active];
  };
  const refresh = () => {
    if (!options.complete) {
      render();
      settled = true;
      return;
    }
    const current = ++request;
    pick.busy = true;
    options
      .complete(pick.value)
      .then((values) => {
        if (current === request) suggestions = values.slice(0, 100);
      })
      .catch(() => {
        if (current === request) suggestions = [];
      })
      .finally(() => {
        if (current !== request) return;
        pick.busy = false;
        render();
        settled = true;
      });
  };

  const snapshot = (): CompletionPickSnapshot => ({
    title: options.title,
    step: options.step,
    items: pick.items.map((item) => item.label),
    active: pick.activeItems[0]?.label,
    settled,
  });

  return new Promise<string | undefined>((resolve) => {
    let finished = false;
    const finish = (value: string | undefined) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (MCP_WORKBENCH_TEST_BUILD && shownPick === snapshot) shownPick = undefined;
      resolve(value);
      pick.dispose();
    };
    pick.onDidChangeValue(() => {
      settled = false;
      render();
      clearTimeout(timer);
      timer = setTimeout(refresh, COMPLETION_DELAY_MS);
    });
    pick.onDidAccept(() => {
      const value = pick.selectedItems[0]?.label ?? pick.activeItems[0]?.label ?? pick.value;
      if (options.required && value === '') {
        // QuickPick has no validation message; the placeholder says why Enter did nothing.
        pick.placeholder = `${vscode.l10n.t('A value is required.')} ${options.prompt}`;
        return;
      }
      finish(value);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
    if (MCP_WORKBENCH_TEST_BUILD) shownPick = snapshot;
    refresh();
  });
}
