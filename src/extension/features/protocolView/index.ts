import { defineFeature } from '../../platform/feature';
import { ProtocolViews, showProtocol } from './protocolViews';

/** The Protocol view: each server's wire, message by message, masked. */
export const protocolViewFeature = defineFeature({
  name: 'protocolView',
  activate({ platform, services, own, extension }) {
    const views = new ProtocolViews(extension.extensionUri);
    own(views);
    platform.lend({ wire: views.wire });
    services.offer('wireTaps', {
      hold: (controller) => views.taps.tapFor(controller.id, () => controller.knownSecrets()).hold(),
    });
    return {
      commands: { 'mcpWorkbench.showProtocol': (argument) => showProtocol(platform.manager, views, argument) },
      exports: undefined,
    };
  },
});
