import * as vscode from 'vscode';
import type { McpClient } from '../../../protocol/client';
import {
  firstFailure,
  runDoctor,
  type DoctorHost,
  type DoctorReport,
  type DoctorStepName,
} from '../../../workbench/doctor/doctor';
import { doctorMarkdown } from '../../../workbench/doctor/doctorReport';
import { maskText } from '../../../workbench/secrets';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import type { Platform } from '../../platform/platform';
import type { ServerController } from '../../platform/servers/serverController';
import { resolveServer } from '../../platform/servers/serverPicker';
import { planCommand } from '../../platform/shared/commandCheck';
import { mayRunOwnCopy, ownClient, resolveEntry } from './ownServer';

/** What one Run Doctor produced (the test build's hooks read the last one). */
export interface DoctorRun {
  server: string;
  report: DoctorReport;
  /** The Markdown shown and copied: masked with the server's secrets, every server text fenced. */
  markdown: string;
}

/** A notification shows the failed step's first line only; the document has the whole detail. */
const NOTICE_DETAIL_CHARS = 300;

/**
 * Run Doctor (issue 40): the CLI's `doctor` steps on the server's own entry, with a copy of the server of its own (the
 * row's running client is left alone), under a cancellable progress; the report opens as a Markdown document and a
 * notification names the first failed step with Copy Report.
 */
export class DoctorCommand {
  /** The last run's report (test hooks). */
  last: DoctorRun | undefined;

  constructor(private readonly platform: Platform) {}

  async run(argument: unknown): Promise<DoctorRun | undefined> {
    const controller = await resolveServer(this.platform.manager, argument, {
      placeHolder: vscode.l10n.t('Run Doctor on which server?'),
    });
    if (!controller) return undefined;
    if (!(await mayRunOwnCopy(this.platform, controller))) return undefined;
    const report = await this.walk(controller);
    if (!report) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Doctor was cancelled.'));
      return undefined;
    }
    const markdown = maskText(doctorMarkdown(report, markdownWords()), controller.knownSecrets());
    const run: DoctorRun = { server: controller.name, report, markdown };
    this.last = run;
    await this.platform.documents.show(vscode.l10n.t('Doctor {0}', controller.name), markdown);
    void this.tell(controller, run);
    return run;
  }

  /** The steps, or undefined when the person cancelled (the steps then are no verdict). */
  private walk(controller: ServerController): Thenable<DoctorReport | undefined> {
    const entry = controller.entry;
    return vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Doctor: checking {0}', escapeForDisplay(entry.name)),
        cancellable: true,
      },
      async (progress, token) => {
        const stop = new AbortController();
        let client: McpClient | undefined;
        // As the CLI's Ctrl+C: closing the client ends the process doctor started, and the step waiting on it.
        const cancelled = token.onCancellationRequested(() => {
          stop.abort();
          void client?.close().catch(() => undefined);
        });
        const step = (name: DoctorStepName) => progress.report({ message: stepLabel(name) });
        const host: DoctorHost = {
          resolve: () => {
            step('variables');
            return resolveEntry(this.platform, entry);
          },
          planLaunch: async (server) => {
            step('command');
            const plan = await planCommand(server);
            return plan.kind === 'ready' ? plan : { kind: 'not-found', searched: plan.searched, hint: plan.hint };
          },
          createClient: async (resolved, plan) => {
            step('start');
            client = await ownClient(
              this.platform,
              entry,
              resolved,
              plan?.kind === 'ready' ? plan.launch : undefined,
              stop.signal,
            );
            if (stop.signal.aborted) void client.close().catch(() => undefined);
            return client;
          },
          inputFix: (id) =>
            vscode.l10n.t(
              'start the server from the Servers view once and enter the input "{0}" when asked (Forget Inputs… clears a wrong value)',
              id,
            ),
          secrets: controller.knownSecrets(),
        };
        try {
          step('config');
          const report = await runDoctor(
            { kind: 'definition', definition: entry.definition, origin: entry.origin.label },
            host,
          );
          return token.isCancellationRequested ? undefined : report;
        } finally {
          cancelled.dispose();
        }
      },
    );
  }

  private async tell(controller: ServerController, run: DoctorRun): Promise<void> {
    const copy = vscode.l10n.t('Copy Report');
    const failed = firstFailure(run.report);
    const choice = failed
      ? await controller.notify(
          'warning',
          vscode.l10n.t(
            'Doctor: "{0}" failed at the step "{1}": {2}',
            escapeForDisplay(controller.name),
            stepLabel(failed.step),
            escapeForDisplay(firstLine(failed.detail)),
          ),
          copy,
        )
      : await controller.notify(
          'info',
          vscode.l10n.t('Doctor: every step of "{0}" passed.', escapeForDisplay(controller.name)),
          copy,
        );
    if (choice === copy) await vscode.env.clipboard.writeText(run.markdown);
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > NOTICE_DETAIL_CHARS ? `${line.slice(0, NOTICE_DETAIL_CHARS)}…` : line;
}

function markdownWords(): Parameters<typeof doctorMarkdown>[1] {
  return {
    title: vscode.l10n.t('MCP Workbench doctor report'),
    passed: vscode.l10n.t('passed'),
    failed: vscode.l10n.t('failed'),
    fix: vscode.l10n.t('Fix'),
    summary: vscode.l10n.t(
      'Each step from the config entry to a working server, stopping at the first that failed. Secrets are masked.',
    ),
  };
}

/** A step's name as the progress and the notification say it. */
export function stepLabel(step: DoctorStepName): string {
  switch (step) {
    case 'config':
      return vscode.l10n.t('the config entry');
    case 'variables':
      return vscode.l10n.t('variables and inputs');
    case 'command':
      return vscode.l10n.t('the command');
    case 'url':
      return vscode.l10n.t('the URL');
    case 'start':
      return vscode.l10n.t('the start');
    case 'sign-in':
      return vscode.l10n.t('sign-in');
    case 'handshake':
      return vscode.l10n.t('the handshake');
    case 'lists':
      return vscode.l10n.t('the lists');
    case 'lint':
      return vscode.l10n.t('lint');
    case 'clients':
      return vscode.l10n.t('other clients');
    default: {
      const unknown: never = step;
      return String(unknown);
    }
  }
}
