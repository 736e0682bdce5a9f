import * as vscode from 'vscode';
import { defineFeature } from '../../platform/feature';
import { DevMode } from './devMode';

/** Dev mode: a server restarted when its files change, run under the debugger when asked, its wire kept. */
export const devFeature = defineFeature({
  name: 'dev',
  activate({ platform, services, own }) {
    const dev = new DevMode(
      platform.manager,
      () => platform.isWorkspaceTrusted(),
      (controller) => services.get('wireTaps')?.hold(controller) ?? new vscode.Disposable(() => undefined),
    );
    platform.lend({ debug: async (entry, resolved, log) => dev.debug(entry, resolved, log) });
    // Dev servers start with trust whatever autoStart says (a start shared with startAll's, if both ask).
    own(
      dev,
      platform.onDidGrantWorkspaceTrust(() => void dev.workspaceTrustGranted()),
    );
    return { commands: {}, exports: undefined };
  },
});
