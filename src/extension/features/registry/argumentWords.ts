import * as vscode from 'vscode';
import type { ArgumentFinding, ArgumentReason } from '../../../workbench/registry/argumentPolicy';
import { escapeForDisplay } from '../../../workbench/urlPolicy';

/**
 * The argument policy's findings (workbench/registry/argumentPolicy.ts) in the person's words. The argument itself
 * is the registry's text: escaped, `$(icon)` syntax defused and bounded, since it is shown in quick picks and
 * dialogs.
 */

export function sayReason(reason: ArgumentReason): string {
  switch (reason) {
    case 'another-package':
      return vscode.l10n.t('selects another package than the one the entry is listed under');
    case 'another-source':
      return vscode.l10n.t('makes the launcher fetch the package from another registry, index, repository or file');
    case 'local-path':
      return vscode.l10n.t('names a file or folder on this computer, which changes what the launcher runs or reads');
    case 'insecure-download':
      return vscode.l10n.t('turns off the verification of what is downloaded');
    case 'entrypoint':
      return vscode.l10n.t('replaces the program the container image runs');
    case 'shell':
      return vscode.l10n.t("runs a shell command or an interpreter's inline code");
    case 'privilege':
      return vscode.l10n.t('gives the container privileges over the host');
    case 'host-namespace':
      return vscode.l10n.t("shares the host's (or another container's) network, processes or other namespaces");
    case 'device':
      return vscode.l10n.t("gives the container the host's devices");
    case 'host-mount':
      return vscode.l10n.t('mounts a folder or file of the host into the container');
    case 'root-user':
      return vscode.l10n.t('runs the container as root');
    case 'code-injection':
      return vscode.l10n.t('loads other code into the launcher');
    case 'runtime-config':
      return vscode.l10n.t('configures the launcher itself (which registry, index, daemon or configuration it uses)');
    case 'swallows-package':
      return vscode.l10n.t('takes the next word as its value, so the package name would be read as an option value');
    case 'asked-value':
      return vscode.l10n.t(
        'has a value asked for at first start, which decides what it does, so it cannot be checked now',
      );
    case 'other-program':
      return vscode.l10n.t('runs another program inside the container than the image names');
    case 'unknown-option':
      return vscode.l10n.t('is not an option MCP Workbench knows for this launcher');
    case 'flag-like-value':
      return vscode.l10n.t('has a value that looks like an option, which the launcher may read as one');
    case 'unusual-option':
      return vscode.l10n.t('changes how the launcher runs the server');
  }
}

/** The argument as shown: escaped, icons defused, at most `max` characters. */
export function shownArgument(text: string, max = 120): string {
  const clean = escapeForDisplay(text).replace(/\$\(/g, '$\u200b(');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** "runtime argument", "package argument", "environment variable". */
export function sayPlace(finding: ArgumentFinding): string {
  switch (finding.place) {
    case 'runtime':
      return vscode.l10n.t('runtime argument');
    case 'package':
      return vscode.l10n.t('package argument');
    case 'environment':
      return vscode.l10n.t('environment variable');
  }
}

/** `runtime argument "--privileged": gives the container privileges over the host`. */
export function sayFinding(finding: ArgumentFinding): string {
  return vscode.l10n.t('{0} "{1}": {2}', sayPlace(finding), shownArgument(finding.argument), sayReason(finding.reason));
}

/** Findings one a line, at most `max` of them (a hostile entry may have 64 arguments). */
export function sayFindings(findings: readonly ArgumentFinding[], max = 12): string {
  const lines = findings.slice(0, max).map((finding) => `• ${sayFinding(finding)}`);
  if (findings.length > max) lines.push(vscode.l10n.t('…and {0} more', findings.length - max));
  return lines.join('\n');
}
