import * as vscode from 'vscode';
import { defineFeature } from '../../platform/feature';
import type { DoctorCommand } from './doctorCommand';
import type { LoadTestCommand } from './loadTestCommand';

/**
 * For server authors (issue 40), in the editor: Run Doctor (the CLI's `doctor` steps on a server's entry, the report
 * as a document with Copy Report) and Load Test… (the CLI's load generator with a live chart in a panel and a saved
 * report), on a server row, from the palette, and (Load Test…) on a `*.mcptest.json`. Both run their own copy of the
 * server, after the row's trust and first-start checks. Their code (with the doctor, the load generator and the client
 * they start) is imported when one of them first runs, not with the extension (esbuild.js).
 */
export const authorToolsFeature = defineFeature({
  name: 'authorTools',
  activate({ platform, extension, own }) {
    const reportsFolder = vscode.Uri.joinPath(extension.storageUri ?? extension.globalStorageUri, 'load-reports');
    let doctor: Promise<DoctorCommand> | undefined;
    let loadTest: Promise<LoadTestCommand> | undefined;
    const doctorCommand = () =>
      (doctor ??= import('./doctorCommand.js').then(({ DoctorCommand }) => new DoctorCommand(platform)));
    const loadTestCommand = () =>
      (loadTest ??= import('./loadTestCommand.js').then(
        ({ LoadTestCommand }) => new LoadTestCommand(platform, extension.extensionUri, reportsFolder),
      ));
    own({
      dispose: () => void loadTest?.then((command) => [...command.panels].forEach((panel) => panel.dispose())),
    });
    return {
      commands: {
        'mcpWorkbench.runDoctor': async (argument) => (await doctorCommand()).run(argument),
        'mcpWorkbench.loadTest': async (argument) => (await loadTestCommand()).run(argument),
      },
      exports: undefined,
    };
  },
});
