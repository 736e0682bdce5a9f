import * as path from 'node:path';
import * as vscode from 'vscode';
import { defaultAuthDir } from '../../../workbench/node/auth/fileAuthStore';
import { refusedFindings, unusualFindings } from '../../../workbench/registry/argumentPolicy';
import { namesInConfig, uniqueKey } from '../../../workbench/registry/configWrite';
import {
  describeRunOption,
  mapServer,
  reviewRunOption,
  runOptions,
  statusNotice,
  suggestKey,
  type RunOption,
} from '../../../workbench/registry/mapping';
import type { BundleFolder } from '../../../workbench/registry/mcpb';
import { bundleFolderName, prepareServer } from '../../../workbench/registry/prepare';
import type { RegistryEntry, ServerJson } from '../../../workbench/registry/types';
import { escapeForDisplay } from '../../../workbench/urlPolicy';
import { preferredAddFile } from '../../platform/config/addTargetChoice';
import { addToDotMcp, dotMcpTakenNames, pickAddTarget, type AddTarget } from '../../platform/config/addTargets';
import {
  addServers,
  configTargets,
  takenNames,
  targetLabel,
  type ConfigTarget,
} from '../../platform/config/configTargets';
import { userServersValue } from '../../platform/config/userServers';
import { sayFindings } from './argumentWords';

/**
 * Adds one registry server (or an imported server.json) to a target: a deprecated entry is confirmed first, the
 * package or remote is chosen when there are several, the key is made unique, the entry and its inputs are built in
 * full (an MCPB bundle downloaded and verified), and only then is the file written, through the JSONC editor.
 * Before any of that, the way to run passes the argument policy: refused arguments refuse the entry, unusual ones
 * are confirmed. An MCPB bundle is unpacked on this computer, so it goes to the person's user settings, not into a
 * workspace's shared mcp.json. The file is asked for as Add Server asks (`ask`): the default is where this VS Code
 * writes for this entry (`.mcp.json`, or `.vscode/mcp.json` when the entry needs inputs), and the entry is written in
 * that file's dialect, keeping its comments and order. The server is not started here: it starts like any other,
 * through the first-start consent.
 */
export async function addRegistryServer(
  entry: RegistryEntry,
  where: AddTarget | { kind: 'ask'; workspaceOnly: boolean },
  chosen?: RunOption,
): Promise<string | undefined> {
  const notice = statusNotice(entry);
  if (notice.kind === 'deprecated') {
    const proceed = vscode.l10n.t('Add Anyway');
    const answer = await vscode.window.showWarningMessage(
      escapeForDisplay(notice.message),
      { modal: true, detail: vscode.l10n.t('A deprecated server may no longer work or be maintained.') },
      proceed,
    );
    if (answer !== proceed) return undefined;
  }
  const option = chosen ?? (await pickRunOption(entry.server));
  if (!option) return undefined;
  if (!(await argumentsAccepted(entry.server, option))) return undefined;
  let target: AddTarget | undefined = where.kind === 'ask' ? undefined : where;
  if (isBundle(option)) {
    // Unpacked on this computer: only the person's own settings can name it (no file to choose from).
    if (target?.kind !== 'user') {
      const shared = target ?? configTargets().find((candidate) => candidate.kind === 'workspace');
      const sharedLabel = shared?.kind === 'dotMcp' ? '.mcp.json' : shared && targetLabel(shared);
      if (sharedLabel && !(await bundleToUserSettings(entry.server, sharedLabel))) return undefined;
    }
    target = { kind: 'user' };
  }
  target ??= await pickAddTarget(
    vscode.l10n.t('Add {0}', escapeForDisplay(entry.server.name)),
    preview(entry.server, option),
    { workspaceOnly: where.kind === 'ask' && where.workspaceOnly },
  );
  if (!target) return undefined;
  const into = target;
  const key = uniqueKey(
    suggestKey(entry.server),
    into.kind === 'dotMcp' ? await dotMcpTakenNames(into) : await takenNames(into),
  );
  const mapped = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Preparing {0}…', escapeForDisplay(entry.server.name)),
    },
    async () =>
      prepareServer(entry.server, {
        key,
        takenInputIds: into.kind === 'dotMcp' ? [] : await takenInputIds(into),
        option,
        bundleFolder: extensionBundleFolder,
      }),
  );
  // `.mcp.json`'s dialect refuses what it cannot hold (an input, `${…}`) with the reason, before anything is written.
  if (into.kind === 'dotMcp') await addToDotMcp(into, key, mapped.entry);
  else await addServers(into, [{ name: key, entry: mapped.entry, inputs: mapped.inputs }]);
  const label = into.kind === 'dotMcp' ? '.mcp.json' : targetLabel(into);
  // A workspace's servers start after the first-start consent; the person's own (user settings) start when asked.
  void vscode.window.showInformationMessage(
    into.kind !== 'user'
      ? vscode.l10n.t(
          'Added {0} to {1} as "{2}". It starts after you confirm it, like any new server.',
          escapeForDisplay(entry.server.name),
          label,
          key,
        )
      : vscode.l10n.t(
          'Added {0} to {1} as "{2}". Start it from the Servers view.',
          escapeForDisplay(entry.server.name),
          label,
          key,
        ),
  );
  return key;
}

/** The entry as it would be written (no bundle here), to choose the default file: does it need inputs? */
function preview(server: ServerJson, option: RunOption): ReturnType<typeof preferredAddFile> | undefined {
  try {
    const mapped = mapServer(server, { key: suggestKey(server), option });
    return preferredAddFile(suggestKey(server), mapped.entry, { inputs: mapped.inputs });
  } catch {
    // The mapping refuses the entry again when it is prepared, with its reason; the picker keeps its usual order.
    return undefined;
  }
}

/**
 * The argument policy's word on the chosen way to run: a refused argument refuses the entry (each named, with why);
 * unusual ones are listed prominently and the person confirms. The mapping refuses the same again (the backstop).
 */
async function argumentsAccepted(server: ServerJson, option: RunOption): Promise<boolean> {
  const review = reviewRunOption(server, option);
  if (!review) return true;
  const refused = refusedFindings(review);
  if (refused.length > 0) {
    await vscode.window.showWarningMessage(
      vscode.l10n.t(
        '{0} is not added: its arguments would run something else than {1}.',
        escapeForDisplay(server.name),
        escapeForDisplay(describeRunOption(option)),
      ),
      { modal: true, detail: sayFindings(refused) },
    );
    return false;
  }
  const unusual = unusualFindings(review);
  if (unusual.length === 0) return true;
  const proceed = vscode.l10n.t('Add Anyway');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      '{0} runs {1} with arguments MCP Workbench does not know or that change how it runs. Add it only if you expect them:',
      escapeForDisplay(server.name),
      escapeForDisplay(describeRunOption(option)),
    ),
    { modal: true, detail: sayFindings(unusual) },
    proceed,
  );
  return answer === proceed;
}

function isBundle(option: RunOption): boolean {
  return option.kind === 'package' && option.pkg.registryType === 'mcpb';
}

/**
 * An MCPB bundle is unpacked into this person's home folder, so an entry in a workspace's mcp.json would name a
 * folder no one else who opens the workspace has: it goes to the user settings, once the person agrees.
 */
async function bundleToUserSettings(server: ServerJson, shared: string): Promise<boolean> {
  const toUser = vscode.l10n.t('Add to User Settings');
  const answer = await vscode.window.showInformationMessage(
    vscode.l10n.t('{0} runs from an MCPB bundle unpacked on this computer.', escapeForDisplay(server.name)),
    {
      modal: true,
      detail: vscode.l10n.t(
        '{0} is shared with everyone who opens this folder, and they do not have the bundle. It is added to your user settings instead ({1}).',
        shared,
        targetLabel({ kind: 'user' }),
      ),
    },
    toUser,
  );
  return answer === toUser;
}

/** One way to run it, or a choice when the entry lists several packages and remotes. */
async function pickRunOption(server: ServerJson): Promise<RunOption | undefined> {
  const options = runOptions(server);
  if (options.length <= 1) return options[0];
  const picked = await vscode.window.showQuickPick(
    options.map((option) => ({
      label: escapeForDisplay(describeRunOption(option)).replace(/\$\(/g, '$\u200b('),
      option,
    })),
    {
      title: escapeForDisplay(server.name),
      placeHolder: vscode.l10n.t('How should the server run?'),
      ignoreFocusOut: true,
    },
  );
  return picked?.option;
}

async function takenInputIds(target: ConfigTarget): Promise<string[]> {
  if (target.kind === 'user') {
    const value = userServersValue() as { inputs?: unknown } | undefined;
    return Array.isArray(value?.inputs)
      ? value.inputs.flatMap((input: { id?: unknown }) => (typeof input?.id === 'string' ? [input.id] : []))
      : [];
  }
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === target.uri.toString());
  if (open) return namesInConfig(open.getText()).inputIds;
  try {
    return namesInConfig(new TextDecoder().decode(await vscode.workspace.fs.readFile(target.uri))).inputIds;
  } catch {
    return [];
  }
}

/** MCPB bundles are unpacked where the CLI puts them too (next to its OAuth cache), one folder per server version. */
function extensionBundleFolder(server: ServerJson): BundleFolder {
  const root = vscode.Uri.file(path.join(path.dirname(defaultAuthDir()), 'mcpb', bundleFolderName(server)));
  return {
    root: root.fsPath,
    separator: path.sep,
    write: async (relativePath, data) => {
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, ...relativePath.split('/')), data);
    },
  };
}
