import * as vscode from 'vscode';
import { defineFeature } from '../../platform/feature';
import { runningServer } from '../../platform/servers/serverPicker';
import { LintProblems } from './lintProblems';
import { ServerLint } from './serverLint';

/**
 * Will every client accept a server's tools (issue 40): the workbench's lint (the CLI's `lint` rules) over every
 * running server's lists, re-run when they change; a badge and the findings on each tool row of the Servers view
 * (through the `toolLint` service, which the view reads), and one Problems entry per server that opens at the tool.
 */
export const lintFeature = defineFeature({
  name: 'lint',
  activate({ platform, services, own }) {
    const lint = new ServerLint(platform.manager, platform.catalog);
    const problems = new LintProblems(lint, platform.catalog);
    own(lint, problems);
    services.offer('toolLint', lint);
    return {
      commands: {
        'mcpWorkbench.showLintFindings': async (argument) => {
          const controller = await runningServer(
            platform.manager,
            argument,
            vscode.l10n.t('Show the lint findings of which server?'),
          );
          if (!controller) return;
          lint.run(); // a server started just now is linted at once, not after the scheduled run
          const uri = problems.uriOf(controller);
          if (!uri) {
            void vscode.window.showInformationMessage(
              vscode.l10n.t('Lint is off: turn on the setting mcpWorkbench.lint.enabled.'),
            );
            return;
          }
          await vscode.window.showTextDocument(uri, { preview: true });
        },
      },
      exports: { lint, problems },
    };
  },
});
