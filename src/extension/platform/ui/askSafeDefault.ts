import * as vscode from 'vscode';

/**
 * The modal for what a server or an app asks the person to allow (open its link, take its message, install its
 * files, call its destructive tool): a stray Enter, or Space, must not allow it.
 *
 * VS Code gives an extension no say over a modal's default button. It always makes the first item the default:
 * - code-server and VS Code's custom dialogs (`base/browser/ui/dialog/dialog.ts`, 1.100) focus the button of the
 *   first item when the dialog opens, whatever the platform's button order, and Enter or Space presses the focused
 *   button;
 * - desktop VS Code's native dialogs (`massageMessageBoxOptions`) pass that first button as Electron's `defaultId`
 *   (the one Enter presses) on Windows, macOS and Linux alike.
 * `isCloseAffordance` does not help: the close item becomes the Cancel button, which VS Code always moves after the
 * others, so it is never the first. So the first item here is a safe one, "Not Now", that allows nothing, and VS
 * Code's own Cancel (added because no item is a close affordance) answers Escape. A quick pick with Cancel first was
 * the other choice; it was not taken because what the person types into it filters the items, so stray text
 * that matches the affirmative label ("e", "link") makes it the active item before the Enter.
 *
 * The person's own actions (the first start of their workspace server) keep their affirmative first: the person
 * asked for them a moment ago.
 *
 * Resolves with the choice taken, or undefined for Not Now, Cancel and Escape.
 */
export async function askSafeDefault<Choice extends string>(
  severity: 'warning' | 'information',
  message: string,
  detail: string,
  choices: readonly Choice[],
): Promise<Choice | undefined> {
  const notNow: vscode.MessageItem = { title: vscode.l10n.t('Not Now') };
  const items = choices.map((choice) => ({ title: choice, choice }));
  const options: vscode.MessageOptions = { modal: true, detail };
  const picked: (vscode.MessageItem & { choice?: Choice }) | undefined =
    severity === 'warning'
      ? await vscode.window.showWarningMessage(message, options, notNow, ...items)
      : await vscode.window.showInformationMessage(message, options, notNow, ...items);
  return picked?.choice;
}
