import { defineFeature } from '../../platform/feature';
import { taskToolLookup } from '../../platform/shared/taskToolLookup';
import { ElicitationUi } from './elicitationUi';

/** A server's elicitation requests: the form, or the URL the person may open. */
export const elicitationFeature = defineFeature({
  name: 'elicitation',
  activate({ platform, own }) {
    const { manager } = platform;
    const elicitation = new ElicitationUi(
      platform.reviewPanel,
      (serverName, line) => {
        const controller = manager.byName(serverName)[0];
        controller?.log.info(controller.mask(line));
      },
      taskToolLookup(() => manager),
    );
    platform.lend({ elicitation });
    own(elicitation, elicitation.onDidAnswer(platform.historyRecorder.recordElicitation));
    return { commands: {}, exports: { elicitation } };
  },
});
