import * as vscode from 'vscode';
import { defineFeature } from '../../platform/feature';
import { DoctorCommand } from './doctorCommand';
import { LoadTestCommand } from './loadTestCommand';

/**
 * For server authors (issue 40), in the editor: Run Doctor (the CLI's `doctor` steps on a server's entry, the report
 * as a document with Copy Report) and Load Test… (the CLI's load generator with a live chart in a panel and a saved
 * report), on a server row, from the palette, and (Load Test…) on a `*.mcptest.json`. Both run their own copy of the
 * server, after the row's trust and first-start checks; the `tools` chunk holding the doctor and the load generator is
 * read only when one of them runs.
 */
export const authorToolsFeature = defineFeature({
  name: 'authorTools',
  activate({ platform, extension, own }) {
    const doctor = new DoctorCommand(platform);
    const reportsFolder = vscode.Uri.joinPath(extension.storageUri ?? extension.globalStorageUri, 'load-reports');
    const loadTest = new LoadTestCommand(platform, extension.extensionUri, reportsFolder);
    own({ dispose: () => [...loadTest.panels].forEach((panel) => panel.dispose()) });
    return {
      commands: {
        'mcpWorkbench.runDoctor': (argument) => doctor.run(argument),
        'mcpWorkbench.loadTest': (argument) => loadTest.run(argument),
      },
      exports: { doctor, loadTest },
    };
  },
});
